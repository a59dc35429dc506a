import { type DomNode, hasAncestor, metaValue, stripByline, textOf } from './metadata-markup.js';
import {
  clean,
  isName,
  isUrl,
  joinNames,
  MAX_BYLINE_CHARS,
  MAX_METADATA_FIELD_CHARS,
} from './metadata-text.js';

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
  return clean(metaValue(node.name, attribs) ?? (node.name === 'meta' ? '' : textOf(node)));
}

/** The names of the page's microdata authors (an item's `name`, else the element's text). */
export function microdataAuthor(nodes: readonly DomNode[]): string | undefined {
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

/** The name of the page's microdata publisher (an item's `name`, else the element's text). */
export function microdataName(nodes: readonly DomNode[]): string | undefined {
  for (const node of nodes) {
    const named = 'itemscope' in (node.attribs ?? {}) ? itemProperty(node, 'name') : node;
    const value = named === undefined ? '' : itemValue(named);
    if (value !== '' && !isUrl(value) && value.length <= MAX_METADATA_FIELD_CHARS) return value;
  }
  return undefined;
}
