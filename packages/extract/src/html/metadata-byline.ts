import { PARAGRAPH_BLOCKS } from './element-names.js';
import { CHANGE_WORDS, MONTH_NAMES, toIsoDate } from './metadata-dates.js';
import { type DomNode, hasAncestor } from './metadata-markup.js';
import { clean, isName, isNameWord, MAX_BYLINE_CHARS, withoutControls } from './metadata-text.js';
import { isPageTool } from './page-tools.js';

/** What starts a byline before the names: "By", "Written by", "Von", "Par", "Por", "Door". */
const BYLINE_LEAD =
  /^(?:(?:written|posted|post|reported|words|story|text|photos?|published|submitted|shared|authored|recipe|guide)\s+)?(?:by|via|von|par|por|door|di|av|af|de)\s*:?\s+(?:by\s+)?/i;

/** A comma and a job title after a byline's names ("…, Senior Editor"): the rest of the line is dropped. */
export const ROLE_AFTER_NAMES =
  /,\s*[^,]*\b(?:(?:co-?)?founder|ceo|coo|cto|cfo|editor|writer|journalist|reporter|correspondent|columnist|contributor|staff|expert|manager|director|president|vp|analyst|scientist|engineer|professor|fellow|researcher|specialist|consultant|strategist|officer|chief|producer|photographer)s?\b.*$/i;

/**
 * An "Author:" label before the names, or a credit for the words ("Text:", "Texto:", "Tekst:",
 * "Текст:", "Автор:") as German, Spanish, Dutch, Polish and Russian bylines give it.
 */
const AUTHOR_LABEL =
  /^(?:(?:authors?|writers?|autor(?:in)?|auteur|text|texto|tekst|текст|автор)\s*[:：]|(?:著者|作者|筆者)\s*[:：]?)\s*/i;

/**
 * The first visible byline that reads as one (see `BYLINE_NAME` in `metadata-markup.ts`), its lead word dropped; a
 * byline `listed` says is another writing's (an entry's of a list) is passed over.
 */
export function visibleByline(
  nodes: readonly DomNode[],
  listed: (node: DomNode) => boolean = () => false,
): string | undefined {
  // A byline that names nobody (only a date, a label or a phrase) names nobody in its parts either
  // (its category link, its date's element).
  const nobody = new Set<DomNode>();
  for (const node of nodes) {
    if (nobody.size > 0 && hasAncestor(node, (ancestor) => nobody.has(ancestor))) continue;
    if (isOthers(node)) continue;
    const { text, pieces, whole } = firstLine(node);
    if (!whole) continue;
    const line = clean(text);
    if (line === '' || line.length > MAX_BYLINE_CHARS) continue;
    if (isBlankOrLabel(line)) {
      nobody.add(node);
      continue;
    }
    // An author box's heading: the names come after it, in the box's parts; so may they after a
    // line that says when the page was changed ("Updated November 11, 2022").
    if (AUTHOR_BOX_HEADING.test(line) || DATE_STATUS.test(line)) continue;
    // Each name of several words that an element of its own holds ("<a>Jane Doe</a> Staff Writer").
    const ownNames = pieces
      .map((piece) => clean(piece).replace(BYLINE_LEAD, ''))
      .filter((piece) => piece.includes(' '));
    const first = linkedNames(stripByline(line), ownNames);
    const later = namesAfterBy(first, line);
    const names = later === undefined ? first : linkedNames(stripByline(`By ${later}`), ownNames);
    // A line that is only a label, a date ("Dec 1st 2016 1:01PM", "Jun 2"), a phrase, a link's call
    // to action or a product's maker ("Visit the Acme Store", "From Acme") names nobody, and neither
    // do its parts; nor does an exclamation or a question ("Coming Soon!").
    if (namesNobody(names)) nobody.add(node);
    else if (isName(names) && !/[!?]$/.test(names) && !listed(node)) return withoutInitials(names);
  }
  return undefined;
}

/**
 * What starts a byline's text that names no writer though its words are capitalised: a link's call
 * to action ("Visit the Acme Store", "View Profile", "Follow") or a product's maker ("From Acme").
 */
const NOT_A_WRITER = /^(?:from|visit|view|see|follow|subscribe|contact|shop|browse|explore|discover)\b/i;

/**
 * A line that says when the page was changed or checked, not by whom ("Last Updated: January 7,
 * 2025", "Reviewed: …"): what is left of it once the date goes ("Last") is no name.
 */
