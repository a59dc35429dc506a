import { readdirSync, readFileSync } from 'node:fs';
import { parseDocument } from 'htmlparser2';
import { describe, expect, it } from 'vitest';
import { extract } from '../extract.js';
import type { DomNode } from './metadata-markup.js';
import { metadataTree } from './metadata-tree.js';
import { readDocumentMetadata, readPageMetadata } from './page-metadata.js';
import { parseHtmlDocument } from './parse-html-document.js';

const pagesFolder = new URL('../../test/pages/', import.meta.url);

/** A tree as the metadata reader sees it: elements, their attributes and texts, in order. */
function outline(node: DomNode): unknown {
  if (node.type === 'text') return node.data;
  const children = (node.children ?? [])
    .filter(
      (child) =>
        child.type === 'text' || child.type === 'tag' || child.type === 'script' || child.type === 'style',
    )
    // A template's content is never read: htmlparser2 keeps it, linkedom's document does not.
    .map((child) => (child.name === 'template' ? { ...child, children: [] } : child));
  return { type: node.type, name: node.name, attribs: node.attribs, children: children.map(outline) };
}

const parsedTree = async (html: string) => {
  const tree = metadataTree(await parseHtmlDocument(html));
  if (tree === undefined) throw new Error('no linkedom list');
  return tree;
};

/** Markup whose tree the copy must give as htmlparser2 does. */
const TRICKY =
  '<!doctype html><html LANG="en-GB"><head><META Property="og:site_name" CONTENT="Harbour Gazette">' +
  '<script type="application/ld+json">{"@type":"NewsArticle","author":{"name":"Jane Doe"}}</script>' +
  '<style>p { color: red }</style><title>Tides &amp; currents</title></head>' +
  '<body><!-- a comment --><template><span class="byline">By Nobody</span></template>' +
  '<h1>Tides</h1><p class="byline" CLASS="ignored">By <a rel="author">Jane Doe</a></p>' +
  '<svg><title>Icon</title><path d="M0"/></svg><time datetime="2024-03-05" pubdate>March 5</time>' +
  '<div itemprop="author" itemscope><span itemprop="name">Jane Doe</span></div><br><img alt="x"></body></html>';

describe('metadataTree', () => {
  it('copies the parsed document into the tree htmlparser2 gives the same markup', async () => {
    const expected = parseDocument(TRICKY, { lowerCaseAttributeNames: true }) as unknown as DomNode;
    // htmlparser2's root holds the doctype beside <html>; the outline keeps elements and texts only.
    expect(outline(await parsedTree(TRICKY))).toEqual({ ...(outline(expected) as object), type: 'root' });
  });

  it('links every copied node to its parent', async () => {
    const tree = await parsedTree(TRICKY);
    const pending = [tree];
    let count = 0;
    for (let node = pending.pop(); node !== undefined; node = pending.pop()) {
      for (const child of node.children ?? []) {
        expect(child.parent).toBe(node);
        pending.push(child);
        count += 1;
      }
    }
    expect(count).toBeGreaterThan(20);
  });

  it('is undefined for a document that keeps no linkedom list', () => {
    expect(metadataTree({})).toBeUndefined();
  });
});

describe('readDocumentMetadata', () => {
  it('reads what readPageMetadata reads from the markup, on every page of the golden corpus', async () => {
    const names = readdirSync(pagesFolder);
    expect(names.length).toBeGreaterThan(10);
    for (const name of names) {
      const html = readFileSync(new URL(`${name}/source.html`, pagesFolder), 'utf8');
      const fromDocument = await readDocumentMetadata(await parseHtmlDocument(html), html);
      expect(fromDocument.metadata, name).toEqual(await readPageMetadata(html));
    }
  });

  it('reads the markup when the document is of another DOM', async () => {
    const html = `<html lang="de"><head><meta name="author" content="Jane Doe"></head><body></body></html>`;
    expect((await readDocumentMetadata({}, html)).metadata).toEqual({ author: 'Jane Doe', language: 'de' });
  });

  it('reads the language of a page whose <html> tag comes after other markup', async () => {
    // A warning printed before the page, or a style before <html>: the tag's lang still holds.
    const html =
      '<br><b>Warning</b>: session_start() failed<br><!doctype html><html lang="en-US"><head>' +
      '<title>Tides</title></head><body><h1>Tides</h1><p>High water comes at noon today.</p></body></html>';
    const document = await extract({
      body: html,
      url: 'https://example.com/tides',
      contentType: 'text/html',
    });
    expect(document.language).toBe('en-US');
  });
});
