import { loadHtmlparser2 } from '../lazy-modules.js';
import { toIsoDate } from './metadata-dates.js';
import { readJsonLd } from './metadata-json-ld.js';
import { collect, type DomNode, microdataAuthor, microdataName, visibleByline } from './metadata-markup.js';
import {
  clean,
  cleanMetadataText,
  isName,
  isUrl,
  joinNames,
  languageTag,
  MAX_DESCRIPTION_CHARS,
  MAX_METADATA_FIELD_CHARS,
} from './metadata-text.js';

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

function bounded<K extends keyof PageMetadata>(
  key: K,
  value: string | undefined,
  max: number,
): Partial<Record<K, string>> {
  if (value === undefined) return {};
  const text = cleanMetadataText(value, max);
  return text === '' ? {} : ({ [key]: text } as Partial<Record<K, string>>);
}
