// Guards the behaviour the extraction stages rely on from linkedom's selector engine, and that the
// compiled-selector cache (src/linkedom/selector-cache.ts) must keep: the same selector string used on an HTML
// and an XML document, and `:scope` selectors on different elements.
import { describe, expect, it } from 'vitest';
import { loadLinkedom } from '../lazy-modules.js';

describe('linkedom selectors', () => {
  it('match case-insensitively in HTML and case-sensitively in XML with the same selector string', async () => {
    const { parseHTML, DOMParser } = await loadLinkedom();
    const { document: html } = parseHTML('<div><P class="x">a</P></div>');
    const xml = new DOMParser().parseFromString(
      '<root><P class="x">a</P><p class="x">b</p></root>',
      'text/xml',
    );
    for (let round = 0; round < 2; round++) {
      expect(html.querySelectorAll('div p.x').length).toBe(1);
      expect(xml.querySelectorAll('root p.x').length).toBe(1);
      expect(xml.querySelector('root p.x')?.textContent).toBe('b');
    }
  });

  it('resolve :scope against the element each call is made on', async () => {
    const { parseHTML } = await loadLinkedom();
    const { document } = parseHTML(
      '<section id="one"><p>1</p></section><section id="two"><p>2</p><p>3</p></section>',
    );
    const [one, two] = [document.getElementById('one'), document.getElementById('two')];
    expect(one?.querySelectorAll(':scope > p').length).toBe(1);
    expect(two?.querySelectorAll(':scope > p').length).toBe(2);
    expect(one?.querySelectorAll(':scope > p').length).toBe(1);
  });

  it('give the same answers from matches(), closest() and querySelectorAll() when repeated', async () => {
    const { parseHTML } = await loadLinkedom();
    const { document } = parseHTML('<p class="a"><a href="#">x</a></p><span><a href="#">y</a></span>');
    const [first, second] = [...document.querySelectorAll('a')];
    for (let round = 0; round < 2; round++) {
      expect([first?.matches('p.a a'), second?.matches('p.a a')]).toEqual([true, false]);
      expect(second?.closest('p.a')).toBeNull();
      expect(first?.closest('p.a')?.tagName).toBe('P');
      expect(document.querySelectorAll('span a, p.a a').length).toBe(2);
    }
  });
});
