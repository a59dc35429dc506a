import * as cssSelect from 'css-select';
import { describe, expect, it } from 'vitest';
import { extract } from '../extract.js';
import { loadLinkedom } from '../lazy-modules.js';
import { MAX_COMPILED_SELECTORS } from './compiled-queries.js';
import { INDEXED_SELECTOR_MIN_ALTERNATIVES } from './indexed-query.js';
import { installSelectorCache } from './selector-cache.js';
import { INDEXED_SUBTREE_MIN_ELEMENTS } from './subtree-indexes.js';

type Linkedom = Parameters<typeof installSelectorCache>[0];

/**
 * Installs the cache with a css-select that counts compilations of selector strings and, apart, of
 * the alternatives of indexed lists; the previous methods come back after.
 */
async function withCountingCache<T>(
  run: (compiles: () => number, cache: { size(): number }, alternatives: () => number) => T | Promise<T>,
): Promise<T> {
  const linkedom = (await loadLinkedom()) as unknown as Linkedom;
  let count = 0;
  let alternatives = 0;
  const cache = installSelectorCache(linkedom, {
    compile(selector, options) {
      if (typeof selector === 'string') count++;
      else alternatives++;
      return cssSelect.compile(selector, options);
    },
  });
  try {
    return await run(
      () => count,
      cache,
      () => alternatives,
    );
  } finally {
    cache.restore();
  }
}

const PAGE = `<!doctype html><html><head><title>t</title></head><body>
<nav class="menu"><ul><li><a href="/a">A</a></li><li class="on"><a href="/b">B</a></li></ul></nav>
<main id="m"><article data-test="story"><h1>Title</h1><p class="lead x">One <em>two</em></p>
<pre><code class="language-js">let x = 1;</code></pre><p>Three</p><table><tr><td>c</td></tr></table>
<select>${Array.from({ length: 50 }, (_, index) => `<option value="${index}">o${index}`).join('')}</select>
<template><p class="inside-template">hidden</p></template>
<svg viewBox="0 0 1 1"><clipPath id="c"><rect/></clipPath></svg></article></main>
<footer><p>Foot</p><p class="Upper">Up</p></footer><div class="tabbed\twide">tabbed</div></body></html>`;

const SELECTORS = [
  'p',
  'P.LEAD',
  'P.lead',
  'main > article p:not(.x)',
  'li + li a',
  'li ~ li',
  'ul li:first-child a',
  'option:nth-child(3n+1)',
  '[data-test="story"] h1',
  'a[href^="/"]',
  'pre code[class*=language-]',
  'p:has(em)',
  'td, h1, footer p',
  '.inside-template',
  'clipPath',
  'clippath',
  '*',
];

/** Alternatives whose subjects are filed by id, class and tag, or not at all, with their traps. */
const LIST_ALTERNATIVES = [
  '#m',
  '[ID="m"] h1',
  '#M',
  '.lead',
  '.LEAD',
  '[class~="LEAD" i]',
  'P.x',
  '.Upper',
  'nav .on a',
  'li:not(.on) > a',
  ':is(td, footer) p, footer > p',
  'OPTION:nth-child(50)',
  '[data-test] em',
  'code[class^="language-"]',
  '.inside-template',
  '.tabbed',
  '.wide',
  '[data-test="STORY" i]',
  '[href^="/b"]',
  '[DATA-TEST] h1',
  '[class="lead x" i]',
  '[id$="M" i]',
  'td[value!="3"]',
  '[viewbox]',
];

