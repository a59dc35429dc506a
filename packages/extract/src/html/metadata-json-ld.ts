import { ROLE_AFTER_NAMES, stripByline } from './metadata-byline.js';
import { toIsoDate } from './metadata-dates.js';
import { clean, isName, isUrl, joinNames, languageTag } from './metadata-text.js';

/** The most JSON-LD nodes looked at: a page's data may be a whole catalogue. */
const MAX_JSON_LD_NODES = 2000;

/** The most characters of one JSON-LD script parsed. */
const MAX_JSON_LD_CHARS = 1_000_000;

/** Schema.org types that are a piece of writing; their node is the page's own when there are several. */
const ARTICLE_TYPE =
  /article|posting|report|review|recipe|webpage|aboutpage|profilepage|qapage|creativework|blog|book|movie|episode|videoobject|event|product|thesis|guide|howto/i;

/** What the page's JSON-LD states of the fields, each read from the page's own node first. */
export interface JsonLdFields {
  author?: string | undefined;
  published?: string | undefined;
  /**
   * `dateCreated`, which a page's `<meta>` publication date goes before (it may be the day the
   * draft was begun, or the same time in another zone).
   */
  created?: string | undefined;
  siteName?: string | undefined;
  language?: string | undefined;
  description?: string | undefined;
}

type JsonObject = Record<string, unknown>;

const isObject = (value: unknown): value is JsonObject =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/**
 * The fields of the page's own JSON-LD node (see {@link ARTICLE_TYPE}), references resolved; the
 * nodes are the scripts' top-level objects, their `@graph`s and their `mainEntity`s.
 */
export function readJsonLd(scripts: readonly string[]): JsonLdFields {
  const nodes = collectNodes(scripts);
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
    published: first((node) => dateOf(node.datePublished) ?? dateOf(node.uploadDate)),
    created: first((node) => dateOf(node.dateCreated)),
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

/** The scripts' nodes: their top-level objects, `@graph`s and `mainEntity`s, at most {@link MAX_JSON_LD_NODES}. */
function collectNodes(scripts: readonly string[]): JsonObject[] {
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
        // A page's node may describe the writing as its main entity (a WebPage whose `mainEntity`
        // is the NewsArticle, as Springer Nature's pages state it).
        if (isObject(item.mainEntity) || Array.isArray(item.mainEntity)) pending.push(item.mainEntity);
      }
    }
  }
  return nodes;
}

/** A date as ISO 8601: a string the date reader reads, or a number of Unix seconds or milliseconds. */
function dateOf(value: unknown): string | undefined {
  if (typeof value === 'string') return toIsoDate(clean(value));
  return typeof value === 'number' && Number.isInteger(value) ? toIsoDate(String(value)) : undefined;
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
    // One author's name with a job title after it ("Jane Doe, AP Auto Writer"): the name alone.
    const alone = name?.replace(ROLE_AFTER_NAMES, '').trim();
    if (alone !== undefined && isName(alone)) names.push(alone);
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
