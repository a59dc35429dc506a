import { WebToolError } from '@mono-agent/budget-policy';
import { safeAbsoluteUrl } from '../html/safe-link.js';
import { loadXmlParser } from '../lazy-modules.js';

/** The most characters entity expansion may add to an XML body, so a small body cannot balloon. */
export const MAX_XML_ENTITY_EXPANDED_CHARS = 100_000;

/** A parsed XML body: a feed's entries, or a plain XML document. */
export type XmlResult =
  | { kind: 'feed'; title: string | undefined; entries: FeedEntry[] }
  | { kind: 'xml'; title: undefined };

/** One entry of an RSS or Atom feed. */
export interface FeedEntry {
  /** The entry's title. */
  title: string | undefined;
  /** A safe absolute link to the entry, when it has one. */
  link: string | undefined;
  /** The published or updated date as written. */
  date: string | undefined;
  /** The summary or description, as HTML or text. */
  summary: string | undefined;
}

type XmlNode = Record<string, unknown>;

/** Validates and parses an XML body; RSS 2.0, RSS 1.0 (RDF) and Atom become feed entries. */
export async function parseXml(text: string, url: string): Promise<XmlResult> {
  const { XMLParser, XMLValidator } = await loadXmlParser();
  const verdict = XMLValidator.validate(text);
  if (verdict !== true) {
    const { code, msg, line, col } = verdict.err;
    throw new WebToolError({
      code: 'parse_error',
      message: `Invalid XML at line ${line}, column ${col}: ${msg}`,
      details: { kind: 'xml', line, column: col, reason: code },
    });
  }
  const parser = new XMLParser({
    ignoreAttributes: false,
    attributeNamePrefix: '@_',
    removeNSPrefix: true,
    parseTagValue: false,
    parseAttributeValue: false,
    trimValues: true,
    processEntities: { enabled: true, maxExpandedLength: MAX_XML_ENTITY_EXPANDED_CHARS },
    isArray: (name) => name === 'item' || name === 'entry' || name === 'link',
  });
  let root: XmlNode;
  try {
    root = parser.parse(text) as XmlNode;
  } catch (error) {
    throw new WebToolError({
      code: 'parse_error',
      message: `Invalid XML: ${error instanceof Error ? error.message : String(error)}`.slice(0, 300),
      cause: error,
      details: { kind: 'xml' },
    });
  }
  const rss = asNode(root.rss);
  if (rss !== undefined) {
    const channel = asNode(rss.channel) ?? {};
    return {
      kind: 'feed',
      title: textOf(channel.title),
      entries: asArray(channel.item).map((item) => rssEntry(item, url)),
    };
  }
  const rdf = asNode(root.RDF);
  if (rdf !== undefined) {
    const channel = asNode(rdf.channel) ?? {};
    const items = asArray(rdf.item).length > 0 ? asArray(rdf.item) : asArray(channel.item);
    return { kind: 'feed', title: textOf(channel.title), entries: items.map((item) => rssEntry(item, url)) };
  }
  const feed = asNode(root.feed);
  if (feed !== undefined) {
    return {
      kind: 'feed',
      title: textOf(feed.title),
      entries: asArray(feed.entry).map((entry) => atomEntry(entry, url)),
    };
  }
  return { kind: 'xml', title: undefined };
}

function rssEntry(item: XmlNode, url: string): FeedEntry {
  const links = asArray(item.link);
  return {
    title: textOf(item.title),
    link: safeAbsoluteUrl(textOf(links[0]) ?? textOf(item.guid), url),
    date: textOf(item.pubDate) ?? textOf(item.date) ?? textOf(item.updated),
    summary: textOf(item.description) ?? textOf(item.summary),
  };
}

function atomEntry(entry: XmlNode, url: string): FeedEntry {
  const links = asArray(entry.link);
  const alternate = links.find((link) => (link['@_rel'] ?? 'alternate') === 'alternate') ?? links[0];
  const href = alternate === undefined ? undefined : textOf(alternate['@_href']);
  return {
    title: textOf(entry.title),
    link: safeAbsoluteUrl(href, url),
    date: textOf(entry.updated) ?? textOf(entry.published),
    summary: textOf(entry.summary) ?? textOf(entry.content),
  };
}

function asNode(value: unknown): XmlNode | undefined {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
    ? (value as XmlNode)
    : undefined;
}

function asArray(value: unknown): XmlNode[] {
  const values = Array.isArray(value) ? value : value === undefined ? [] : [value];
  return values.map((entry) =>
    typeof entry === 'object' && entry !== null ? (entry as XmlNode) : { '#text': entry },
  );
}

/** The text of an element that may be a string, a number or a node with `#text`. */
function textOf(value: unknown): string | undefined {
  if (typeof value === 'string') return value.trim() === '' ? undefined : value.trim();
  if (typeof value === 'number') return String(value);
  const node = asNode(value);
  return node === undefined ? undefined : textOf(node['#text']);
}
