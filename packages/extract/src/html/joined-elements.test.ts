import { parseHTML } from 'linkedom';
import { describe, expect, it } from 'vitest';
import { spaceJoinedElements } from './joined-elements.js';

const body = (html: string) =>
  (parseHTML(`<!doctype html><html><head></head><body>${html}</body></html>`).document as unknown as Document)
    .body;

describe('spaceJoinedElements', () => {
  it.each([
    [
      'a brand and a name',
      '<a href="/p/1"><span>Merrell</span><span>Moab 3 Mid</span></a>',
      'Merrell Moab 3 Mid',
    ],
    [
      "a filter's label and count",
      '<div class="flex"><label>Accessories</label><span>1385</span></div>',
      'Accessories 1385',
    ],
    ['a price and a note', '<p><span>$95</span><span>MSRP $120</span></p>', '$95 MSRP $120'],
    ['two figures', '<p><span>28,25,140</span><span>1490</span></p>', '28,25,140 1490'],
    ['a rating and its count', '<p><span>4.6</span><span>212 reviews</span></p>', '4.6 212 reviews'],
    ['two capitals', '<p><b>SEO</b><span>SaaS</span></p>', 'SEO SaaS'],
    [
      'elements with comments between them and text deep inside',
      '<p><span><em>Pads</em></span><!--]--><!--[--><span><i>158</i></span></p>',
      'Pads 158',
    ],
  ])('spaces %s', (_, html, text) => {
    const root = body(html);
    expect(spaceJoinedElements(root)).toBe(1);
    expect(root.textContent).toBe(text);
  });

  it.each([
    ['two small letters: a drop cap', '<p><span class="drop">f</span><span>or the first time</span></p>'],
    ["a word's ending", '<p><span>child</span><span>ren</span></p>'],
    ['a capital before a small letter', '<p><span class="initial">If</span><span>you go</span></p>'],
    ['an ordinal', '<p><span>3</span><span>rd</span> place</p>'],
    ['a letter alone', '<h2><span>A</span><span>B</span><span>O</span><span>U</span><span>T</span></h2>'],
    ['a digit alone', '<p><span>1</span><span>2</span><span>3</span></p>'],
    ['text between the elements', '<p><span>Merrell</span> <span>Moab</span></p>'],
    ['words of their own between them', '<p><span>Merrell</span>and<span>Moab</span></p>'],
    ['blocks', '<div>Merrell</div><div>Moab</div>'],
    ['code', '<pre><code><span class="k">Foo</span><span class="n">Bar</span></code></pre>'],
    ['inline code', '<p><code><span>Read</span><span>Only</span></code></p>'],
  ])('leaves %s as it is', (_, html) => {
    const root = body(html);
    const before = root.innerHTML;
    expect(spaceJoinedElements(root)).toBe(0);
    expect(root.innerHTML).toBe(before);
  });

  it('walks a deeply nested page without running out of stack', () => {
    const depth = 5_000;
    const root = body(`${'<span>'.repeat(depth)}Deep${'</span>'.repeat(depth)}<span>Second</span>`);
    expect(spaceJoinedElements(root)).toBe(1);
    expect(root.textContent).toBe('Deep Second');
  });
});
