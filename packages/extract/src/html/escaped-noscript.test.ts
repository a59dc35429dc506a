import { describe, expect, it } from 'vitest';
import { extract } from '../extract.js';

const url = 'https://example.org/docs/guide.html';
const paragraph = (n: number) =>
  `<p>Paragraph ${n} explains how the harbour bridge was rebuilt after the storm, with new steel and a wider deck for cyclists and walkers.</p>`;
const page = (inner: string) =>
  `<!doctype html><html><head><title>Guide</title></head><body><nav><a href="/">Home</a></nav><article><h1>The guide</h1>${[1, 2, 3].map(paragraph).join('')}${inner}${[4, 5, 6].map(paragraph).join('')}</article><footer>Footer</footer></body></html>`;
const markdownOf = async (inner: string) =>
  (await extract({ body: page(inner), url, contentType: 'text/html' })).content;

describe('extract: escaped markup in <noscript>', () => {
  const words = (n: number) => Array.from({ length: n }, (_, i) => `word${i}`).join(' ');
  it('never prints a fallback written as escaped markup as literal tags', async () => {
    const content = await markdownOf(
      `<noscript>&lt;img src="https://example.org/bridge.png" alt="The new deck"&gt;</noscript>` +
        `<noscript>&lt;p&gt;The fallback story tells ${words(60)}.&lt;/p&gt;</noscript>`,
    );
    expect(content).not.toMatch(/<img|<p>|&lt;/);
    expect(content).toContain('The fallback story tells word0');
  });
});
