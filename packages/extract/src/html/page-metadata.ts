import { MAX_HTML_DEPTH } from '../html-bounds.js';
import { loadHtmlparser2 } from '../lazy-modules.js';
import { KOREAN_TITLE_AFTER_NAME, ROLE_AFTER_NAMES, stripByline, visibleByline } from './metadata-byline.js';
import { datelineDate, MAX_HEADLINES, readDateline } from './metadata-dateline.js';
import { toIsoDate } from './metadata-dates.js';
import { listedEntries } from './metadata-entries.js';
import { readJsonLd } from './metadata-json-ld.js';
import {
  type Collected,
  collect,
  type DomNode,
  itemDateValue,
  statedPublishDate,
  textOf,
} from './metadata-markup.js';
import { microdataAuthor, microdataName } from './metadata-microdata.js';
import {
  clean,
  cleanMetadataText,
  isName,
  isNameWord,
  isUrl,
  joinNames,
  languageTag,
  MAX_DESCRIPTION_CHARS,
  MAX_METADATA_FIELD_CHARS,
} from './metadata-text.js';
import { metadataTree } from './metadata-tree.js';

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

/**
 * Dublin Core first: a page that states it chose it over the looser `author` on purpose. The
 * article's own tags come next: a publisher often fills the page-wide `author` with its company's
 * name ("Condé Nast") and the article's tag with the writer's.
 */
const AUTHOR_META = [
  'dc.creator',
  'dc:creator',
  'dcterms.creator',
  'dcterm:creator',
  'dcterms:creator',
  'article:author',
  'og:article:author',
  'parsely-author',
  // The `author` of Parse.ly's older `parsely-page` tag, a JSON object (see {@link parselyPage}).
  'parsely-page',
  'sailthru.author',
  'author',
  'book:author',
  'byl',
  'citation_author',
  'dc.contributor',
];

