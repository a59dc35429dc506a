import { parseJsonLd } from './json-ld.js';

/**
 * What a page declares itself to be, read from its metadata before any extractor runs: `article`
 * for a news story, blog post or report (one block of prose), `thread` for a forum thread or a
 * question with its answers (a series of posts, all of them content), `product` for a product's page
 * (a description, specifications and prices among offers, reviews and other products), `other` for
 * everything else (documentation, services, listings and collections, and pages that declare
 * nothing).
 */
export type PageKind = 'article' | 'thread' | 'product' | 'other';

/** schema.org types of a page that is a series of posts: a forum thread, a question and its answers. */
const THREAD_TYPES = new Set(['qapage', 'discussionforumposting']);

/** The same types in microdata, as forum engines mark their server-rendered posts. */
const THREAD_MICRODATA = '[itemtype*="schema.org/DiscussionForumPosting"], [itemtype*="schema.org/QAPage"]';

/** schema.org types of a product or its offer, and the same in microdata. */
const PRODUCT_TYPES = new Set([
  'product',
  'productgroup',
  'productmodel',
  'individualproduct',
  'offer',
  'aggregateoffer',
]);
const PRODUCT_MICRODATA = '[itemtype*="schema.org/Product" i]';

/** schema.org types of a single piece of prose. */
const ARTICLE_TYPES = new Set([
  'article',
  'newsarticle',
  'blogposting',
  'reportagenewsarticle',
  'opinionnewsarticle',
  'analysisnewsarticle',
  'backgroundnewsarticle',
  'reviewnewsarticle',
  'askpublicnewsarticle',
  'satiricalarticle',
  'scholarlyarticle',
  'report',
  'liveblogposting',
  'socialmediaposting',
]);

/**
 * schema.org types of pages whose content is not one block of prose: a thread of posts, a list of
 * items, a product, a reference page. They outweigh an article type on the same page (sites often
 * mark every page `og:type=article`). Types that articles often carry beside their own (an FAQ
 * block, a numbered list, the publisher as a local business) are not listed.
 */
const NON_ARTICLE_TYPES = new Set([
  'qapage',
  'discussionforumposting',
  'question',
  'product',
  'productgroup',
  'offer',
  'aggregateoffer',
  'collectionpage',
  'searchresultspage',
  'techarticle',
  'apireference',
  'howto',
  'recipe',
  'course',
  'event',
  'jobposting',
  'softwareapplication',
  'service',
  'realestatelisting',
]);

/** `"@type": "X"` or `"@type": ["X", "Y"]` in JSON-LD, read without parsing (pages often ship invalid JSON-LD). */
const TYPE_FIELD = /"@type"\s*:\s*(\[[^\]]*\]|"[^"]*")/g;

/**
 * Reads the page's declared kind from the JSON-LD types of the items that stand for the page (see
 * {@link declaredTypes}), microdata thread and product types and `og:type` (`product`, `og:product`,
 * `product.item`…). A thread outweighs a product (a question about a product is a thread); a product
 * in JSON-LD outweighs any other type, one in microdata or `og:type` only the lack of an article's
 * declaration.
 */
export function pageKind(document: ParentNode): PageKind {
  return kindOf(document, declaredTypes(document));
}

/** {@link pageKind} from the page's declared JSON-LD types `types` (see {@link declaredTypes}). */
function kindOf(document: ParentNode, types: readonly string[]): PageKind {
  if (types.some((type) => THREAD_TYPES.has(type))) return 'thread';
  const other = types.some((type) => NON_ARTICLE_TYPES.has(type));
  const product = types.some((type) => PRODUCT_TYPES.has(type));
  const article = types.some((type) => ARTICLE_TYPES.has(type));
  if (document.querySelector(THREAD_MICRODATA) !== null) return 'thread';
  if (product) return 'product';
  const openGraph = document.querySelector('meta[property="og:type"]')?.getAttribute('content') ?? '';
  // A story may carry product microdata (a box of things it recommends): its own declaration decides.
  if (!other && (article || /^\s*article\s*$/i.test(openGraph))) return 'article';
  if (/product/i.test(openGraph) || document.querySelector(PRODUCT_MICRODATA) !== null) return 'product';
  return 'other';
}

