// Extracts every page of a set in this process as WebFetch does, through the extraction pool of the
// built package (one worker, the pool's heap limits and worker replacement), and writes the process's
// peak RSS. Plain JavaScript run by node alone, so that no TypeScript loader's threads or caches count
// in the figure.
//
// The pages come as a list of { id, url } written by the bench: the set's ground truth (14 MB of
// JSON for WCXB, over 50 MB of heap once parsed) is the bench's, not WebFetch's, and is not loaded
// here.
//
// Usage (from this folder, after building the package):
//   node peak-rss.mjs <dataset> <pages.json> <out.json>
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { createExtractionPool } from '@mono-agent/extract';

const [dataset, pagesFile, outFile] = process.argv.slice(2);
if (dataset === undefined || pagesFile === undefined || outFile === undefined) {
  throw new Error('usage: node peak-rss.mjs <dataset> <pages.json> <out.json>');
}
/** @type {{ id: string; url: string }[]} */
const pages = JSON.parse(readFileSync(pagesFile, 'utf8'));
// Defuddle reports bad JSON-LD through the console; it is not the figure.
console.error = () => {};
console.warn = console.error;
console.log = console.error;
const pool = createExtractionPool({ size: 1 });
const crashes = [];
try {
  for (const { id, url } of pages) {
    // One array of its own per body, handed over as fetchDocument hands over the transport's.
    const body = gunzipSync(readFileSync(join(dataset, 'html', `${id}.html.gz`)));
    try {
      await pool.extract(
        {
          body,
          url: url || 'https://page-without-url.invalid/',
          contentType: 'text/html',
          format: 'markdown',
        },
        { transferBody: true },
      );
    } catch {
      crashes.push(id);
    }
  }
} finally {
  await pool.close();
}
writeFileSync(
  outFile,
  JSON.stringify({ peakRssBytes: process.resourceUsage().maxRSS * 1024, pages: pages.length, crashes }),
);
