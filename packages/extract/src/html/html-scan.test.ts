import { describe, expect, it } from 'vitest';
import { measureHtml } from '../html-bounds.js';
import { type HtmlVisitor, scanHtml } from './html-scan.js';

const PAGE =
  '<!doctype html><html><head><meta charset="utf-8"><title>t</title></head><body>' +
  '<div id="a" class="x &amp; y" data-v=\'1\'><p>one<p title="&lt;two&gt;">two<br><ul><li>i<li>j</ul>' +
  '<svg><path d="M0"/><g><circle/></g></svg><table><tr><td>c<td>d</table></div></body></html>';

/** Every event of a scan, attributes included when given. */
async function events(visitor: Partial<HtmlVisitor> = {}): Promise<string[]> {
  const seen: string[] = [];
  await scanHtml(PAGE, {
    ...visitor,
    open(name, attributes, depth) {
      seen.push(`open ${name} ${depth} ${JSON.stringify(attributes)}`);
    },
    close(name) {
      seen.push(`close ${name}`);
    },
  });
  return seen;
}

describe('scanHtml', () => {
  it('passes the attributes, decoded, to a visitor that reads them', async () => {
    const seen = await events();
    expect(seen).toContain('open div 3 {"id":"a","class":"x & y","data-v":"1"}');
    expect(seen).toContain('open p 4 {"title":"<two>"}');
  });

  it('opens and closes the same elements at the same depths for a visitor that does not read them', async () => {
    const withAttributes = await events();
    const without = await events({ readsAttributes: false });
    const strip = (line: string) => line.replace(/ \{.*\}$/, '');
    expect(without.map(strip)).toEqual(withAttributes.map(strip));
    expect(without.filter((line) => line.startsWith('open')).every((line) => line.endsWith(' {}'))).toBe(
      true,
    );
  });

  it('decodes the text for a visitor that reads it, attributes or not', async () => {
    for (const readsAttributes of [true, false]) {
      const texts: string[] = [];
      await scanHtml('<p>x &amp; y &lt;b&gt;</p>', { text: (text) => texts.push(text), readsAttributes });
      expect(texts.join('')).toBe('x & y <b>');
    }
  });

  it('measures a page without reading its attributes', async () => {
    const shape = await measureHtml(PAGE);
    const opened = (await events()).filter((line) => line.startsWith('open')).length;
    expect(shape.elements).toBe(opened);
    expect(shape.depth).toBe(6);
  });
});
