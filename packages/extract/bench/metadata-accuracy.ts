// Scores the page metadata this package reads (author, published, site name, language, description)
// against a folder of test pages whose truth records them, field by field, beside Defuddle's own
// metadata fields for the same pages. The folder holds one folder per page with `source.html` and
// `expected-metadata.json` in the shape Mozilla Readability's test pages use (`byline`,
// `publishedTime`, `siteName`, `lang`, `excerpt`); the pages are not part of this repository.
//
// Run from the repository root:
//   pnpm tsx packages/extract/bench/metadata-accuracy.ts <folder> [--misses]
//
// A field matches when both are absent, or when both are present and equal once whitespace is
// collapsed, case is ignored and a leading "By" is dropped (dates: the same calendar day, each read
// by the same date reader). `excerpt` is Readability's description or, failing one, its article's
// first paragraph, so the description column is indicative only.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { toIsoDate } from '../src/html/metadata-dates.js';
import { type PageMetadata, readPageMetadata } from '../src/html/page-metadata.js';
import { parseHtmlDocument } from '../src/html/parse-html-document.js';
import { loadDefuddle } from '../src/lazy-modules.js';

type Field = keyof PageMetadata;
const FIELDS: readonly [Field, string][] = [
  ['author', 'byline'],
  ['published', 'publishedTime'],
  ['siteName', 'siteName'],
  ['language', 'lang'],
  ['description', 'excerpt'],
];

const folder = process.argv[2];
if (folder === undefined) {
  console.error('usage: metadata-accuracy.ts <folder of test pages> [--misses]');
  process.exit(2);
}
const showMisses = process.argv.includes('--misses');

const normalize = (field: Field, value: unknown): string | undefined => {
  if (typeof value !== 'string') return undefined;
  const text = value.replace(/\s+/g, ' ').trim();
  if (text === '') return undefined;
  if (field === 'published') return toIsoDate(text)?.slice(0, 10) ?? text.toLowerCase();
  return text
    .toLowerCase()
    .replace(/^by\s+/, '')
    .trim();
};

interface Tally {
  ours: number;
  defuddle: number;
  stated: number;
  oursStated: number;
  defuddleStated: number;
}

const tallies = new Map<Field, Tally>(
  FIELDS.map(([field]) => [field, { ours: 0, defuddle: 0, stated: 0, oursStated: 0, defuddleStated: 0 }]),
);
const { Defuddle } = await loadDefuddle();
const pages = readdirSync(folder, { withFileTypes: true }).filter((entry) => entry.isDirectory());
let count = 0;
for (const page of pages) {
  let html: string;
  let truth: Record<string, unknown>;
  try {
    html = readFileSync(join(folder, page.name, 'source.html'), 'utf8');
    truth = JSON.parse(readFileSync(join(folder, page.name, 'expected-metadata.json'), 'utf8'));
  } catch {
    continue;
  }
  count++;
  const ours = await readPageMetadata(html);
  const url = `http://fakehost/${page.name}/`;
  let theirs: Record<string, unknown> = {};
  try {
    const result = await Defuddle(await parseHtmlDocument(html), url, { markdown: false, useAsync: false });
    theirs = {
      author: result.author,
      published: result.published,
      siteName: result.site,
      language: (result as { language?: string }).language,
      description: result.description,
    };
  } catch {
    theirs = {};
  }
  for (const [field, truthKey] of FIELDS) {
    const tally = tallies.get(field) as Tally;
    const expected = normalize(field, truth[truthKey]);
    const mine = normalize(field, ours[field]);
    const defuddle = normalize(field, theirs[field]);
    if (expected !== undefined) tally.stated++;
    if (mine === expected) {
      tally.ours++;
      if (expected !== undefined) tally.oursStated++;
    } else if (showMisses) {
      console.log(`${page.name} ${field}: expected ${JSON.stringify(expected)}, got ${JSON.stringify(mine)}`);
    }
    if (defuddle === expected) {
      tally.defuddle++;
      if (expected !== undefined) tally.defuddleStated++;
    }
  }
}

const percent = (part: number, whole: number) =>
  whole === 0 ? 'n/a' : `${((100 * part) / whole).toFixed(1)}%`;
console.log(`${count} pages from ${folder}`);
console.log(
  'field        | this package (all) | Defuddle (all) | stated | this package (stated) | Defuddle (stated)',
);
for (const [field] of FIELDS) {
  const tally = tallies.get(field) as Tally;
  console.log(
    [
      field.padEnd(12),
      `${tally.ours}/${count} ${percent(tally.ours, count)}`.padEnd(18),
      `${tally.defuddle}/${count} ${percent(tally.defuddle, count)}`.padEnd(14),
      String(tally.stated).padEnd(6),
      `${tally.oursStated} ${percent(tally.oursStated, tally.stated)}`.padEnd(21),
      `${tally.defuddleStated} ${percent(tally.defuddleStated, tally.stated)}`,
    ].join(' | '),
  );
}
