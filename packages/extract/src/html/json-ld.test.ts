import { parseHTML } from 'linkedom';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { extractHtml } from './extract-html.js';
import { setAsideUnreadableJsonLd } from './json-ld.js';

const page = (jsonLd: string) =>
  `<!doctype html><html><head><title>Tide tables</title><script type="application/ld+json">${jsonLd}</script></head>
<body><main><article><h1>Tide tables for the estuary</h1>
<p>The harbour office publishes the tide tables for the estuary every month, and the spring tides this autumn run higher than usual because the equinox and the new moon fall in the same week.</p>
<p>Boat owners on the lower moorings should check their lines before the weekend, and the slipway will close for two hours either side of high water on Saturday.</p></article></main></body></html>`;

afterEach(() => vi.restoreAllMocks());

describe('JSON-LD Defuddle cannot read', () => {
  it('is passed over without a word on stderr, and the page is still read', async () => {
    const errors = vi.spyOn(console, 'error');
    for (const broken of [
      '{"@type": "NewsArticle", "headline": "Tide tables",}',
      '{"@type": "NewsArticle", "headline": "Tide tables"',
      '<!-- not json -->',
    ]) {
      const article = await extractHtml(page(broken), 'https://harbour.example/tides');
      expect(article.text).toContain('slipway will close');
    }
    expect(errors).not.toHaveBeenCalled();
  });

  it('hides only the scripts Defuddle would fail on, and puts them back', () => {
    const { document } = parseHTML(
      `<html><head>
<script type="application/ld+json">{"@type": "Article", "name": "a",}</script>
<script type="application/ld+json">/* generated */ {"@type": "Article", "name": "b"}</script>
<script type="application/ld+json"><![CDATA[{"@type": "Article", "name": "c"}]]></script>
</head><body></body></html>`,
    );
    const types = () =>
      Array.from(document.querySelectorAll('script'), (script) => script.getAttribute('type'));
    const restore = setAsideUnreadableJsonLd(document);
    expect(types()).toEqual([
      'application/x-mono-agent-unreadable-ld+json',
      'application/ld+json',
      'application/ld+json',
    ]);
    restore();
    expect(types()).toEqual(['application/ld+json', 'application/ld+json', 'application/ld+json']);
  });
});
