import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { prepareDocument } from './prepare-document.js';

const pages = fileURLToPath(new URL('../../test/pages/', import.meta.url));

/** Both halves of a document as linkedom writes them, and its doctype. */
function serialized(document: Document) {
  return { whole: document.toString(), head: document.head.innerHTML, body: document.body.innerHTML };
}

// The article route reads a page twice (Readability rewriting one copy, Defuddle the other when it
// runs) and makes the second copy by cloning the prepared document instead of preparing the page
// again.
describe('a clone of a prepared document', () => {
  const cases: [string, string][] = [
    ...readdirSync(pages).map((name): [string, string] => [
      name,
      readFileSync(join(pages, name, 'source.html'), 'utf8'),
    ]),
    ['no html, head or body', '<!doctype html><title>T</title><p>One <b>two</b></p><p>three'],
    [
      'stray elements and a second body',
      '<html><head><title>T</title></head><div>between</div><body><p>a</p></body><body><p>b</p></body><p>after</p></html>',
    ],
    [
      'MathML, namespaced attributes and a base',
      '<!doctype html><html lang="en" xml:lang="en"><head><base href="/docs/"></head><body><p>Area <math display="block"><semantics><mrow><msup><mi>x</mi><mn>2</mn></msup></mrow><annotation encoding="application/x-tex">x^2</annotation></semantics></math></p><a xlink:href="#a" data-x="1">a</a></body></html>',
    ],
    [
      'entities, comments and raw text',
      '<!doctype html><html><head><script type="application/ld+json">{"a":"<b>&amp;</b>"}</script></head><body><!-- c --><pre>&lt;x&gt; &amp;&nbsp;</pre><textarea>kept?</textarea><p title="q&quot;uote">p</p></body></html>',
    ],
  ];
  it.each(cases)('is the document a second preparation makes: %s', async (_name, html) => {
    const prepared = await prepareDocument(html);
    const clone = prepared.cloneNode(true) as Document;
    expect(serialized(clone)).toEqual(serialized(await prepareDocument(html)));
    // And a copy of its own: changing one leaves the other as it was.
    const before = serialized(prepared);
    clone.body.replaceChildren();
    expect(serialized(prepared)).toEqual(before);
  });
});
