// Extracts every page of a set in this process as WebFetch does, through the extraction pool of the
// built package (one worker, the pool's heap limits and worker replacement), and writes the process's
// peak RSS. Plain JavaScript run by node alone, so that no TypeScript loader's threads or caches count
// in the figure.
//
// Usage (from this folder, after building the package):
//   node peak-rss.mjs <dataset> <ids.json> <out.json>
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { createExtractionPool } from '@mono-agent/extract';

const [dataset, idsFile, outFile] = process.argv.slice(2);
if (dataset === undefined || idsFile === undefined || outFile === undefined) {
  throw new Error('usage: node peak-rss.mjs <dataset> <ids.json> <out.json>');
}
const truth = JSON.parse(readFileSync(join(dataset, 'ground-truth.json'), 'utf8'));
const ids = JSON.parse(readFileSync(idsFile, 'utf8'));
// Defuddle reports bad JSON-LD through the console; it is not the figure.
console.error = () => {};
console.warn = console.error;
console.log = console.error;
const pool = createExtractionPool({ size: 1 });
const crashes = [];
try {
  for (const id of ids) {
    const entry = truth[id];
    if (entry === undefined) continue;
    // One array of its own per body, handed over as fetchDocument hands over the transport's.
    const body = gunzipSync(readFileSync(join(dataset, 'html', `${id}.html.gz`)));
    try {
      await pool.extract(
        {
          body,
          url: entry.url || 'https://page-without-url.invalid/',
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
  JSON.stringify({ peakRssBytes: process.resourceUsage().maxRSS * 1024, pages: ids.length, crashes }),
);