/** What a page claims to be: its kind, and whether an article claims it only loosely. */
export interface PageClaims {
  /** See {@link pageKind}. */
  readonly kind: PageKind;
  /** Whether the page is read as an article and claims it only loosely (see {@link claimsArticleLoosely}). */
  readonly looseArticle: boolean;
}

/** {@link pageKind} and {@link claimsArticleLoosely} together, reading the page's JSON-LD once. */
export function pageClaims(document: ParentNode): PageClaims {
  const types = declaredTypes(document);
  const kind = kindOf(document, types);
  return { kind, looseArticle: kind === 'article' && claimsArticleLoosely(document, types) };
}

/**
 * What dates a story: the publication time publishing systems give a post and not a page
 * (`article:published_time`), or a `datePublished` in microdata. JSON-LD's `datePublished` does not
 * count: SEO plugins put one on the `WebPage` item of every page.
 */
const STORY_DATE_SELECTOR =
  'meta[property="article:published_time"], meta[name="article:published_time"], [itemprop="datePublished"]';

/**
 * Whether a page that {@link pageKind} reads as an article claims it loosely: by `og:type=article`
 * alone, with no article type in JSON-LD and no story's date ({@link STORY_DATE_SELECTOR}). Sites that
 * mark every page `og:type=article` (section fronts, listings, landing pages) date their stories
 * only, so such a page may be a page of another kind. `types` are the page's declared JSON-LD types
 * (see {@link declaredTypes}).
 */
function claimsArticleLoosely(document: ParentNode, types: readonly string[]): boolean {
  if (document.querySelector(STORY_DATE_SELECTOR) !== null) return false;
  return !types.some((type) => ARTICLE_TYPES.has(type));
}

/** The most JSON-LD items of one script whose types are read (a bound on hostile markup). */
const MAX_DECLARED_ITEMS = 200;

/**
 * The JSON-LD `@type`s of the items that stand for the page, without a schema.org prefix and in lower
 * case: each script's top-level items, the members of its `@graph` and their `mainEntity`. Items that
 * are another item's property are not the page: an application's offer, the product a review rates,
 * the entries of a list, a course's offer. Of a script that does not parse (pages often ship invalid
 * JSON-LD), every `@type` in its text is read.
 */
function declaredTypes(document: ParentNode): string[] {
  const types: string[] = [];
  for (const script of Array.from(document.querySelectorAll('script[type="application/ld+json"]'))) {
    const text = script.textContent ?? '';
    const data = parseJsonLd(text);
    if (data === undefined) types.push(...typesInText(text));
    else types.push(...pageItemTypes(data));
  }
  return types;
}

/** Every `@type` written in a script's text, read without parsing it. */
function typesInText(text: string): string[] {
  const types: string[] = [];
  for (const match of text.matchAll(TYPE_FIELD)) {
    for (const name of (match[1] ?? '').match(/"[^"]*"/g) ?? []) types.push(typeName(name.slice(1, -1)));
  }
  return types;
}

/** The types of a parsed script's top-level items, their `@graph` members and their `mainEntity`. */
function pageItemTypes(data: unknown): string[] {
  const types: string[] = [];
  const items: unknown[] = [];
  enqueue(items, Array.isArray(data) ? data : [data]);
  for (const item of items) {
    if (item === null || typeof item !== 'object' || Array.isArray(item)) continue;
    const { '@graph': graph, '@type': type, mainEntity } = item as Record<string, unknown>;
    if (Array.isArray(graph)) enqueue(items, graph);
    if (mainEntity !== undefined) enqueue(items, Array.isArray(mainEntity) ? mainEntity : [mainEntity]);
    for (const name of Array.isArray(type) ? type : [type]) {
      if (typeof name === 'string') types.push(typeName(name));
    }
  }
  return types;
}

/** Adds `values` to the items to read, up to {@link MAX_DECLARED_ITEMS} items in all. */
function enqueue(items: unknown[], values: readonly unknown[]): void {
  for (const value of values) {
    if (items.length >= MAX_DECLARED_ITEMS) return;
    items.push(value);
  }
}

/** A schema.org type's name without its prefix, in lower case. */
function typeName(name: string): string {
  return name.replace(/^https?:\/\/schema\.org\//i, '').toLowerCase();
}