const DATE_STATUS = new RegExp(
  `^(?:last\\s+)?(?:${CHANGE_WORDS}|published|posted|created)\\b(?!\\s*:?\\s*by\\b)`,
  'i',
);

/** Elements whose bylines are not the page's: menus, footers, asides and quotations. */
const OUTSIDE_TAGS = new Set(['nav', 'footer', 'aside', 'blockquote']);

/**
 * Whether a byline is someone else's than the page's writer: readers' comments and reviews name
 * their own authors, quotes and testimonials their speakers (but a blog's post in its quote format,
 * `format-quote`, is the page's); menus and footers name the site's.
 */
function isOthers(node: DomNode): boolean {
  return hasAncestor(node, (ancestor) => {
    if (OUTSIDE_TAGS.has(ancestor.name ?? '')) return true;
    return /comment|review|reply|replies|answer|testimonial|(?<!format-)quote/i.test(
      `${ancestor.attribs?.class ?? ''} ${ancestor.attribs?.id ?? ''}`,
    );
  });
}

/** Whether what a byline gives as names is none (see {@link visibleByline}). */
function namesNobody(names: string): boolean {
  return (
    isBlankOrLabel(names) ||
    toIsoDate(names) !== undefined ||
    dayOfMonthPattern().test(names) ||
    WEEKDAY.test(names) ||
    isPhrase(names) ||
    NOT_A_WRITER.test(names)
  );
}

/** A weekday's name written out ("Wednesday"). */
const WEEKDAY_NAME = '(?:mon|tues|wednes|thurs|fri|satur|sun)day';

/** A weekday's name alone, what is left of a date that a byline starts with once its date goes. */
const WEEKDAY = new RegExp(`^${WEEKDAY_NAME}$`, 'i');

/** A weekday after a byline's names, and the date after it ("Jane Doe, Wednesday …"). */
const WEEKDAY_AFTER_NAMES = new RegExp(String.raw`,?\s+${WEEKDAY_NAME}\b.*$`, 'i');

/**
 * The text after a byline's "by" when what comes before it names nobody: a phrase ("This post was
 * written by Jane Doe") or a date ("Wednesday January 18, 2017 10:44 am PST by Jane Doe").
 */
function namesAfterBy(first: string, line: string): string | undefined {
  if (isPhrase(first)) return /\bby:?\s+(\S.*)$/i.exec(first)?.[1];
  return namesNobody(first) ? /\sby:?\s+(\S.*)$/i.exec(line)?.[1] : undefined;
}

let dayOfMonth: RegExp | undefined;

/** A day of a month without its year ("Jun 2", "2 June"), which names nobody. */
function dayOfMonthPattern(): RegExp {
  if (dayOfMonth !== undefined) return dayOfMonth;
  const month = `(?:${[...MONTH_NAMES].sort((a, b) => b.length - a.length).join('|')})\\.?`;
  dayOfMonth = new RegExp(
    `^(?:${month}\\s+\\d{1,2}(?:st|nd|rd|th)?|\\d{1,2}(?:st|nd|rd|th)?\\.?\\s+${month})$`,
    'iu',
  );
  return dayOfMonth;
}

/**
 * Whether a byline's text of several words is a phrase, not names: a word other than a joining
 * word or particle starts in lower case ("This article was", "4+ years covering hardware").
 */
function isPhrase(names: string): boolean {
  const words = names.split(/\s+/);
  return words.length > 1 && !words.every(isNameWord);
}

/** Names without the avatar's initials before them: "CM Craig McCarthy" is "Craig McCarthy". */
function withoutInitials(names: string): string {
  const match = /^(\p{Lu}{1,3})\s+(\S.*)$/u.exec(names);
  if (match === null) return names;
  const [, initials, rest] = match as unknown as [string, string, string];
  const ofRest = rest
    .split(/\s+/)
    .map((word) => word[0] ?? '')
    .join('');
  return ofRest === initials ? rest : names;
}

/**
 * Where two elements meet in a byline's text (see {@link firstLine}): a space there when letters of
 * a spaced script would otherwise run together ("By" + "Jane" is "By Jane"), nothing in CJK text.
 */
const MEETING = '\ue000';

/** A line that only labels the names on the next one: "By", "Author:", "著者", "作者：". */
const LABEL_ONLY =
  /^(?:(?:(?:written|posted)\s+)?by|authors?|writers?|autor(?:in)?|auteur|von|par|por|著者|作者|筆者|文)\s*[:：]?$/i;

/**
 * The heading of a box about the writer ("About the author", "Author bio", "Über den Autor",
 * "À propos de l'auteur", "Sobre el autor"), which heads the names rather than being one.
 */
