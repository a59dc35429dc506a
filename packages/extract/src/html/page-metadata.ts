import { loadHtmlparser2 } from '../lazy-modules.js';
import { toIsoDate } from './metadata-dates.js';

/** What a page says about itself: who wrote it, when, where, in which language and about what. */
export interface PageMetadata {
  /** The byline's names, without "By" (several are joined with ", " when the page lists them apart). */
  author?: string;
  /** When it was published, as an ISO 8601 date or date-time. */
  published?: string;
  /** The name of the site or publication. */
  siteName?: string;
  /** The page's language, as a BCP 47 tag (`en`, `en-US`, `zh-Hant-TW`). */
  language?: string;
  /** The summary the page gives of itself. */
  description?: string;
}

/** The longest author, site name or date kept, in characters (longer ones are cut). */
export const MAX_METADATA_FIELD_CHARS = 200;

/** The longest description kept, in characters (longer ones are cut). */
export const MAX_DESCRIPTION_CHARS = 1000;

/** The longest visible byline read as one, in characters: longer text is a paragraph, not a byline. */
export const MAX_BYLINE_CHARS = 100;

/** The most JSON-LD nodes looked at: a page's data may be a whole catalogue. */
const MAX_JSON_LD_NODES = 2000;

/** The most characters of one JSON-LD script parsed. */
const MAX_JSON_LD_CHARS = 1_000_000;

/**
 * C0 and C1 controls, and the characters that change the direction text is shown in or hide in it
 * (bidi embeddings, overrides and isolates, marks, zero-width characters, the byte-order mark):
 * page text shown to a model must read as it is stored.
 */
// biome-ignore lint/suspicious/noControlCharactersInRegex: removing controls is the point.
const CONTROL_OR_BIDI = /[\u0000-\u001f\u007f-\u009f\u061c\u200b-\u200f\u202a-\u202e\u2060-\u2069\ufeff]/g;

/** Schema.org types that are a piece of writing; their node is the page's own when there are several. */
const ARTICLE_TYPE =
  /article|posting|report|review|recipe|webpage|aboutpage|profilepage|qapage|creativework|blog|book|movie|episode|videoobject|event|product|thesis|guide|howto/i;

/** Dublin Core first: a page that states it chose it over the looser `author` on purpose. */
const AUTHOR_META = [
  'dc.creator',
  'dc:creator',
  'dcterms.creator',
  'dcterm:creator',
  'dcterms:creator',
  'author',
  'article:author',
  'og:article:author',
  'book:author',
  'parsely-author',
  'sailthru.author',
  'byl',
  'citation_author',
  'dc.contributor',
];

const PUBLISHED_META = [
  'article:published_time',
  'og:article:published_time',
  'og:published_time',
  'published_time',
  'article:published',
  'datepublished',
  'parsely-pub-date',
  'sailthru.date',
  'citation_publication_date',
  'citation_date',
  'citation_online_date',
  'dc.date.issued',
  'dcterms.issued',
  'dcterms.created',
  'dcterms.available',
  'dcterms.date',
  'dc.date',
  'dc.date.created',
  'dc:date',
  'weibo:article:create_at',
  'pubdate',
  'publishdate',
  'publish-date',
  'publish_date',
  'date',
  'release_date',
  'article.published',
];

const SITE_NAME_META = ['og:site_name', 'og:sitename', 'application-name', 'apple-mobile-web-app-title'];

const DESCRIPTION_META = [
  'description',
  'og:description',
  'twitter:description',
  'dc.description',
  'dc:description',
  'dcterms.description',
  'dcterm:description',
];

const LANGUAGE_META = ['dc.language', 'dc:language', 'dcterms.language', 'language', 'og:locale'];

/** Class or id names of a visible byline. */
const BYLINE_NAME =
  /byline|by-line|(?:^|[\s_-])(?:authors?|writer|creator|posted-?by|written-?by|writtenby)(?:$|[\s_-]|name|info)|p-author/i;

/** Class or id names near a byline that are not one: the author's picture, biography or links. */
const NOT_BYLINE_NAME =
  /avatar|\bbio|image|photo|img|social|follow|comment|about|more-by|box|card|list|tooltip/i;

