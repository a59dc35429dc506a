import { HEADINGS, PARAGRAPH_BLOCKS } from './element-names.js';
import { linkedNames } from './metadata-byline.js';
import { CHANGE_WORDS, MONTH_NAMES, toIsoDate } from './metadata-dates.js';
import { type DomNode, textOf } from './metadata-markup.js';
import { clean, isNameWord, withoutControls } from './metadata-text.js';

/**
 * The visible dateline and byline a page prints beside its headline, for pages that state neither in
 * their markup: "March 5, 2024" under the `<h1>`, "Posted on 5 March 2024 · 4 min read" above it, a
 * `<time datetime>` in the headline's header, "By Jane Doe" on a line of its own.
 *
 * The page's text is read as lines (the text of each block element), and only the lines next to the
 * headline are looked at: at most {@link LINES_BEFORE} before it and {@link LINES_AFTER} after it,
 * stopping at a menu, a sidebar, a footer, another heading or the first paragraph of the story
 * ({@link STORY_LINE_CHARS}). A date elsewhere on the page (a teaser's, a comment's, today's date in
 * the masthead) is another thing's date.
 */
export interface Dateline {
  published?: string;
  author?: string;
}

/** Lines before the headline looked at: a kicker, a category, a date above the title. */
const LINES_BEFORE = 3;

/** Lines after the headline looked at: a standfirst, a byline, a dateline, a reading time. */
const LINES_AFTER = 6;

/** A line this long is the story (or a standfirst long enough to be one): the header ends there. */
const STORY_LINE_CHARS = 150;

/** How many `<h1>`s are weighed as the headline (a site's logo is often the first). */
export const MAX_HEADLINES = 5;

/**
 * Elements whose text starts and ends a line: those that end a paragraph, and the menus, table cells
 * and heading groups a dateline can sit beside.
 */
const BLOCKS: ReadonlySet<string> = new Set([...PARAGRAPH_BLOCKS, 'nav', 'td', 'th', 'hgroup']);

/** Elements whose content is never a line of the page's visible text. */
const SKIPPED = new Set([
  'script',
  'style',
  'noscript',
  'template',
  'svg',
  'math',
  'button',
  'select',
  'iframe',
]);

/** Regions whose lines belong to the site, not to the headline's story. */
const OUTSIDE = new Set(['nav', 'aside', 'footer']);
const OUTSIDE_ROLES = /^(?:navigation|banner|complementary|contentinfo|menu|menubar)$/i;

/** Words that may stand before a publication date: "Published", "Posted on", "On". */
const DATE_LEAD =
  /^(?:(?:first\s+)?(?:published|posted|written|created|released|dated|date|publié|veröffentlicht|publicado)(?:\s+(?:on|at|le|am))?|on)\s*:?\s*/i;

const WEEKDAY = String.raw`(?:(?:mon|tue|tues|wed|wednes|thu|thurs|fri|sat|satur|sun)(?:day)?\.?,?\s+)?`;
const TIME_OF_DAY = String.raw`(?:,?\s+(?:at\s+|um\s+|à\s+)?\d{1,2}[:.h]\d{2}(?::\d{2})?\s*(?:[ap]\.?\s?m\.?)?(?:\s*(?:[a-z]{2,5}|[+-]\d{2}:?\d{2}))?)?`;

let datePattern: RegExp | undefined;

/** A whole text that is one date, perhaps with its weekday and time: nothing else is a dateline. */
function dateOnly(): RegExp {
  if (datePattern !== undefined) return datePattern;
  const month = `(?:${[...MONTH_NAMES].sort((a, b) => b.length - a.length).join('|')})\\.?`;
  const day = String.raw`\d{1,2}(?:st|nd|rd|th)?\.?`;
  const forms = [
    `${day}\\s+(?:de\\s+)?${month},?\\s+(?:de\\s+)?\\d{4}`,
    `${month}\\s+${day},?\\s+\\d{4}`,
    String.raw`\d{4}-\d{2}-\d{2}(?:[T\s]\d{2}:\d{2}(?::\d{2})?(?:Z|[+-]\d{2}:?\d{2})?)?`,
    String.raw`\d{4}[/.]\d{1,2}[/.]\d{1,2}`,
    String.raw`\d{4}\s*[年년]\s*\d{1,2}\s*[月월]\s*\d{1,2}\s*[日일](?:\s*[(（][^)）]{1,4}[)）])?(?:\s*\d{1,2}\s*(?::|時|시)\s*\d{2}\s*[分분]?)?`,
    String.raw`\d{1,2}[./]\d{1,2}[./]\d{4}`,
  ];
  datePattern = new RegExp(`^${WEEKDAY}(?:${forms.join('|')})${TIME_OF_DAY}$`, 'iu');
  return datePattern;
}

