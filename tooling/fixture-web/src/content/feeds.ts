// Feeds link to the recorded article pages with absolute URLs on the host the client used, so a
// crawler test can follow a feed into the fixture instead of out to the internet.

/** One feed entry. */
export interface FeedEntry {
  /** The entry title. */
  readonly title: string;
  /** The path of the linked page on the fixture. */
  readonly path: string;
  /** When it was published, ISO 8601. */
  readonly published: string;
  /** A one-sentence summary. */
  readonly summary: string;
}

/** The entries both feeds carry, newest first. */
export const FEED_ENTRIES: readonly FeedEntry[] = [
  {
    title: 'City council approves night bus pilot for the harbour district',
    path: '/pages/news-article',
    published: '2024-04-09T16:20:00Z',
    summary: 'Three night lines start in May, paid for by a levy on evening parking.',
  },
  {
    title: 'Retrying HTTP requests without making outages worse',
    path: '/pages/blog-post',
    published: '2024-02-14T08:00:00Z',
    summary: 'Backoff, jitter and Retry-After, and why lockstep retries prolong outages.',
  },
  {
    title: 'Configuration reference',
    path: '/pages/docs-page',
    published: '2024-01-22T10:30:00Z',
    summary: 'Every option of the Lantern static site generator, with defaults & examples.',
  },
];

function escapeXml(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
}

/** An RSS 2.0 feed of `FEED_ENTRIES`; `origin` is like `http://127.0.0.1:4000`. */
export function renderRssFeed(origin: string): string {
  const items = FEED_ENTRIES.map(
    (entry) => `    <item>
      <title>${escapeXml(entry.title)}</title>
      <link>${escapeXml(origin + entry.path)}</link>
      <guid isPermaLink="true">${escapeXml(origin + entry.path)}</guid>
      <pubDate>${new Date(entry.published).toUTCString()}</pubDate>
      <description>${escapeXml(entry.summary)}</description>
    </item>`,
  ).join('\n');
  return `<?xml version="1.0" encoding="UTF-8"?>
<rss version="2.0" xmlns:atom="http://www.w3.org/2005/Atom">
  <channel>
    <title>The Riverside Ledger</title>
    <link>${escapeXml(origin)}/</link>
    <atom:link href="${escapeXml(origin)}/content/rss" rel="self" type="application/rss+xml"/>
    <description>Local news, opinion and guides</description>
    <language>en</language>
    <lastBuildDate>${new Date(FEED_ENTRIES[0]!.published).toUTCString()}</lastBuildDate>
${items}
  </channel>
</rss>
`;
}

/** An Atom 1.0 feed of `FEED_ENTRIES`. */
export function renderAtomFeed(origin: string): string {
  const entries = FEED_ENTRIES.map(
    (entry) => `  <entry>
    <title>${escapeXml(entry.title)}</title>
    <link rel="alternate" type="text/html" href="${escapeXml(origin + entry.path)}"/>
    <id>tag:fixture-web.invalid,2024:${escapeXml(entry.path)}</id>
    <published>${entry.published}</published>
    <updated>${entry.published}</updated>
    <summary>${escapeXml(entry.summary)}</summary>
  </entry>`,
  ).join('\n');
  return `<?xml version="1.0" encoding="utf-8"?>
<feed xmlns="http://www.w3.org/2005/Atom">
  <title>notes from the ops desk</title>
  <link rel="self" href="${escapeXml(origin)}/content/atom"/>
  <link rel="alternate" href="${escapeXml(origin)}/"/>
  <id>tag:fixture-web.invalid,2024:feed</id>
  <updated>${FEED_ENTRIES[0]!.published}</updated>
  <author><name>Priya Raman</name></author>
${entries}
</feed>
`;
}
