import { describe, expect, it } from 'vitest';
import { loadLinkedom } from '../lazy-modules.js';
import { ACCESSOR_VALUES_KEPT, speedUpElementAccessors } from './element-accessors.js';

type Linkedom = Parameters<typeof speedUpElementAccessors>[0];

const PAGE = `<!doctype html><html><body>
<p class="lead  lead x">One</p><p class=" \ttabbed\n wide ">Two</p><p class="">Three</p><p>Four</p>
<svg viewBox="0 0 1 1"><clipPath class="c"><rect/></clipPath></svg><my-widget class="w">Five</my-widget>
</body></html>`;

/** What linkedom's own getters answer for every element of a page, and after changes to its classes. */
function answers(document: Document): unknown[] {
  const elements = Array.from(document.querySelectorAll('*'));
  const read = () => elements.map((element) => [element.className, element.tagName, element.nodeName]);
  const before = read();
  const [first, second, third, fourth] = elements.filter((element) => element.localName === 'p');
  first?.classList.add('added');
  second?.setAttribute('class', 'set  by setAttribute');
  third?.removeAttribute('class');
  if (fourth !== undefined) fourth.className = ' given\tby  className ';
  (elements.find((element) => element.localName === 'my-widget') as Element).classList.remove('w');
  return [before, read(), document.createElement('Section').tagName];
}

describe('element accessors over linkedom', () => {
  it('answers className, tagName and nodeName exactly as linkedom does, before and after changes', async () => {
    const loaded = await loadLinkedom();
    const shipped = await import('linkedom');
    const ours = answers(loaded.parseHTML(PAGE).document as unknown as Document);
    expect(ours).toEqual(answers(shipped.parseHTML(PAGE).document as unknown as Document));
    expect(ours[0]).toEqual(
      expect.arrayContaining([
        ['lead x', 'P', 'P'],
        ['tabbed wide', 'P', 'P'],
        ['w', 'MY-WIDGET', 'MY-WIDGET'],
      ]),
    );
  });

  it('reads a class attribute whose value was written directly as it now is', async () => {
    const { parseHTML } = await loadLinkedom();
    const { document } = parseHTML(PAGE);
    const paragraph = document.querySelector('p') as Element;
    (paragraph.getAttributeNode('class') as Attr).value = ' written  \u00a0directly written ';
    expect(paragraph.className).toBe('written directly');
    expect(paragraph.getAttribute('class')).toBe('written directly');
  });

  it('keeps the names of an XML document as they are written', async () => {
    const { DOMParser } = await loadLinkedom();
    const xml = new DOMParser().parseFromString('<Root><item class="a  a"/></Root>', 'text/xml');
    const item = xml.querySelector('item') as Element;
    expect([xml.documentElement.tagName, item.tagName, item.nodeName, item.className]).toEqual([
      'Root',
      'item',
      'item',
      'a',
    ]);
  });

  it('answers pages of many distinct class values and tag names past the kept ones', async () => {
    const { parseHTML } = await loadLinkedom();
    const count = ACCESSOR_VALUES_KEPT + 10;
    const body = Array.from(
      { length: count },
      (_, index) => `<x-${index} class="c${index}  c${index}"></x-${index}>`,
    );
    const { document } = parseHTML(`<!doctype html><html><body>${body.join('')}</body></html>`);
    const elements = Array.from(document.body.children);
    for (const round of [0, 1]) {
      expect(elements.map((element) => element.className)).toEqual(
        Array.from({ length: count }, (_, index) => `c${index}`),
      );
      expect(elements.map((element) => element.tagName)[count - 1]).toBe(`X-${count - 1}`);
      expect(round).toBeLessThan(2);
    }
  });

  it('leaves a DOM whose elements keep their classes elsewhere with its own getters', () => {
    class Element {
      get className() {
        return 'own';
      }
      get tagName() {
        return 'OWN';
      }
      get nodeName() {
        return 'OWN';
      }
    }
    class DOMParser {
      parseFromString() {
        return { body: { children: [new Element(), new Element()] } };
      }
    }
    const result = speedUpElementAccessors({ Element, DOMParser } as unknown as Linkedom);
    expect(result.installed).toBe(false);
    expect(new Element().className).toBe('own');
  });
});