/** The ISO form of `text` when the whole of it (after a "Published"-like lead) is a date. */
export function datelineDate(text: string): string | undefined {
  const line = clean(text)
    .replace(DATE_LEAD, '')
    .replace(/[.,;]$/, '');
  if (line === '' || line.length > 60 || !dateOnly().test(line)) return undefined;
  // "12 de marzo de 2024": the date reader wants the day next to the month.
  return toIsoDate(line.replace(/\bde\s+/gi, ''));
}

/** "By Jane Doe", "Written by Jane Doe and John Roe": a line of its own that names the writers. */
const BYLINE_LINE = /^(?:(?:written|posted|reported|words|story|text)\s+)?by\s*:?\s+(.+)$/i;

/** The names of a "By …" line, or undefined when the rest does not read as names. */
function datelineAuthor(
  text: string,
  stripByline: (text: string) => string,
  pieces: readonly string[] = [],
): string | undefined {
  const line = clean(text);
  if (line.length > 100) return undefined;
  const match = BYLINE_LINE.exec(line);
  if (match === null) return undefined;
  const names = linkedNames(stripByline(`By ${match[1]}`), pieces);
  // Names: one to eight words, each starting with a capital letter or a joining word or particle
  // ("and", "&", "van", "de"), whole.
  const words = names.split(/\s+/);
  if (words.length === 0 || words.length > 8 || /[.?!:]$/.test(names)) return undefined;
  const named = words.every(isNameWord);
  return named && /\p{L}/u.test(names) ? names : undefined;
}

interface Line {
  text: string;
  /** The texts of the inline elements on the line (a `<span>` holding only the date, a link). */
  pieces: string[];
  /** Whether a link holds the whole line (a teaser's heading, never a subtitle). */
  linked: boolean;
  /** The `datetime` of the line's `<time>` elements. */
  times: string[];
  heading: boolean;
  outside: boolean;
  headline: boolean;
  /** The line follows an "Updated:" label: its date is not the publication date. */
  updated: boolean;
}

/** The fewest words of a heading under the headline read as its subtitle, not a section's heading. */
const SUBTITLE_WORDS = 6;

/** A date that says it is not the first publication: "Updated", "Last modified", "Reviewed". */
const NOT_PUBLISHED = new RegExp(`^(?:last\\s+)?(?:${CHANGE_WORDS})\\b`, 'i');

/**
 * The page's dateline and byline beside its headline (see {@link Dateline}); `titles` are the page's
 * `<title>` and `og:title`, used to tell the story's `<h1>` from the site's.
 */
export function readDateline(
  document: DomNode,
  headlines: readonly DomNode[],
  titles: readonly string[],
  stripByline: (text: string) => string,
  listed: (node: DomNode) => boolean = () => false,
): Dateline {
  const headline = chooseHeadline(headlines, titles);
  if (headline === undefined) return {};
  const found: Dateline = {};
  for (const line of linesNear(linesAround(document, headline, listed))) {
    found.published ??= publishedOn(line);
    found.author ??= authorOn(line, stripByline);
  }
  return found;
}

/** The lines of the headline's header: those after it first, nearest first, then those before it. */
function linesNear(lines: readonly Line[]): Line[] {
  const index = lines.findIndex((line) => line.headline);
  if (index < 0) return [];
  const near: Line[] = [];
  let headings = 0;
  for (const line of lines.slice(index + 1, index + 1 + LINES_AFTER)) {
    if (line.outside) break;
    near.push(line);
    if (line.text.length >= STORY_LINE_CHARS) break;
    // A heading starts the story's sections, except the first one after the headline when it reads
    // as the headline's subtitle: SUBTITLE_WORDS words or more, and not a link (a teaser's heading).
    if (line.heading && datelineDate(line.text) === undefined) {
      headings += 1;
      if (headings > 1 || line.linked || line.text.split(' ').length < SUBTITLE_WORDS) break;
    }
  }
  for (const line of lines.slice(Math.max(0, index - LINES_BEFORE), index).reverse()) {
    if (line.outside || line.heading || line.text.length >= STORY_LINE_CHARS) break;
    near.push(line);
  }
  return near;
}

function publishedOn(line: Line): string | undefined {
  if (line.updated || NOT_PUBLISHED.test(line.text)) return undefined;
  for (const time of line.times) {
    const date = toIsoDate(clean(time));
    if (date !== undefined) return date;
  }
  for (const text of [line.text, ...parts(line.text), ...line.pieces]) {
    if (NOT_PUBLISHED.test(clean(text))) continue;
    const date = datelineDate(text);
    if (date !== undefined) return date;
  }
  return undefined;
}

function authorOn(line: Line, stripByline: (text: string) => string): string | undefined {
  for (const text of [line.text, ...parts(line.text)]) {
    const names = datelineAuthor(text, stripByline, line.pieces);
    if (names !== undefined) return names;
  }
  for (const piece of line.pieces) {
    const names = datelineAuthor(piece, stripByline);
    if (names !== undefined) return names;
  }
  return undefined;
}

/** A line cut at the marks pages put between a byline, a date and a reading time. */
function parts(text: string): string[] {
  const split = text.split(/\s+[|•·—–-]\s+|\s*[|•·]\s*/);
  return split.length > 1 ? split : [];
}