/** What starts a byline before the names: "By", "Written by", "Von", "Par", "Por", "Door". */
const BYLINE_LEAD =
  /^(?:(?:written|posted|reported|words|story|text|photos?|published|submitted|shared)\s+)?(?:by|via|von|par|por|door|di|av|af|de)\s*:?\s+/i;

/** An "Author:" label before the names. */
const AUTHOR_LABEL = /^(?:authors?|writers?|autor(?:in)?|auteur)\s*:\s*/i;

/** Minimal view of htmlparser2's nodes (domhandler), the fields this module reads. */
interface DomNode {
  type: string;
  name?: string;
  data?: string;
  attribs?: Record<string, string>;
  children?: DomNode[];
  parent?: DomNode | null;
}

interface Collected {
  meta: Map<string, string[]>;
  jsonLd: string[];
  htmlLang: string | undefined;
  itemAuthors: DomNode[];
  itemDates: string[];
  itemPublishers: DomNode[];
  bylines: DomNode[];
  publishTimes: string[];
}

/**
 * Reads what the page says about itself from, in order of trust: its JSON-LD (the node for the page's
 * writing, `@graph` and arrays included), its `<meta>` tags (Open Graph, `article:`, Dublin Core,
 * Parse.ly, Highwire), its microdata (`itemprop`), and for the author its visible byline. A field the
 * page does not state is absent. Every value is page text: controls and bidi characters are removed,
 * whitespace is collapsed, and its length is bounded ({@link MAX_METADATA_FIELD_CHARS},
 * {@link MAX_DESCRIPTION_CHARS}).
 */
export async function readPageMetadata(html: string): Promise<PageMetadata> {
  const { parseDocument } = await loadHtmlparser2();
  const document = parseDocument(html, { lowerCaseAttributeNames: true }) as unknown as DomNode;
  const found = collect(document);
  const ld = readJsonLd(found.jsonLd);
  const meta = (keys: readonly string[], accept: (value: string) => boolean = () => true) => {
    for (const key of keys) {
      for (const value of found.meta.get(key) ?? []) if (accept(clean(value))) return clean(value);
    }
    return undefined;
  };

  const citationAuthors = (found.meta.get('citation_author') ?? []).map(clean).filter(isName);
  const author =
    ld.author ??
    meta(
      AUTHOR_META.filter((key) => key !== 'citation_author'),
      isName,
    ) ??
    (citationAuthors.length > 0 ? joinNames(citationAuthors) : undefined) ??
    microdataAuthor(found.itemAuthors) ??
    visibleByline(found.bylines);

  let published = ld.published;
  for (const raw of [
    ...PUBLISHED_META.flatMap((key) => found.meta.get(key) ?? []),
    ...found.itemDates,
    ...found.publishTimes,
  ]) {
    if (published !== undefined) break;
    published = toIsoDate(clean(raw));
  }

  const siteName =
    ld.siteName ??
    meta(SITE_NAME_META, (value) => value !== '' && !isUrl(value)) ??
    microdataName(found.itemPublishers);

  const language = [
    found.htmlLang,
    ...(found.meta.get('content-language') ?? []).map((value) => value.split(',')[0] ?? ''),
    ld.language,
    ...LANGUAGE_META.flatMap((key) => found.meta.get(key) ?? []),
  ]
    .map((value) => (value === undefined ? undefined : languageTag(value)))
    .find((value) => value !== undefined);

  const description = meta(DESCRIPTION_META, (value) => value !== '') ?? ld.description;

  return {
    ...bounded('author', author, MAX_METADATA_FIELD_CHARS),
    ...bounded('published', published, MAX_METADATA_FIELD_CHARS),
    ...bounded('siteName', siteName, MAX_METADATA_FIELD_CHARS),
    ...bounded('language', language, MAX_METADATA_FIELD_CHARS),
    ...bounded('description', description, MAX_DESCRIPTION_CHARS),
  };
}

/**
 * Page text made safe to show as one line: controls and bidi characters removed, whitespace
 * collapsed, cut at `max` characters (never inside a character).
 */