const AUTHOR_BOX_HEADING =
  /^(?:(?:about|meet)\s+(?:the\s+)?(?:authors?|writers?|contributors?)|authors?\s+(?:bio(?:graphy)?|info(?:rmation)?|details|profile)|über\s+(?:den|die)\s+autor(?:in|en)?|à\s+propos\s+de\s+l['’]auteur|sobre\s+(?:el|la|o|a)\s+autor(?:a)?|over\s+de\s+auteur)\s*[:：]?$/i;

/** A line that is an avatar's initials ("JD") before the names. */
const INITIALS = /^\p{Lu}{1,3}$/u;

/** The longest label or initials told apart from names, in characters ("Written by:"). */
const LABEL_CHARS = 12;

/** The most nodes read of one element that may be a byline. */
const MAX_BYLINE_NODES = 400;

/**
 * The first line of a byline's text, and the texts of the inline elements on it. Elements the page
 * sets apart (`<span>By</span>Jane Doe`, `<a>Jane Doe</a><span>CEO</span>`) are read apart; a block
 * element or a `<br>` ends the line unless the line so far is only a label ({@link LABEL_ONLY}) or
 * initials ({@link INITIALS}). Scripts and styles are skipped.
 */
function firstLine(node: DomNode): { text: string; pieces: string[]; whole: boolean } {
  const line = new BylineLine();
  // Each element is met twice: entering it (`start` undefined) and leaving it (where its text began).
  const pending: { node: DomNode; start?: number }[] = [{ node }];
  for (let entry = pending.pop(); entry !== undefined; entry = pending.pop()) {
    // A byline is a few elements and a line of text; more is no byline, and is not read further.
    if (line.full()) return { text: line.text, pieces: line.pieces, whole: false };
    const current = entry.node;
    if (current.type === 'text') {
      line.add(current.data ?? '');
      continue;
    }
    if (
      current.type !== 'tag' ||
      (current !== node && (isPageTool(current.attribs) || isScreenReaderOnly(current.attribs)))
    )
      continue;
    const ends = current.name === 'br' || PARAGRAPH_BLOCKS.has(current.name ?? '');
    if (ends && current !== node && !line.labelOnly()) break;
    if (entry.start !== undefined) {
      line.leave(entry.start, ends);
      continue;
    }
    pending.push({ node: current, start: line.enter() });
    const children = current.children ?? [];
    for (let index = children.length - 1; index >= 0; index--) {
      const child = children[index];
      if (child !== undefined) pending.push({ node: child });
    }
  }
  return { text: closeMeetings(line.text), pieces: line.pieces.map(closeMeetings), whole: true };
}

/** The first line of a byline as {@link firstLine} reads it. */
class BylineLine {
  text = '';
  readonly pieces: string[] = [];
  /** The line's first characters, whitespace collapsed: what a label is told by. */
  private head = '';
  /** How many characters other than whitespace the line holds. */
  private shown = 0;
  private visited = 0;

  /** Counts one more node read; true once the line holds more than a byline could. */
  full(): boolean {
    this.visited += 1;
    return this.visited > MAX_BYLINE_NODES || this.shown > MAX_BYLINE_CHARS;
  }

  add(data: string): void {
    const text = withoutControls(data);
    this.text += text;
    this.shown += text.replace(/\s+/g, '').length;
    // Kept short, so that a byline of many empty elements costs no more than its size.
    if (this.head.length <= LABEL_CHARS) this.head = `${this.head}${text}`.replace(/\s+/g, ' ');
  }

  /** Whether the line so far is blank, a label or initials: a block element does not end it then. */
  labelOnly(): boolean {
    return this.shown === 0 || (this.head.length <= LABEL_CHARS && isBlankOrLabel(this.head));
  }

  /** Marks where an element meets the text before it; returns where the element's text begins. */
  enter(): number {
    this.text += MEETING;
    return this.text.length;
  }

  /** Records the text of an inline element that began at `start` as a piece, and marks its end. */
  leave(start: number, block: boolean): void {
    if (!block && this.text.length - start <= 2 * MAX_BYLINE_CHARS) {
      const piece = this.text.slice(start);
      if (!isBlankOrLabel(piece)) this.pieces.push(piece);
    }
    this.text += MEETING;
  }
}

function isBlankOrLabel(text: string): boolean {
  const line = clean(text.replaceAll(MEETING, ' '));
  return line === '' || LABEL_ONLY.test(line) || INITIALS.test(line);
}

/** `text` with each meeting of elements made a space or nothing (see {@link MEETING}). */
function closeMeetings(text: string): string {
  return text.replace(/\ue000+/g, (meeting, at: number) => {
    const before = text[at - 1] ?? ' ';
    const after = text[at + meeting.length] ?? ' ';
    return /[\p{L}\p{N}.,;:!?)\]@]/u.test(before) &&
      /[\p{L}\p{N}@(]/u.test(after) &&
      !/[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}]/u.test(before + after)
      ? ' '
      : '';
  });
}