/** The `<h1>` the page's title repeats most of, else the first one. */
function chooseHeadline(headlines: readonly DomNode[], titles: readonly string[]): DomNode | undefined {
  const wanted = titles.map((title) => normalized(title)).filter((title) => title !== '');
  let best: DomNode | undefined;
  let bestLength = 0;
  for (const node of headlines.slice(0, MAX_HEADLINES)) {
    const text = normalized(textOf(node));
    if (text.length > bestLength && wanted.some((title) => title.includes(text))) {
      best = node;
      bestLength = text.length;
    }
  }
  return best ?? headlines[0];
}

function normalized(text: string): string {
  return clean(text).toLowerCase();
}

/**
 * The page's lines in document order, up to {@link LINES_AFTER} past the headline's (the walk stops
 * there). Each line is the text of one block element outside its child blocks.
 */
function linesAround(document: DomNode, headline: DomNode, listed: (node: DomNode) => boolean): Line[] {
  const reader = new LineReader(headline, listed);
  reader.visit(document, false, false);
  reader.flush();
  const lines = reader.lines;
  for (const [index, line] of lines.entries()) {
    const next = lines[index + 1];
    if (
      next !== undefined &&
      line.text.length <= 30 &&
      NOT_PUBLISHED.test(line.text) &&
      datelineDate(line.text) === undefined
    )
      next.updated = true;
  }
  return lines;
}

/** Reads a page's text as lines (see {@link linesAround}). */
class LineReader {
  readonly lines: Line[] = [];
  private current: Line | undefined;
  private afterHeadline = -1;

  constructor(
    private readonly headline: DomNode,
    private readonly listed: (node: DomNode) => boolean,
  ) {}

  flush(): void {
    const line = this.current;
    this.current = undefined;
    if (line === undefined) return;
    line.text = clean(line.text);
    if (line.text !== '' || line.times.length > 0) this.lines.push(line);
  }

  private open(outside: boolean, heading: boolean, headline: boolean): Line {
    this.current ??= {
      text: '',
      pieces: [],
      linked: false,
      times: [],
      heading,
      outside,
      headline,
      updated: false,
    };
    return this.current;
  }

  /** Reads `node` into lines; false once the lines after the headline are all read. */
  visit(node: DomNode, outside: boolean, inHeadline: boolean): boolean {
    if (this.afterHeadline >= 0 && this.lines.length - this.afterHeadline > LINES_AFTER) return false;
    if (node.type === 'text') {
      this.open(outside, false, inHeadline).text += withoutControls(node.data ?? '');
      return true;
    }
    if (node.type !== 'tag' && node.type !== 'root') return true;
    return this.visitElement(node, outside, inHeadline);
  }

  private visitElement(node: DomNode, outside: boolean, inHeadline: boolean): boolean {
    const name = node.name ?? '';
    const attribs = node.attribs ?? {};
    if (SKIPPED.has(name) || 'hidden' in attribs || attribs['aria-hidden'] === 'true') return true;
    const isHeadline = node === this.headline;
    const block = BLOCKS.has(name) || name === 'br';
    // After the headline, an entry of a list of writings (a blog's index under its heading) is
    // another writing's: its date and byline are not the page's.
    const inside =
      outside ||
      this.isOutside(node, name, attribs) ||
      (block && this.afterHeadline >= 0 && this.listed(node));
    if (block) this.flush();
    if (HEADINGS.has(name)) this.open(inside, true, isHeadline || inHeadline);
    if (name === 'time' && attribs.datetime !== undefined) {
      this.open(inside, false, inHeadline).times.push(attribs.datetime);
    }
    const line = this.current;
    const start = line?.text.length ?? 0;
    for (const child of node.children ?? []) {
      if (!this.visit(child, inside, inHeadline || isHeadline)) return false;
    }
    if (block) {
      this.flush();
      if (isHeadline) this.afterHeadline = this.lines.length - 1;
    } else if (line !== undefined && line === this.current && node.type === 'tag') {
      recordPiece(line, line.text.slice(start), name === 'a');
    }
    return true;
  }

  /** Whether `node` is a menu, a sidebar, a footer or a header that is not the headline's. */
  private isOutside(node: DomNode, name: string, attribs: Record<string, string>): boolean {
    if (OUTSIDE.has(name) || OUTSIDE_ROLES.test(attribs.role ?? '')) return true;
    return name === 'header' && !contains(node, this.headline);
  }
}

/** Records the text of an inline element on `line` (and whether a link holds the whole line). */
function recordPiece(line: Line, piece: string, link: boolean): void {
  if (piece.trim() === '') return;
  if (piece.length < 80) line.pieces.push(piece);
  if (link && clean(piece) === clean(line.text)) line.linked = true;
}

function contains(ancestor: DomNode, node: DomNode): boolean {
  for (let at: DomNode | null | undefined = node; at !== null && at !== undefined; at = at.parent) {
    if (at === ancestor) return true;
  }
  return false;
}