describe('compiled-selector cache over linkedom', () => {
  it('answers every selector exactly as linkedom does', async () => {
    // linkedom's package entry is a module graph of its own, with the selector methods it ships.
    const shipped = await import('linkedom');
    const { parseHTML } = await loadLinkedom();
    const answers = (document: Document) => {
      const article = document.querySelector('article');
      const em = document.querySelector('em');
      return [...SELECTORS, LIST_ALTERNATIVES.join(', ')].map((selector) => ({
        selector,
        all: [...document.querySelectorAll(selector)].map((element) => element.outerHTML),
        first: document.querySelector(selector)?.outerHTML ?? null,
        inArticle: article?.querySelectorAll(selector).length,
        matches: [...document.querySelectorAll('*')].filter((element) => element.matches(selector)).length,
        closest: em?.closest(selector)?.localName ?? null,
      }));
    };
    const cached = answers(parseHTML(PAGE).document as unknown as Document);
    expect(cached.at(-1)?.selector).toBe(LIST_ALTERNATIVES.join(', '));
    expect(Object.getOwnPropertyDescriptor(shipped.Element.prototype, 'matches')?.value).not.toBe(
      Object.getOwnPropertyDescriptor((await loadLinkedom()).Element.prototype, 'matches')?.value,
    );
    expect(cached).toEqual(answers(shipped.parseHTML(PAGE).document as unknown as Document));
    expect(cached.find((answer) => answer.selector === '.inside-template')?.all).toEqual([]);
    expect(cached.find((answer) => answer.selector === 'P.lead')?.all).toHaveLength(1);
  });

  it('answers every element in turn from what it found for the others only until a document changes', async () => {
    // Each element of the page asked in turn, as Defuddle asks, whether it holds a match and whether
    // it sits inside one; then one change, and every element asked again. The same is done to a
    // document of linkedom's own graph: a change the answers missed would show in the second round.
    const shipped = await import('linkedom');
    const cached = await loadLinkedom();
    type Parse = (markup: string) => { document: Document };
    const below = 'math, [data-mathml], .katex-mathml';
    const above = 'pre, code, [data-defuddle]';
    const changes: ((document: Document) => void)[] = [
      (document) => document.querySelector('em')?.setAttribute('data-mathml', ''),
      (document) => document.querySelector('option')?.append(document.createElement('math')),
      (document) => document.querySelector('li.on')?.setAttribute('data-defuddle', 'x'),
      (document) => {
        const cell = document.querySelector('td');
        if (cell) cell.className = 'katex-mathml';
      },
      (document) => document.querySelector('main')?.prepend(document.querySelector('footer') as Element),
      (document) =>
        document
          .querySelector('pre')
          ?.replaceWith(...Array.from(document.querySelector('pre')?.childNodes ?? [])),
    ];
    const rounds = (parse: Parse, change: (document: Document) => void) => {
      const { document } = parse(PAGE);
      const ask = () =>
        Array.from(document.querySelectorAll('*'), (element) => [
          element.querySelector(below)?.outerHTML ?? null,
          element.closest(above)?.localName ?? null,
        ]);
      const first = [ask(), ask()];
      change(document);
      return [...first, ask(), ask()];
    };
    for (const change of changes) {
      const answers = rounds(cached.parseHTML as unknown as Parse, change);
      expect(answers).toEqual(rounds(shipped.parseHTML as unknown as Parse, change));
      expect(answers[2]).not.toEqual(answers[0]);
    }
  });

  it('answers from an index of a subtree only until a document changes', async () => {
    // The same changes made to a document of linkedom's own graph and to one with indexes: after
    // each, every answer is the same. A change the indexes missed would show removed elements, or
    // miss new ones, in the next answer.
    const shipped = await import('linkedom');
    const cached = await loadLinkedom();
    type Parse = (markup: string) => { document: Document };
    const asked = [
      'p',
      'P',
      '.lead',
      '#m',
      '#moved',
      'em',
      'h2',
      'li a',
      'main',
      'clipPath',
      '.tabbed',
      'nope',
      '[id="moved"]',
      'p:not(.x)',
      'p.lead',
      'main p, article > p',
      'li:not(.on) > a',
      'td, h1',
      '[ID="m" i]',
    ];
    const answers = (document: Document) =>
      asked.map((selector) => ({
        selector,
        all: [...document.querySelectorAll(selector)].map((element) => element.outerHTML),
        first: document.querySelector(selector)?.outerHTML ?? null,
        inMain: document.querySelector('main')?.querySelectorAll(selector).length ?? null,
      }));
    const at = (document: Document, selector: string) => document.querySelector(selector) as Element;
    const changes: [string, (document: Document, parse: Parse) => void][] = [
      ['appendChild', (d) => at(d, 'main').appendChild(d.createElement('p')).classList.add('lead')],
      ['remove', (d) => at(d, 'footer').remove()],
      ['innerHTML', (d) => (at(d, 'nav').innerHTML = '<p class="lead">menu <em>item</em></p>')],
      ['outerHTML', (d) => (at(d, 'table').outerHTML = '<h2>table <em>gone</em></h2>')],
      ['textContent', (d) => (at(d, 'select').textContent = 'no options')],
      ['insertAdjacentHTML', (d) => at(d, 'h1').insertAdjacentHTML('afterend', '<p>new <em>one</em></p>')],
      ['replaceWith', (d) => at(d, 'pre').replaceWith(d.createElement('em'))],
      [
        'before and after',
        (d) => {
          at(d, 'h1').before(d.createElement('p'));
          at(d, 'h1').after('text');
        },
      ],
      ['replaceChildren', (d) => at(d, 'article').replaceChildren(d.createElement('h2'))],
      ['a class added', (d) => at(d, 'h2').classList.add('lead')],
      ['a class attribute set', (d) => at(d, 'p').setAttribute('class', 'tabbed lead')],
      ['an id', (d) => at(d, 'h2').setAttribute('id', 'm')],
      ['an id removed', (d) => at(d, 'main').removeAttribute('id')],
      [
        'a fragment',
        (d) => {
          const fragment = d.createDocumentFragment();
          fragment.append(d.createElement('p'), d.createElement('em'));
          at(d, 'body').appendChild(fragment);
        },
      ],
      [
        'a move from another document',
        (d, parse) => {
          const other = parse(
            '<html><body><div id="moved"><p class="lead">from <em>there</em></p></div></body></html>',
          );
          at(d, 'main').appendChild(other.document.querySelector('#moved') as Element);
        },
      ],
    ];
    const pair = [
      {
        document: cached.parseHTML(PAGE).document as unknown as Document,
        parse: cached.parseHTML as unknown as Parse,
      },
      {
        document: shipped.parseHTML(PAGE).document as unknown as Document,
        parse: shipped.parseHTML as unknown as Parse,
      },
    ];
    const [indexed, reference] = pair.map(({ document }) => document) as [Document, Document];
    expect(indexed.querySelectorAll('*').length).toBeGreaterThanOrEqual(INDEXED_SUBTREE_MIN_ELEMENTS);
    // Asked twice before any change: the first answers make the index, the second read it.
    expect(answers(indexed)).toEqual(answers(reference));
    expect(answers(indexed)).toEqual(answers(reference));
    for (const [name, change] of changes) {
      for (const { document, parse } of pair) change(document, parse);
      expect({ name, answers: answers(indexed) }).toEqual({ name, answers: answers(reference) });
    }
  });

  it('compiles a selector once however often it is used, and once more for XML', async () => {
    const { parseHTML, DOMParser } = await loadLinkedom();
    const { document } = parseHTML(PAGE);
    const xml = new DOMParser().parseFromString('<root><P class="x"/><p class="x"/></root>', 'text/xml');
    await withCountingCache((compiles, _cache, alternatives) => {
      for (const option of document.querySelectorAll('option')) {
        option.matches('select > option, .menu li');
        option.closest('select > option, .menu li');
      }
      expect(document.querySelectorAll('select > option, .menu li').length).toBe(52);
      // 'option' whole, and the list's two alternatives one by one (an indexed list).
      expect([compiles(), alternatives()]).toEqual([1, 2]);
      expect(xml.querySelectorAll('root p.x').length).toBe(1);
      expect(document.querySelectorAll('root p.x').length).toBe(0);
      expect(compiles()).toBe(3); // one per mode
    });
  });

  it("reads an element's attributes as they are now for alternatives filed under an attribute", async () => {
    const { parseHTML } = await loadLinkedom();
    const { document } = parseHTML(PAGE);
    const list = '[role="banner" i], [data-date], nav > ul, #nothing';
    const heading = document.querySelector('h1') as Element;
    expect(heading.matches(list)).toBe(false);
    heading.setAttribute('role', 'Banner');
    expect(heading.matches(list)).toBe(true);
    expect(document.querySelectorAll(list)).toHaveLength(2);
    heading.removeAttribute('role');
    heading.setAttribute('data-date', '');
    expect(heading.closest(list)).toBe(heading);
    heading.removeAttribute('data-date');
    expect(document.querySelectorAll(list)).toHaveLength(1);
  });

  it('compiles :scope selectors for the element of each call', async () => {
    const { parseHTML } = await loadLinkedom();
    const { document } = parseHTML(
      '<section id="one"><p>1</p></section><section id="two"><p>2</p><p>3</p></section>',
    );
    await withCountingCache((compiles, cache) => {
      const [one, two] = [document.getElementById('one'), document.getElementById('two')];
      expect(one?.querySelectorAll(':scope > p').length).toBe(1);
      expect(two?.querySelectorAll(':scope > p').length).toBe(2);
      expect(one?.querySelectorAll(':scope > p').length).toBe(1);
      expect(compiles()).toBe(3);
      expect(cache.size()).toBe(0);
    });
  });

  it(`keeps at most ${MAX_COMPILED_SELECTORS} selectors, dropping the oldest`, async () => {
    const { parseHTML } = await loadLinkedom();
    const { document } = parseHTML('<p id="x0">a</p>');
    await withCountingCache((compiles, cache) => {
      for (let index = 0; index < MAX_COMPILED_SELECTORS; index++) document.querySelector(`#x${index}`);
      expect(cache.size()).toBe(MAX_COMPILED_SELECTORS);
      document.querySelector('#x0');
      expect(compiles()).toBe(MAX_COMPILED_SELECTORS);
      document.querySelector(`#x${MAX_COMPILED_SELECTORS}`); // one past the bound: #x0 goes
      expect(cache.size()).toBe(MAX_COMPILED_SELECTORS);
      document.querySelector('#x1');
      expect(compiles()).toBe(MAX_COMPILED_SELECTORS + 1);
      expect(document.querySelector('#x0')?.textContent).toBe('a');
      expect(compiles()).toBe(MAX_COMPILED_SELECTORS + 2);
    });
  });

  it('counts both modes against the bound and drops the oldest of either', async () => {
    const { parseHTML, DOMParser } = await loadLinkedom();
    const { document } = parseHTML('<p id="x0">a</p>');
    const xml = new DOMParser().parseFromString('<root><p id="x0"/></root>', 'text/xml');
    await withCountingCache((compiles, cache) => {
      // Oldest first: the XML query.
      xml.querySelector('#x0');
      for (let index = 1; index < MAX_COMPILED_SELECTORS; index++) document.querySelector(`#x${index}`);
      expect(cache.size()).toBe(MAX_COMPILED_SELECTORS);
      document.querySelector(`#x${MAX_COMPILED_SELECTORS}`); // past the bound: the XML query goes
      expect(cache.size()).toBe(MAX_COMPILED_SELECTORS);
      document.querySelector('#x1');
      expect(compiles()).toBe(MAX_COMPILED_SELECTORS + 1);
      // The XML query again: now the oldest is an HTML one, #x1, and it goes.
      xml.querySelector('#x0');
      expect(compiles()).toBe(MAX_COMPILED_SELECTORS + 2);
      expect(cache.size()).toBe(MAX_COMPILED_SELECTORS);
      xml.querySelector('#x0');
      document.querySelector(`#x${MAX_COMPILED_SELECTORS}`);
      expect(compiles()).toBe(MAX_COMPILED_SELECTORS + 2);
      document.querySelector('#x1');
      expect(compiles()).toBe(MAX_COMPILED_SELECTORS + 3);
    });
  });

  it('still throws on a selector that does not parse, and caches nothing for it', async () => {
    const { parseHTML } = await loadLinkedom();
    const { document } = parseHTML('<p>a</p>');
    await withCountingCache((_compiles, cache) => {
      expect(() => document.querySelectorAll('p[')).toThrow();
      expect(() => document.querySelector('p[')).toThrow();
      expect(cache.size()).toBe(0);
    });
  });

  it('leaves a DOM whose nodes are not linked as linkedom links them with its own methods', () => {
    const own = () => 'own';
    const classes = () => {
      const owner = class {};
      Object.assign(owner.prototype, {
        matches: own,
        closest: own,
        querySelector: own,
        querySelectorAll: own,
      });
      return owner;
    };
    const other = {
      Element: classes(),
      Document: classes(),
      DocumentFragment: classes(),
      NodeList: Array,
      DOMParser: class {
        parseFromString() {
          return { nodeType: 9 };
        }
      },
    } as unknown as Linkedom;
    const cache = installSelectorCache(other, cssSelect as never);
    for (const owner of [other.Element, other.Document, other.DocumentFragment]) {
      const prototype = owner.prototype as Record<string, unknown>;
      expect([prototype.querySelector, prototype.querySelectorAll]).toEqual([own, own]);
    }
    expect((other.Element.prototype as Record<string, unknown>).matches).toBe(own);
    expect(cache.size()).toBe(0);
    cache.restore();
  });

  it(`indexes a list of ${INDEXED_SELECTOR_MIN_ALTERNATIVES} alternatives and not of one fewer, with the same answers`, async () => {
    const { parseHTML } = await loadLinkedom();
    const { document } = parseHTML(PAGE);
    const short = LIST_ALTERNATIVES.slice(0, INDEXED_SELECTOR_MIN_ALTERNATIVES - 1).join(', ');
    const long = LIST_ALTERNATIVES.slice(0, INDEXED_SELECTOR_MIN_ALTERNATIVES).join(', ');
    const shipped = (await import('linkedom')).parseHTML(PAGE).document;
    const plain = (selector: string) => shipped.querySelectorAll(selector).length;
    await withCountingCache((compiles, _cache, alternatives) => {
      expect(document.querySelectorAll(short).length).toBe(plain(short));
      expect([compiles(), alternatives()]).toEqual([1, 0]);
      expect(document.querySelectorAll(long).length).toBe(plain(long));
      expect([compiles(), alternatives()]).toEqual([1, INDEXED_SELECTOR_MIN_ALTERNATIVES]);
    });
  });

  it('extracts a page of thousands of elements the extractors select one by one', async () => {
    // 5,000 sibling options, each of which the article extractors test against their selector
    // lists: compiled each time, this took seconds.
    const html = `<!doctype html><title>Countries</title><h1>Pick one</h1><p>${'Words of the page. '.repeat(20)}</p>${'<option>x'.repeat(5_000)}`;
    await withCountingCache(async (compiles, _cache, alternatives) => {
      const document = await extract({ body: html, url: 'https://example.com/', contentType: 'text/html' });
      expect(document.content).toContain('Words of the page.');
      expect(compiles()).toBeLessThan(MAX_COMPILED_SELECTORS);
      expect(alternatives()).toBeLessThan(5_000);
    });
  });
});
