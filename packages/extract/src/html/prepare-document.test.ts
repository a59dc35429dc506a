import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { htmlToStreamedText } from './html-streamed-text.js';
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

describe('the menus of the page’s controls', () => {
  it('are removed: ARIA menus, menu bars and their items, wherever they sit', async () => {
    const items = ['Ada', 'Basque', 'Cobol']
      .map((name) => `<a role="menuitemradio" href="/?l=${name}">${name}</a>`)
      .join('');
    const document = await prepareDocument(
      `<!doctype html><html><body><ul role="menubar"><li role="none"><a role="menuitem" href="/x">Explore</a></li></ul>
<main><h1>Rising</h1><details class="select-menu"><summary>Language: Any</summary><details-menu>${items}</details-menu></details>
<div role="menu"><a href="/settings">Settings</a></div><p>Tide tables <span role="menuitemcheckbox">Pinned</span> for small harbours.</p></main></body></html>`,
    );
    const text = document.body.textContent ?? '';
    for (const gone of ['Explore', 'Ada', 'Basque', 'Cobol', 'Settings', 'Pinned'])
      expect(text).not.toContain(gone);
    expect(text).toContain('Language: Any');
    expect(text).toContain('Tide tables');
    expect(text).toContain('for small harbours.');
  });

  it('leaves a list, a tab list and a navigation without menu roles as they are', async () => {
    const document = await prepareDocument(
      '<!doctype html><html><body><nav><a href="/a">About</a></nav><div role="tablist"><a role="tab" href="#one">One</a></div><ul><li>First step</li></ul><div role="group"><p>Grouped text</p></div></body></html>',
    );
    const text = document.body.textContent ?? '';
    for (const kept of ['About', 'One', 'First step', 'Grouped text']) expect(text).toContain(kept);
  });

  it('are left out by the streamed-text stage too, and what follows them is read', async () => {
    const { markdown } = await htmlToStreamedText(
      '<html><body><h1>Rising</h1><ul role="menubar"><li><a role="menuitem" href="/x">Explore</a></li></ul><div role="menu"><a href="/s">Settings</a><img role="menuitem" alt="" src="a.png"></div><p>Tide tables for small harbours.</p><p><a role="menuitemradio" href="/?l=ada">Ada</a> Kept after.</p></body></html>',
      'https://example.org/ranked',
    );
    for (const gone of ['Explore', 'Settings', 'Ada']) expect(markdown).not.toContain(gone);
    expect(markdown).toContain('Tide tables for small harbours.');
    expect(markdown).toContain('Kept after.');
  });
});
