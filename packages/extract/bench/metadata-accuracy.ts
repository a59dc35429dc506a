// Scores the page metadata `extract` gives (author, published, site name, language, description,
// title) against a folder of test pages whose truth records them, field by
// field, beside Defuddle's own fields for the same pages. Two layouts are read (the pages are not part of this
// repository):
// - Mozilla Readability's test pages: one folder per page with `source.html` and
//   `expected-metadata.json` (`title`, `byline`, `publishedTime`, `siteName`, `lang`, `excerpt`);
// - Defuddle's fixtures: a folder with `fixtures/<name>.html` and `expected/<name>.md`, whose JSON
//   preamble records `title`, `author`, `published` and `site` (language and description are not
//   scored).
//   These are Defuddle's own answers, so its column there agrees with itself.
// - Postlight Parser's (Mercury's) tests of its site extractors: a checkout with `fixtures/` and
//   `src/extractors/custom/<host>/index.test.js`, whose first case names a fixture and its URL and
//   asserts a `title`, an `author` and a `date_published` for some pages. Only the fields a page's test asserts
//   are scored for it, so both columns count the pages stating the field; its dates are UTC
//   instants, so a date matches when it is the same day or within 14 hours (a zone's offset) of it.
//
// Run from the repository root:
//   pnpm tsx packages/extract/bench/metadata-accuracy.ts <folder> [--misses]
//
// A field matches when both are absent, or when both are present and equal once whitespace is
// collapsed, case is ignored and a leading "By" is dropped (dates: the same calendar day, each read
// by the same date reader). `excerpt` is Readability's description or, failing one, its article's
// first paragraph, so the description column is indicative only.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import { extract } from '../src/extract.js';
import { toIsoDate } from '../src/html/metadata-dates.js';
import { type PageMetadata, readPageMetadata } from '../src/html/page-metadata.js';
import { parseHtmlDocument } from '../src/html/parse-html-document.js';
import { loadDefuddle } from '../src/lazy-modules.js';