export function cleanMetadataText(text: string, max: number): string {
  const cleaned = clean(text);
  const characters = Array.from(cleaned);
  return characters.length <= max ? cleaned : `${characters.slice(0, max - 1).join('')}…`;
}

function bounded<K extends keyof PageMetadata>(
  key: K,
  value: string | undefined,
  max: number,
): Partial<Record<K, string>> {
  if (value === undefined) return {};
  const text = cleanMetadataText(value, max);
  return text === '' ? {} : ({ [key]: text } as Partial<Record<K, string>>);
}

function clean(text: string): string {
  return decodeEntities(text).replace(CONTROL_OR_BIDI, ' ').replace(/\s+/g, ' ').trim();
}

/** JSON-LD strings and some `content` attributes arrive with HTML entities still in them. */
function decodeEntities(text: string): string {
  if (!text.includes('&')) return text;
  return text.replace(
    /&(?:#(\d{1,7})|#x([\da-f]{1,6})|(amp|lt|gt|quot|apos|nbsp|#39));/gi,
    (all, dec, hex, name) => {
      if (dec !== undefined || hex !== undefined) {
        const code = dec !== undefined ? Number(dec) : Number.parseInt(hex, 16);
        return code > 0 && code <= 0x10ffff ? String.fromCodePoint(code) : all;
      }
      return { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'", nbsp: ' ', '#39': "'" }[
        String(name).toLowerCase()
      ] as string;
    },
  );
}

function isUrl(value: string): boolean {
  return /^(?:https?:)?\/\/|^www\./i.test(value);
}

/** Whether `value` can be a person's or an organisation's name: not a URL, a handle or an address. */
function isName(value: string): boolean {
  if (/^(?:last\s+)?(?:updated|modified|published|posted|sign\s+in|log\s*in|follow)\b/i.test(value))
    return false;
  if (value === '' || isUrl(value) || /^@\w/.test(value) || /@\w+\.\w/.test(value)) return false;
  return /\p{L}/u.test(value) && value.length <= MAX_BYLINE_CHARS * 2;
}

function joinNames(names: readonly string[]): string {
  return [...new Set(names)].join(', ');
}

/** A BCP 47 tag in its usual case (`en-US`, `zh-Hant-TW`), or undefined when `value` is none. */
export function languageTag(value: string): string | undefined {
  const tag = value.trim().replace(/_/g, '-');
  if (!/^[a-z]{2,3}(?:-[a-z\d]{1,8})*$/i.test(tag)) return undefined;
  return tag
    .split('-')
    .map((part, index) => {
      if (index === 0) return part.toLowerCase();
      if (part.length === 2) return part.toUpperCase();
      if (part.length === 4 && /^[a-z]+$/i.test(part))
        return part[0]?.toUpperCase() + part.slice(1).toLowerCase();
      return part.toLowerCase();
    })
    .join('-');
}

/** One walk over the page collecting every source the fields are read from. */
function collect(document: DomNode): Collected {
  const found: Collected = {
    meta: new Map(),
    jsonLd: [],
    htmlLang: undefined,
    itemAuthors: [],
    itemDates: [],
    itemPublishers: [],
    bylines: [],
    publishTimes: [],
  };
  const pending: DomNode[] = [document];
  for (let node = pending.pop(); node !== undefined; node = pending.pop()) {
    if (node.type === 'tag' || node.type === 'script' || node.type === 'style') {
      const name = node.name ?? '';
      const attribs = node.attribs ?? {};
      if (name === 'html' && found.htmlLang === undefined && attribs.lang !== undefined) {
        found.htmlLang = attribs.lang;
      }
      if (name === 'meta') readMeta(attribs, found.meta);
      if (name === 'script') {
        if ((attribs.type ?? '').trim().toLowerCase() === 'application/ld+json')
          found.jsonLd.push(textOf(node, true));
        continue;
      }
      if (name === 'style' || name === 'template' || name === 'noscript') continue;
      const itemprop = (attribs.itemprop ?? '').toLowerCase().split(/\s+/);
      if (itemprop.includes('author') || itemprop.includes('creator')) found.itemAuthors.push(node);
      if (itemprop.includes('datepublished')) {
        found.itemDates.push(attribs.content ?? attribs.datetime ?? textOf(node));
      }
      if (itemprop.includes('publisher')) found.itemPublishers.push(node);
      if (
        name === 'time' &&
        attribs.datetime !== undefined &&
        ('pubdate' in attribs || /publish/i.test(attribs.class ?? ''))
      ) {
        found.publishTimes.push(attribs.datetime);
      }
      if (isBylineCandidate(name, attribs)) found.bylines.push(node);
    }
    const children = node.children ?? [];
    // Pushed in reverse so that nodes come off the stack in document order.
    for (let index = children.length - 1; index >= 0; index--) {
      const child = children[index];
      if (child !== undefined) pending.push(child);
    }
  }
  return found;
}

function readMeta(attribs: Record<string, string>, meta: Map<string, string[]>): void {
  const content = attribs.content;
  if (content === undefined) return;
  for (const key of [attribs.property, attribs.name, attribs['http-equiv'], attribs.itemprop]) {
    if (key === undefined) continue;
    for (const part of key.toLowerCase().trim().split(/\s+/)) {
      if (part === '') continue;
      const values = meta.get(part) ?? [];
      values.push(content);
      meta.set(part, values);
    }
  }
}

function isBylineCandidate(name: string, attribs: Record<string, string>): boolean {
  if (name === 'meta' || name === 'link' || name === 'img' || name === 'html' || name === 'body')
    return false;
  if ((attribs.rel ?? '').split(/\s+/).includes('author')) return true;
  const names = `${attribs.class ?? ''} ${attribs.id ?? ''}`;
  return BYLINE_NAME.test(names) && !NOT_BYLINE_NAME.test(names);
}

/** The text of a node; `raw` keeps a script's text, otherwise scripts and styles are skipped. */
function textOf(node: DomNode, raw = false): string {
  let text = '';
  const pending: DomNode[] = [node];
  for (let current = pending.pop(); current !== undefined; current = pending.pop()) {
    if (current.type === 'text') {
      text += current.data ?? '';
      continue;
    }
    if (!raw && (current.type === 'script' || current.type === 'style')) continue;
    if (current.type === 'tag' && (current.name === 'br' || current.name === 'p' || current.name === 'div'))
      text += '\n';
    const children = current.children ?? [];
    for (let index = children.length - 1; index >= 0; index--) {
      const child = children[index];
      if (child !== undefined) pending.push(child);
    }
  }
  return text;
}

function hasAncestor(node: DomNode, test: (ancestor: DomNode) => boolean): boolean {
  for (let parent = node.parent; parent !== null && parent !== undefined; parent = parent.parent) {
    if (parent.type === 'tag' && test(parent)) return true;
  }
  return false;
}

/** Descendants of `node` (itself excluded) whose `itemprop` names `property`. */
function itemProperty(node: DomNode, property: string): DomNode | undefined {
  const pending = [...(node.children ?? [])].reverse();
  for (let current = pending.pop(); current !== undefined; current = pending.pop()) {
    if (current.type !== 'tag') continue;
    if ((current.attribs?.itemprop ?? '').toLowerCase().split(/\s+/).includes(property)) return current;
    for (const child of [...(current.children ?? [])].reverse()) pending.push(child);
  }
  return undefined;
}

function itemValue(node: DomNode): string {
  const attribs = node.attribs ?? {};
  return clean(attribs.content ?? (node.name === 'meta' ? '' : textOf(node)));
}

/** The names of the page's microdata authors (an item's `name`, else the element's text). */
function microdataAuthor(nodes: readonly DomNode[]): string | undefined {
  const names: string[] = [];
  for (const node of nodes) {
    // An author nested in another author item (its name, its affiliation) is not a second author.
    if (hasAncestor(node, (ancestor) => nodes.includes(ancestor))) continue;
    const named = 'itemscope' in (node.attribs ?? {}) ? itemProperty(node, 'name') : node;
    const value = named === undefined ? '' : stripByline(itemValue(named));
    if (isName(value) && value.length <= MAX_BYLINE_CHARS) names.push(value);
  }
  return names.length > 0 ? joinNames(names) : undefined;
}

function microdataName(nodes: readonly DomNode[]): string | undefined {
  for (const node of nodes) {
    const named = 'itemscope' in (node.attribs ?? {}) ? itemProperty(node, 'name') : node;
    const value = named === undefined ? '' : itemValue(named);
    if (value !== '' && !isUrl(value) && value.length <= MAX_METADATA_FIELD_CHARS) return value;
  }
  return undefined;
}

/** The first visible byline that reads as one (see {@link BYLINE_NAME}), its lead word dropped. */
function visibleByline(nodes: readonly DomNode[]): string | undefined {
  for (const node of nodes) {
    // Readers' comments and reviews name their own authors; menus and footers name the site's.
    const outside = hasAncestor(node, (ancestor) => {
      if (ancestor.name === 'nav' || ancestor.name === 'footer' || ancestor.name === 'aside') return true;
      return /comment|review|reply|replies|answer/i.test(
        `${ancestor.attribs?.class ?? ''} ${ancestor.attribs?.id ?? ''}`,
      );
    });
    if (outside) continue;
    const text = textOf(node).replace(CONTROL_OR_BIDI, ' ');
    const line = (text.split('\n').find((part) => part.trim() !== '') ?? '').replace(/\s+/g, ' ').trim();
    if (line === '' || line.length > MAX_BYLINE_CHARS) continue;
    const names = stripByline(clean(line));
    if (isName(names)) return names;
  }
  return undefined;
}

/** A byline without its lead ("By", "Author:") and without a date or role after the names. */
function stripByline(text: string): string {
  let names = text.replace(AUTHOR_LABEL, '').replace(BYLINE_LEAD, '');
  // "Jane Doe | March 5, 2024", "Jane Doe • 5 min read", "Jane Doe, Staff Writer — Updated …".
  names = names.split(/\s+[|•·—–]\s+|\s*\|\s*/)[0] ?? '';
  names = names.replace(/\s+(?:on|updated|published|posted)\b.*$/i, '');
  names = names.replace(/,?\s+(?:mon|tues|wednes|thurs|fri|satur|sun)day\b.*$/i, '');
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
  return names.replace(/[\s,;:]+$/, '').trim();
}

interface JsonLdFields {
  author?: string | undefined;
  published?: string | undefined;
  siteName?: string | undefined;
  language?: string | undefined;
  description?: string | undefined;
}

type JsonObject = Record<string, unknown>;

const isObject = (value: unknown): value is JsonObject =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** The fields of the page's own JSON-LD node (see {@link ARTICLE_TYPE}), references resolved. */
function readJsonLd(scripts: readonly string[]): JsonLdFields {
  const nodes: JsonObject[] = [];
  for (const script of scripts) {
    const parsed = parseJsonLd(script);
    if (parsed === undefined) continue;
    const pending: unknown[] = [parsed];
    for (
      let item = pending.shift();
      item !== undefined && nodes.length < MAX_JSON_LD_NODES;
      item = pending.shift()
    ) {
      if (Array.isArray(item)) pending.push(...item);
      else if (isObject(item)) {
        nodes.push(item);
        if (item['@graph'] !== undefined) pending.push(item['@graph']);
      }
    }
  }
  if (nodes.length === 0) return {};
  const byId = new Map<string, JsonObject>();
  for (const node of nodes) if (typeof node['@id'] === 'string') byId.set(node['@id'], node);
  const resolve = (value: unknown): unknown =>
    isObject(value) && typeof value['@id'] === 'string' && Object.keys(value).length === 1
      ? (byId.get(value['@id']) ?? value)
      : value;
  const types = (node: JsonObject) =>
    [node['@type']]
      .flat()
      .filter((type) => typeof type === 'string')
      .join(' ');
  const articles = nodes.filter((node) => ARTICLE_TYPE.test(types(node)) && !/^WebSite$/i.test(types(node)));
  // Writing first, most specific first: an Article before the WebPage that holds it.
  articles.sort((a, b) => rank(types(a)) - rank(types(b)));
  const first = <T>(read: (node: JsonObject) => T | undefined): T | undefined => {
    for (const node of articles) {
      const value = read(node);
      if (value !== undefined) return value;
    }
    return undefined;
  };
  const website = nodes.find((node) => /\bWebSite\b/i.test(types(node)));
  return {
    author: first((node) => personNames(node.author, resolve) ?? personNames(node.creator, resolve)),
    published: first((node) =>
      [node.datePublished, node.dateCreated, node.uploadDate]
        .map((value) => (typeof value === 'string' ? toIsoDate(clean(value)) : undefined))
        .find((value) => value !== undefined),
    ),
    siteName:
      first(
        (node) =>
          nameOf(resolve(node.publisher), resolve) ?? nameOf(resolve(node.isPartOf), resolve, 'WebSite'),
      ) ?? (website === undefined ? undefined : nameOf(website, resolve)),
    language:
      first((node) => languageOf(node.inLanguage)) ??
      (website === undefined ? undefined : languageOf(website.inLanguage)),
    description: first((node) =>
      typeof node.description === 'string' && clean(node.description) !== ''
        ? clean(node.description)
        : undefined,
    ),
  };
}

function rank(types: string): number {
  if (/article|posting|report/i.test(types)) return 0;
  if (/webpage|aboutpage|profilepage|qapage/i.test(types)) return 2;
  return 1;
}

function parseJsonLd(script: string): unknown {
  const cleaned = script
    .slice(0, MAX_JSON_LD_CHARS)
    .replace(/^\s*<!\[CDATA\[([\s\S]*?)\]\]>\s*$/, '$1')
    .replace(/^\s*\/\*[\s\S]*?\*\/|\/\*[\s\S]*?\*\/\s*$/g, '')
    .trim();
  try {
    return JSON.parse(cleaned);
  } catch {
    // A trailing comma before a closing bracket is the most common slip; nothing else is guessed at.
    try {
      return JSON.parse(cleaned.replace(/,\s*([}\]])/g, '$1'));
    } catch {
      return undefined;
    }
  }
}

