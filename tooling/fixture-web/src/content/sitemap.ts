import { FEED_ENTRIES } from './feeds.js';

/** A sitemap (plain XML with a namespace) listing the recorded articles, for `/content/xml`. */
export function renderSitemap(origin: string): string {
  const urls = FEED_ENTRIES.map(
    (entry) => `  <url>
    <loc>${origin}${entry.path}</loc>
    <lastmod>${entry.published.slice(0, 10)}</lastmod>
    <changefreq>monthly</changefreq>
    <priority>0.8</priority>
  </url>`,
  ).join('\n');
  return `<?xml version="1.0" encoding="UTF-8"?>
<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">
${urls}
</urlset>
`;
}