type Field = keyof PageMetadata | 'title';
const FIELDS: readonly [Field, string][] = [
  ['title', 'title'],
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

/**
 * Whether a value matches the truth (both normalized, see {@link normalize}). Postlight's dates are
 * UTC instants of what the page wrote in its own zone, so there a date also matches within 14 hours.
 */
function same(
  field: Field,
  value: string | undefined,
  expected: string | undefined,
  rawTruth: unknown,
  raw: unknown,
): boolean {
  if (value === expected) return true;
  if (!mercuryLayout || field !== 'published' || typeof raw !== 'string' || typeof rawTruth !== 'string')
    return false;
  const instant = Date.parse(toIsoDate(raw.trim()) ?? '');
  const truthInstant = Date.parse(rawTruth);
  return (
    Number.isFinite(instant) &&
    Number.isFinite(truthInstant) &&
    Math.abs(instant - truthInstant) <= 14 * 3600e3
  );
}

interface Tally {
  /** Pages scored for the field (every page, but for the fields a Postlight test leaves unsaid). */
  pages: number;
  ours: number;
  defuddle: number;
  stated: number;
  oursStated: number;
  defuddleStated: number;
}

const tallies = new Map<Field, Tally>(
  FIELDS.map(([field]) => [
    field,
    { pages: 0, ours: 0, defuddle: 0, stated: 0, oursStated: 0, defuddleStated: 0 },
  ]),
);
const { Defuddle } = await loadDefuddle();
interface TestPage {
  name: string;
  html: string;
  url: string;
  /** The truth, in Readability's keys; a key a layout does not record is left out. */
  truth: Record<string, unknown>;
  /** Only these keys are scored for the page (every scored key when absent). */
  recorded?: ReadonlySet<string>;
}

/** Readability's layout: `<name>/source.html` and `<name>/expected-metadata.json`. */
function* readabilityPages(root: string): Generator<TestPage> {
  for (const page of readdirSync(root, { withFileTypes: true })) {
    if (!page.isDirectory()) continue;
    try {
      const html = readFileSync(join(root, page.name, 'source.html'), 'utf8');
      const truth = JSON.parse(readFileSync(join(root, page.name, 'expected-metadata.json'), 'utf8'));
      yield { name: page.name, html, url: `http://fakehost/${page.name}/`, truth };
    } catch {}
  }
}

/** Defuddle's layout: `fixtures/<name>.html` and `expected/<name>.md` with a JSON preamble. */
function* defuddlePages(root: string): Generator<TestPage> {
  for (const file of readdirSync(join(root, 'fixtures'))) {
    if (!file.endsWith('.html')) continue;
    const name = basename(file, '.html');
    const expected = join(root, 'expected', `${name}.md`);
    if (!existsSync(expected)) continue;
    const preamble = /^```json\n([\s\S]*?)\n```/.exec(readFileSync(expected, 'utf8'));
    if (preamble === null) continue;
    const html = readFileSync(join(root, 'fixtures', file), 'utf8');
    const stated = JSON.parse(preamble[1] as string) as Record<string, unknown>;
    // Defuddle's own harness takes the URL from a comment in the page, else from the file's name.
    const comment = /<!--\s*(\{"url":.*?\})\s*-->/.exec(html);
    const url =
      (comment === null ? undefined : JSON.parse(comment[1] as string).url) ??
      `https://${name.replace(/^[a-z]+--/, '')}`;
    yield {
      name,
      html,
      url,
      truth: {
        title: stated.title,
        byline: stated.author,
        publishedTime: stated.published,
        siteName: stated.site,
      },
    };
  }
}

/** A JavaScript string literal's value (quotes and escapes), or undefined for a template with `${`. */
function stringValue(literal: string): string | undefined {
  const inner = literal.slice(1, -1);
  if (literal.startsWith('`') && inner.includes('${')) return undefined;
  const escapes: Record<string, string> = { n: '\n', t: '\t', r: '\r', b: '\b', f: '\f', v: '\v', 0: '\0' };
  return inner.replace(/\\(u\{[\da-f]+\}|u[\da-f]{4}|x[\da-f]{2}|[\s\S])/gi, (_, sequence: string) => {
    if (/^[ux]/i.test(sequence) && sequence.length > 1) {
      return String.fromCodePoint(Number.parseInt(sequence.replace(/^[ux]\{?|\}$/gi, ''), 16));
    }
    return escapes[sequence] ?? sequence;
  });
}

const LITERAL = String.raw`('(?:[^'\\]|\\.)*'|"(?:[^"\\]|\\.)*"|\x60(?:[^\x60\\]|\\.)*\x60)`;

/** Postlight Parser's layout: `fixtures/` and one test file per site extractor. */
function* mercuryPages(root: string): Generator<TestPage> {
  const custom = join(root, 'src', 'extractors', 'custom');
  for (const host of readdirSync(custom).sort()) {
    const testFile = join(custom, host, 'index.test.js');
    if (!existsSync(testFile)) continue;
    const test = readFileSync(testFile, 'utf8');
    const url = new RegExp(`\\b(?:url|uri)\\s*=\\s*${LITERAL}`).exec(test)?.[1];
    const fixture = /readFileSync\(\s*'\.\/fixtures\/([^']+)'/.exec(test)?.[1];
    if (url === undefined || fixture === undefined || !existsSync(join(root, 'fixtures', fixture))) continue;
    const asserted = (name: string) => {
      const found = new RegExp(`assert\\.equal\\(\\s*${name},\\s*${LITERAL}`).exec(test)?.[1];
      return found === undefined ? undefined : stringValue(found);
    };
    const truth = {
      title: asserted('title'),
      byline: asserted('author'),
      publishedTime: asserted('date_published'),
    };
    const recorded = new Set(
      Object.keys(truth).filter((key) => truth[key as keyof typeof truth] !== undefined),
    );
    if (recorded.size === 0) continue;
    const html = readFileSync(join(root, 'fixtures', fixture), 'utf8');
    yield { name: host, html, url: stringValue(url) ?? '', truth, recorded };
  }
}