function nameOf(value: unknown, resolve: (value: unknown) => unknown, type?: string): string | undefined {
  const node = resolve(value);
  if (typeof node === 'string')
    return type === undefined && !isUrl(node) && clean(node) !== '' ? clean(node) : undefined;
  if (!isObject(node)) return undefined;
  if (type !== undefined && !new RegExp(`\\b${type}\\b`, 'i').test(String(node['@type'] ?? '')))
    return undefined;
  const name = node.name ?? node.legalName ?? node.alternateName;
  const text =
    typeof name === 'string'
      ? clean(name)
      : Array.isArray(name) && typeof name[0] === 'string'
        ? clean(name[0])
        : '';
  return text === '' || isUrl(text) ? undefined : text;
}

/** Authors as a string, an object with a name, or an array of either; several are joined with ", ". */
function personNames(value: unknown, resolve: (value: unknown) => unknown): string | undefined {
  if (value === undefined || value === null) return undefined;
  const names: string[] = [];
  for (const author of [value].flat().slice(0, 50)) {
    const resolved = resolve(author);
    const name =
      typeof resolved === 'string'
        ? stripByline(clean(resolved))
        : isObject(resolved)
          ? (nameOf(resolved, resolve) ??
            (typeof resolved.givenName === 'string'
              ? clean(
                  `${resolved.givenName} ${typeof resolved.familyName === 'string' ? resolved.familyName : ''}`,
                )
              : undefined))
          : undefined;
    if (name !== undefined && isName(name)) names.push(name);
  }
  return names.length > 0 ? joinNames(names) : undefined;
}

function languageOf(value: unknown): string | undefined {
  const first = [value].flat()[0];
  if (typeof first === 'string') return languageTag(first);
  if (isObject(first)) {
    for (const key of ['alternateName', 'name', '@value']) {
      const tag = typeof first[key] === 'string' ? languageTag(first[key] as string) : undefined;
      if (tag !== undefined) return tag;
    }
  }
  return undefined;
}