/**
 * A Korean byline's title after each name ("홍길동 기자", reporter; "특파원", correspondent; "논설위원",
 * editorial writer), and the count of co-writers after it ("기자 외 1명", and one other).
 */
export const KOREAN_TITLE_AFTER_NAME =
  /\s*(?:선임|수석|전문|객원|편집|취재)?(?:기자|특파원|논설위원|편집위원)(?:\s*외\s*\d+\s*명)?(?=$|[\s,·])/gu;

/** A byline without its lead ("By", "Author:") and without a date or role after the names. */
export function stripByline(text: string): string {
  let names = text.replace(AUTHOR_LABEL, '').replace(BYLINE_LEAD, '');
  // "Jane Doe | March 5, 2024", "Jane Doe • 5 min read", "Jane Doe, Staff Writer — Updated …".
  names = names.split(/\s+[|•·—–/]\s+|\s*\|\s*/)[0] ?? '';
  // "Post by galitsyn » Sat Jan 2": one "»" ends the names; a trail of them is a breadcrumb.
  if (names.split('»').length === 2) names = names.replace(/\s+»(?:\s.*)?$/, '');
  // "Jane Doe. Reviewed by John Roe, MD": the reviewer is not a writer.
  names = names.replace(/\.?\s+(?:medically\s+)?(?:reviewed|edited|fact[- ]checked)\s+by\b.*$/i, '');
  names = names.replace(/\s+(?:on|updated|published|posted)\b.*$/i, '');
  names = names.replace(WEEKDAY_AFTER_NAMES, '');
  // A date after the names: "…, 12 February", "… 12 Feb 2024", "… March 5, 2024" (a bare month
  // name stays: "Theresa May").
  names = names.replace(
    /(?:,\s*|\s+(?=\d))(?:\d{1,2}(?:st|nd|rd|th)?\.?\s+)?(?:jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec)[a-z]*\b.*$/i,
    '',
  );
  names = names.replace(/\s+(?:jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec)[a-z]*\.?\s+\d.*$/i, '');
  // "petrelwatch 9 hours ago", "Kim, 2 days ago".
  names = names.replace(
    /,?\s+(?:\d+|an?|one)\s+(?:second|minute|hour|day|week|month|year)s?\s+ago\b.*$/i,
    '',
  );
  // "Jane Doe, Staff Writer", "Jane Doe, Co-Founder & COO": the role after the names.
  names = names.replace(ROLE_AFTER_NAMES, '').replace(KOREAN_TITLE_AFTER_NAME, '');
  return names.replace(/[\s,;:]+$/, '').trim();
}

/**
 * A byline's names cut after the one its link holds when the rest is not more names: "By A. J. Neal
 * View in digital edition" is "A. J. Neal"; "By Jane Doe and John Roe" stays whole.
 */
export function linkedNames(names: string, pieces: readonly string[]): string {
  for (const raw of pieces) {
    const piece = clean(raw);
    if (piece === '' || piece === names || !names.startsWith(piece)) continue;
    const rest = names.slice(piece.length);
    // A rest glued to the names ("Jane DoePublished", "Jane Doe22 Dec 2016") is the next element's text.
    const apart = /^\s/.test(rest) || /^[\p{Lu}\p{N}]/u.test(rest);
    if (apart && !/^\s*(?:,|&|and\b|und\b|et\b|y\b|e\b)/i.test(rest)) return piece.replace(/[\s,;:]+$/, '');
  }
  return names;
}

/** Class names of text kept for screen readers and drawn for no one else. */
const SCREEN_READER_ONLY =
  /(?:^|\s)(?:sr-only|screen-reader-text|screen-reader-only|visually-hidden|visuallyhidden|u-visually-hidden|a11y-hidden|element-invisible|hidden-visually)(?:\s|$)/i;

/** Whether an element's class keeps its text for screen readers only (a brand's name, "Posted by"). */
function isScreenReaderOnly(attribs: Readonly<Record<string, string>> | undefined): boolean {
  return SCREEN_READER_ONLY.test(attribs?.class ?? '');
}