const defuddleLayout = existsSync(join(folder, 'fixtures')) && existsSync(join(folder, 'expected'));
const mercuryLayout =
  existsSync(join(folder, 'fixtures')) && existsSync(join(folder, 'src', 'extractors', 'custom'));
const scored = FIELDS.filter(([, key]) => {
  if (mercuryLayout) return ['title', 'byline', 'publishedTime'].includes(key);
  return !defuddleLayout || ['title', 'byline', 'publishedTime', 'siteName'].includes(key);
});
const pages = mercuryLayout
  ? mercuryPages(folder)
  : defuddleLayout
    ? defuddlePages(folder)
    : readabilityPages(folder);
let count = 0;
for (const { name, html, url, truth, recorded } of pages) {
  count++;
  // The fields as `extract` answers them (what WebFetch shows): the page's statement, and the date its
  // address files it under when the markup states none.
  let ours: Partial<Record<Field, string>>;
  try {
    const { title, author, published, siteName, language, description } = await extract({
      body: html,
      url,
      contentType: 'text/html',
      format: 'markdown',
    });
    ours = { title, author, published, siteName, language, description };
  } catch {
    ours = { ...(await readPageMetadata(html)) };
  }
  let theirs: Record<string, unknown> = {};
  try {
    const result = await Defuddle(await parseHtmlDocument(html), url, {
      markdown: false,
      useAsync: false,
      // No page is fetched: Defuddle's extractors for some sites would otherwise ask the network.
      fetch: (() => Promise.reject(new Error('offline'))) as unknown as typeof fetch,
    });
    theirs = {
      title: result.title,
      author: result.author,
      published: result.published,
      siteName: result.site,
      language: (result as { language?: string }).language,
      description: result.description,
    };
  } catch {
    theirs = {};
  }
  for (const [field, truthKey] of scored) {
    if (recorded !== undefined && !recorded.has(truthKey)) continue;
    const tally = tallies.get(field) as Tally;
    tally.pages++;
    const expected = normalize(field, truth[truthKey]);
    const mine = normalize(field, ours[field]);
    const defuddle = normalize(field, theirs[field]);
    if (expected !== undefined) tally.stated++;
    if (same(field, mine, expected, truth[truthKey], ours[field])) {
      tally.ours++;
      if (expected !== undefined) tally.oursStated++;
    }
    const defuddleSame = same(field, defuddle, expected, truth[truthKey], theirs[field]);
    if (defuddleSame) {
      tally.defuddle++;
      if (expected !== undefined) tally.defuddleStated++;
    }
    if (showMisses && !same(field, mine, expected, truth[truthKey], ours[field])) {
      const beside = defuddleSame ? ' (Defuddle: the same as expected)' : '';
      console.log(
        `${name} ${field}: expected ${JSON.stringify(expected)}, got ${JSON.stringify(mine)}${beside}`,
      );
    }
  }
}

const percent = (part: number, whole: number) =>
  whole === 0 ? 'n/a' : `${((100 * part) / whole).toFixed(1)}%`;
console.log(`${count} pages from ${folder}`);
console.log(
  'field        | this package (all) | Defuddle (all) | stated | this package (stated) | Defuddle (stated)',
);
for (const [field] of scored) {
  const tally = tallies.get(field) as Tally;
  console.log(
    [
      field.padEnd(12),
      `${tally.ours}/${tally.pages} ${percent(tally.ours, tally.pages)}`.padEnd(18),
      `${tally.defuddle}/${tally.pages} ${percent(tally.defuddle, tally.pages)}`.padEnd(14),
      String(tally.stated).padEnd(6),
      `${tally.oursStated} ${percent(tally.oursStated, tally.stated)}`.padEnd(21),
      `${tally.defuddleStated} ${percent(tally.defuddleStated, tally.stated)}`,
    ].join(' | '),
  );
}