const PUBLISHED_META = [
  'article:published_time',
  'originalpublicationdate',
  'rnews:datepublished',
  'og:article:published_time',
  'og:published_time',
  'published_time',
  'article:published',
  'datepublished',
  'parsely-pub-date',
  'sailthru.date',
  // Cxense's (Piano's) tag for the time a story went out, on news sites that recommend with it.
  'cxenseparse:recs:publishtime',
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

/**
 * Reads what the page says about itself from, in order of trust: its JSON-LD (the node for the page's
 * writing, `@graph` and arrays included), its `<meta>` tags (Open Graph, `article:`, Dublin Core,
 * Parse.ly, Highwire), its microdata (`itemprop`), and for the author its visible byline. A field the
 * page does not state is absent. Every value is page text: controls and bidi characters are removed,
 * whitespace is collapsed, and its length is bounded ({@link MAX_METADATA_FIELD_CHARS},
 * {@link MAX_DESCRIPTION_CHARS}).
 */
export async function readPageMetadata(html: string): Promise<PageMetadata> {
  return (await readPageStatement(html)).metadata;
}

/** What a page states of itself: its metadata, and the titles its `<title>` is weighed against. */
export interface PageStatement {
  metadata: PageMetadata;
  /**
   * The titles the page gives for sharing (`og:title`, `twitter:title`), which name the page
   * without its site more often than its `<title>` does (see `page-title.ts`).
   */
  sharedTitles: string[];
  /**
   * Every name the page states for its site (JSON-LD, `og:site_name` and the like, microdata's
   * publisher), the chosen `siteName` first: a `<title>` may end with any of them.
   */
  siteNames: string[];
}

async function readPageStatement(html: string): Promise<PageStatement> {
  const { parseDocument } = await loadHtmlparser2();
  return readMetadata(parseDocument(html, { lowerCaseAttributeNames: true }) as unknown as DomNode);
}

/**
 * {@link readPageMetadata} on a page already parsed into a linkedom document, with the titles the
 * page gives for sharing: read from the document as parsed (before any stage changes it), without
 * parsing `html` again; from `html` when the document is of another DOM.
 */
export async function readDocumentMetadata(document: object, html: string): Promise<PageStatement> {
  const tree = metadataTree(document);
  return tree === undefined ? readPageStatement(html) : readMetadata(tree);
}

/**
 * {@link readPageMetadata} on the markup a streaming pass gathered of a page too large for a tree
 * (see `stated-markup.ts`): its `<meta>` tags, JSON-LD, `<html lang>`, title and headlines.
 */
export function readStatedMetadata(stated: DomNode): PageStatement {
  return readMetadata(stated);
}

/**
 * The first publication date the page's elements state (microdata `datePublished`, then a `<time>`
 * marked as the publication's), but not an entry's of a list of writings (see `listedEntries`): a
 * blog's index dates each post it lists.
 */
function elementDate(found: Collected, titles: readonly string[]): string | undefined {
  const listed = listedEntries([...found.itemDates, ...found.publishTimes], titles);
  const dated: [DomNode, string][] = [
    ...found.itemDates.map((node): [DomNode, string] => [node, itemDateValue(node)]),
    ...found.publishTimes.map((node): [DomNode, string] => [node, node.attribs?.datetime ?? '']),
  ];
  for (const [node, raw] of dated) {
    const date = listed(node) ? undefined : toIsoDate(clean(raw));
    if (date !== undefined) return date;
  }
  return undefined;
}

/** The fields as the page's tree states them (see {@link readPageMetadata}), with its shared titles. */
function readMetadata(document: DomNode): PageStatement {
  const found = collect(document);
  if (parselyIndex(found.meta)) for (const key of PARSELY_STORY_META) found.meta.delete(key);
  const ld = readJsonLd(found.jsonLd);
  const meta = (keys: readonly string[], accept: (value: string) => boolean = () => true) => {
    for (const key of keys) {
      for (const value of found.meta.get(key) ?? []) if (accept(clean(value))) return clean(value);
    }
    return undefined;
  };

  // The headline's dateline is read only when the markup leaves a field unsaid, and the page's text
  // only on a page nested no deeper than the DOM stages read (the dateline's walk recurses).
  const shallow = found.depth <= MAX_HTML_DEPTH;
  // The titles the page gives for sharing. Its `<h1>`s are not among them (a documentation page's
  // is often its book's or its site's name), but the site's name is told apart from them all.
  const shared = [...(found.meta.get('og:title') ?? []), ...(found.meta.get('twitter:title') ?? [])];
  const headlines = [
    ...found.headlines.slice(0, MAX_HEADLINES).map((headline) => textOf(headline)),
    ...shared,
  ];
  // The titles a list of writings is told from the page's own story by (see `listedEntries`), and
  // the test of the bylines' entries, which the visible byline and the dateline share.
  const pageTitles = [found.title ?? '', ...shared];
  const listed = listedEntries(found.bylines, pageTitles);

  let dateline: ReturnType<typeof readDateline> | undefined;
  const visible = () => {
    if (!shallow) return {};
    dateline ??= readDateline(
      document,
      found.headlines,
      [found.title ?? '', ...(found.meta.get('og:title') ?? [])],
      stripByline,
      listed,
    );
    return dateline;
  };

  const statedSites = [
    ld.siteName,
    ...SITE_NAME_META.flatMap((key) => found.meta.get(key) ?? []).map(clean),
    microdataName(found.itemPublishers),
  ].filter((value): value is string => value !== undefined && value !== '' && !isUrl(value));
  const siteName = statedSites[0] ?? siteFromTitle(found.title, headlines);

  const citationAuthors = (found.meta.get('citation_author') ?? []).map(clean).filter(isName).map(uninverted);
  const stated =
    tidyAuthor(ld.author, false) ??
    metaAuthor(found.meta, siteName) ??
    (citationAuthors.length > 0 ? joinNames(citationAuthors) : undefined);
  const shown = () =>
    microdataAuthor(found.itemAuthors, found.headlines) ??
    visible().author ??
    (shallow ? visibleByline(found.bylines, listed) : undefined) ??
    labelledAuthor(found.meta);
  // An author that is the site's own name or its staff ("ABC News" on ABC News, "Us Weekly Staff"
  // on Us Weekly) gives way to the byline's.
  const author = withoutSiteAfter(
    stated !== undefined && siteName !== undefined && isSiteItself(stated, siteName)
      ? (bylineOverSite(shown(), siteName) ?? stated)
      : (stated ?? shown()),
    siteName,
  );

  let published = ld.published;
  for (const raw of [
    ...PUBLISHED_META.flatMap((key) => found.meta.get(key) ?? []),
    ...(found.meta.get('parsely-page') ?? []).map((content) => parselyPage(content, 'pub_date')),
  ]) {
    if (published !== undefined) break;
    published = toIsoDate(clean(raw));
  }
  published ??= elementDate(found, pageTitles);
  published ??= ld.created ?? statedPublishDate(found.publishElements, datelineDate);
  published ??= visible().published;

  const language = [
    found.htmlLang,
    ...(found.meta.get('content-language') ?? []).map((value) => value.split(',')[0] ?? ''),
    ld.language,
    ...LANGUAGE_META.flatMap((key) => found.meta.get(key) ?? []),
  ]
    .map((value) => (value === undefined ? undefined : languageTag(value)))
    .find((value) => value !== undefined);

  const description = meta(DESCRIPTION_META, (value) => value !== '') ?? ld.description;

  const metadata = {
    ...bounded('author', author, MAX_METADATA_FIELD_CHARS),
    ...bounded('published', published, MAX_METADATA_FIELD_CHARS),
    ...bounded('siteName', siteName, MAX_METADATA_FIELD_CHARS),
    ...bounded('language', language, MAX_METADATA_FIELD_CHARS),
    ...bounded('description', description, MAX_DESCRIPTION_CHARS),
  };
  const siteNames = [...new Set([...(siteName === undefined ? [] : [siteName]), ...statedSites])];
  return { metadata, sharedTitles: shared.map(clean), siteNames };
}

/**
 * The author the first tag of {@link AUTHOR_META} that names one states, tidied (Highwire's are
 * read apart); an article's `article:author` tags, one per writer, are each tidied and joined.
 */
function metaAuthor(meta: ReadonlyMap<string, string[]>, siteName: string | undefined): string | undefined {
  const site = siteName?.toLowerCase();
  for (const key of AUTHOR_META) {
    if (key === 'citation_author') continue;
    const stated =
      key === 'parsely-page'
        ? (meta.get(key) ?? []).map((content) => parselyPage(content, 'author'))
        : (meta.get(key) ?? []);
    const named = stated.map(clean).filter((value) => isName(value) && !ADDRESS_SLUG.test(value));
    // A tag that names the site before another that names the writer: the writer's.
    const writers = named.filter((value) => value.toLowerCase() !== site);
    const values = writers.length > 0 ? writers : named;
    if (values.length === 0) continue;
    const names = (key.endsWith('article:author') ? values : values.slice(0, 1))
      .map((value) => (INVERTED_NAME_META.test(key) ? uninverted(value) : value))
      .map((value) => tidyAuthor(value, true))
      .filter((name): name is string => name !== undefined);
    if (names.length > 0) return joinNames(names);
  }
  return undefined;
}

/**
 * A tag's value written as a part of an address, in small letters joined by hyphens, underscores
 * or dots (`sophie-foster`, `j_smith`): an analytics tag's key for the writer's page, not a name
 * (the page's other tags or its byline name the writer).
 */
const ADDRESS_SLUG = /^[a-z\d]+(?:[-_.][a-z\d]+)+$/;

/** Tags whose standards write a person's name family name first: Dublin Core's creator and contributor. */
const INVERTED_NAME_META = /^dc(?:terms?)?[.:](?:creator|contributor)$/;

/**
 * A name written family name first, as Dublin Core and Highwire's `citation_author` write them
 * ("Gillman, Steve", "Berger, Emery D."), in reading order ("Steve Gillman"); other values as they
 * are. Only one family name of one word before one comma, and one or two given names after it.
 */
function uninverted(name: string): string {
  const match = /^(\p{Lu}[\p{L}'’-]+),\s+(\p{Lu}[\p{L}'’.-]*(?:\s+\p{Lu}[\p{L}'’.-]*)?)$/u.exec(name);
  if (match === null) return name;
  const [, family, given] = match as unknown as [string, string, string];
  return `${given} ${family}`;
}

/** The labels under which an SEO plugin's sharing card names the writer, in the languages it is used in. */
const WRITTEN_BY_LABEL =
  /^(?:written by|author|verfasst von|geschrieben von|escrito por|écrit par|scritto da|geschreven door|skrevet av|skrivet av)$/i;

/** How many of a sharing card's label and data pairs are read. */
const MAX_CARD_LABELS = 4;

/**
 * The writer a sharing card names: Yoast SEO's `twitter:labelN` "Written by" beside its
 * `twitter:dataN`, or its `twitter:misc` form (`<meta name="twitter:misc:Written by">`). The card
 * is read last, after every visible byline: it gives the account that posted, which on some sites is
 * "admin" or a desk's name.
 */
function labelledAuthor(meta: ReadonlyMap<string, string[]>): string | undefined {
  const values = [...(meta.get('twitter:misc:written') ?? [])];
  for (let index = 1; index <= MAX_CARD_LABELS; index++) {
    const label = clean(meta.get(`twitter:label${index}`)?.[0] ?? '');
    if (WRITTEN_BY_LABEL.test(label)) values.push(...(meta.get(`twitter:data${index}`) ?? []).slice(0, 1));
  }
  for (const value of values.map(clean).filter(isName)) {
    const name = tidyAuthor(value, true);
    if (name !== undefined) return name;
  }
  return undefined;
}

/** The words after a site's name that make it the name of its staff ("Us Weekly Staff"). */
const STAFF_AFTER_SITE =
  /^\s*(?:staff|team|editors|editorial(?:\s+(?:staff|team|board))?|desk|newsroom|redaktion)$/i;

/** Whether an author the markup states is the site's own name, or its staff under the site's name. */
function isSiteItself(stated: string, site: string): boolean {
  const author = stated.toLowerCase();
  const name = site.toLowerCase();
  return author === name || (author.startsWith(name) && STAFF_AFTER_SITE.test(author.slice(name.length)));
}

/**
 * The byline's names where the author the markup states is the site's own name: only names (each
 * word capitalised, or a joining word, at most eight) that are not part of the site's name and do
 * not hold it ("Audiophile" under "Audiophile ON", "Author Escalon" under "Escalon").
 */
function bylineOverSite(names: string | undefined, site: string): string | undefined {
  if (names === undefined) return undefined;
  const lower = names.toLowerCase();
  const siteLower = site.toLowerCase();
  if (siteLower.includes(lower) || lower.includes(siteLower)) return undefined;
  const words = names.split(/\s+/);
  return words.length <= 8 && words.every(isNameWord) ? names : undefined;
}

/**
 * Parse.ly's page types of a page that is not one writing but lists them ("index", and the older
 * "frontpage" and "sectionpage"): a front page or a section's, whose Parse.ly author and date
 * tags are its lead story's.
 */
const PARSELY_INDEX = /^(?:index|frontpage|sectionpage)$/i;

/** The Parse.ly tags that name a writing's writer and date. */
const PARSELY_STORY_META = ['parsely-author', 'parsely-pub-date', 'parsely-page'];

/** Whether the page's Parse.ly tags (`parsely-type`, or the older `parsely-page`'s `type`) say it lists writings. */
function parselyIndex(meta: ReadonlyMap<string, string[]>): boolean {
  return [
    ...(meta.get('parsely-type') ?? []),
    ...(meta.get('parsely-page') ?? []).map((content) => parselyPage(content, 'type')),
  ].some((type) => PARSELY_INDEX.test(clean(type)));
}

/**
 * A field of Parse.ly's older `parsely-page` tag, a JSON object in its `content`: its `pub_date`, its
 * `type`, or its `author` (a name, or a list of names, joined); empty when the tag does not state it.
 */
function parselyPage(content: string, field: 'pub_date' | 'author' | 'type'): string {
  try {
    const page = JSON.parse(content) as unknown;
    if (typeof page !== 'object' || page === null) return '';
    const value = (page as Record<string, unknown>)[field];
    if (typeof value === 'string') return value;
    if (!Array.isArray(value)) return '';
    return field === 'author'
      ? joinNames(value.filter((name): name is string => typeof name === 'string'))
      : '';
  } catch {
    return '';
  }
}

/**
 * Names that the site's own name follows, as a news service signs its writers ("Jane Doe and John
 * Roe, CNN", "Jane Doe - Reuters"): the names alone. An author that is only the site's name stays.
 */
function withoutSiteAfter(names: string | undefined, site: string | undefined): string | undefined {
  if (names === undefined || site === undefined || site === '') return names;
  if (!names.toLowerCase().endsWith(site.toLowerCase())) return names;
  const before = /^(.*\S)(?:\s*,|\s+[-–—|/])\s*$/.exec(names.slice(0, names.length - site.length))?.[1];
  return before !== undefined && isName(before) ? before : names;
}

/** The marks a page's `<title>` puts between the page's own title and the site's name. */
const TITLE_SEPARATOR = /\s+[|\-–—·•»~]\s+/;

/**
 * The site's name as the page's `<title>` ends with it ("Quadratic formula - Encyclopedia",
 * "Array - JavaScript | MDN"): only when what comes before it is the page's own headline (its `<h1>`,
 * `og:title` or `twitter:title`), so that the last part is the name every page of the site adds.
 */
function siteFromTitle(title: string | undefined, headlines: readonly string[]): string | undefined {
  if (title === undefined) return undefined;
  const parts = clean(title).split(TITLE_SEPARATOR);
  if (parts.length < 2) return undefined;
  const site = (parts.at(-1) ?? '').trim();
  if (site === '' || site.length > 60 || site.split(/\s+/).length > 6 || isUrl(site)) return undefined;
  const own = new Set(
    headlines.map((headline) => clean(headline).toLowerCase()).filter((text) => text !== ''),
  );
  const separators = clean(title).match(new RegExp(TITLE_SEPARATOR.source, 'g')) ?? [];
  let before = '';
  for (const [index, part] of parts.slice(0, -1).entries()) {
    before += (index === 0 ? '' : (separators[index - 1] ?? ' ')) + part;
    if (own.has(before.toLowerCase()) && before.toLowerCase() !== site.toLowerCase()) return site;
  }
  return undefined;
}

/**
 * An author the markup states, as the byline's names: without the quotes, the "By" or the link some
 * sites put in the tag ("\"Jane Doe\"", "By Jane Doe", "Jane Doe - https://…"), and for one
 * `<meta>` tag (`roles`) the job title after a comma ("Jane Doe, Senior Editor"; JSON-LD's authors,
 * joined by commas, are names each); undefined when nothing is left.
 */
function tidyAuthor(author: string | undefined, roles: boolean): string | undefined {
  if (author === undefined) return undefined;
  const unquoted = author
    .replace(/\s+[-–—|]\s+(?:https?:\/\/|www\.)\S+$/i, '')
    .replace(/^\s*["“”'‘’]+|["“”'‘’]+\s*$/g, '')
    .replace(/^by\s+/i, '');
  const names = (roles ? unquoted.replace(ROLE_AFTER_NAMES, '') : unquoted)
    .replace(KOREAN_TITLE_AFTER_NAME, '')
    .replace(/[\s,;:|–—-]+$/, '')
    .trim();
  return names === '' ? undefined : names;
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
