import { FEED_ENTRIES } from './feeds.js';

/** A search-API-shaped JSON document, with links to the recorded articles. */
export function renderJson(origin: string): string {
  const document = {
    query: 'night bus',
    total: FEED_ENTRIES.length,
    page: 1,
    next: null,
    results: FEED_ENTRIES.map((entry, index) => ({
      rank: index + 1,
      title: entry.title,
      url: origin + entry.path,
      published: entry.published,
      snippet: entry.summary,
    })),
    meta: { locale: 'en-GB', note: 'Ünïcödé survives a JSON round trip: 日本語, Ελληνικά, 🌍' },
  };
  return `${JSON.stringify(document, null, 2)}\n`;
}

/**
 * The same document cut off mid-string, the way a response truncated by a proxy or a dropped
 * connection looks, still labelled `application/json`.
 */
export function renderInvalidJson(origin: string): string {
  const valid = renderJson(origin);
  return valid.slice(0, valid.indexOf('"snippet"') + 24);
}

/** Plain text in the style of a release notes file. */
export function renderPlainText(): string {
  return `Lantern 3.2 release notes
=========================

Released 22 January 2024.

New
---
* The [build] table accepts a "jobs" key to limit parallel rendering.
* Draft pages can be included once with: lantern build --drafts

Fixed
-----
* Links in feeds now honour base_url.
* Non-ASCII titles (for example "Café Zürich") no longer break the sitemap.

Thanks to everyone who reported issues.
`;
}
