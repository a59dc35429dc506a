// Pages built to hurt an extractor: nesting, width, unique names, decompression bombs inside a PDF,
// degenerate bodies and JSON that only a streaming formatter survives. Each is built from its
// parameters on first use and kept, so a benchmark can ask for the same page many times cheaply.
import { deflateBomb } from '../bombs/deflate-bomb.js';
import { buildPdf } from '../content/pdf-document.js';

/** A built hostile page. */
export interface HostilePage {
  /** The Content-Type it is served with. */
  readonly contentType: string;
  /** The body. */
  readonly body: Buffer;
}

/** The parameters a hostile page is built from (missing ones take the page's default). */
export type HostileParameters = Readonly<Record<string, number | undefined>>;

interface HostileKind {
  /** The defaults, also the parameters the page accepts. */
  readonly defaults: Readonly<Record<string, number>>;
  build(parameters: Readonly<Record<string, number>>): HostilePage;
}

const html = (body: string): HostilePage => ({ contentType: 'text/html', body: Buffer.from(body, 'utf8') });
const json = (body: string): HostilePage => ({
  contentType: 'application/json',
  body: Buffer.from(body, 'utf8'),
});

/** The hostile pages by name. */
export const HOSTILE_KINDS = {
  /** `depth` nested `<div>`s around one sentence. */
  'deep-nesting': {
    defaults: { depth: 100_000 },
    build: ({ depth = 0 }) =>
      html(`${'<div>'.repeat(depth)}The only sentence, at the bottom.${'</div>'.repeat(depth)}`),
  },
  /** `count` sibling `<span>`s after a heading. */
  siblings: {
    defaults: { count: 120_000 },
    build: ({ count = 0 }) =>
      html(`<!doctype html><html><body><h1>Siblings</h1>${'<span>word </span>'.repeat(count)}</body></html>`),
  },
  /** `count` custom elements whose names are unique to `seed`, so no two pages share a tag name. */
  'unique-tags': {
    defaults: { count: 60_000, seed: 0 },
    build: ({ count = 0, seed = 0 }) => {
      const parts = ['<!doctype html><html><body><h1>Unique tags</h1>'];
      for (let index = 0; index < count; index++)
        parts.push(`<x-s${seed}-t${index}>w</x-s${seed}-t${index}>`);
      parts.push('</body></html>');
      return html(parts.join(''));
    },
  },
  /**
   * An article whose two images carry source sets of `size` characters without a descriptor: an
   * inline image in `srcset`, and one long URL in a lazy loader's `data-srcset`.
   */
  'long-srcset': {
    defaults: { size: 150_000 },
    build: ({ size = 0 }) => {
      const base64 = 'PHN2ZyB2aWV3Qm94PSIwIDAgMTk4IDU1Ij48L3N2Zz4'
        .repeat(Math.ceil(size / 43))
        .slice(0, size);
      const paragraphs = Array.from(
        { length: 6 },
        (_, index) =>
          `<p>Paragraph ${index + 1} of the survey report explains what the respondents said about their working week, and how the answers changed from the year before.</p>`,
      ).join('');
      return html(
        `<!doctype html><html><head><title>Survey report</title></head><body><article><h1>Survey report</h1>${paragraphs}` +
          `<img alt="Chart of the answers" srcset="data:image/svg+xml;base64,${base64}">` +
          `<picture><source data-srcset="https://images.example/${'a'.repeat(size)}.jpg"><img alt="Photo of the team" src="https://images.example/team.jpg"></picture>` +
          `<p>The last paragraph closes the report.</p></article></body></html>`,
      );
    },
  },
  /** `count` `<br>`s in a row between two sentences. */
  'line-breaks': {
    defaults: { count: 27_000 },
    build: ({ count = 0 }) =>
      html(
        `<!doctype html><html><head><title>Line breaks</title></head><body><div>The sentence before the breaks.${'<br>'.repeat(count)}The sentence after the breaks.</div></body></html>`,
      ),
  },
  /** A one-page PDF whose content stream is a zlib bomb inflating to `size` bytes. */
  'pdf-flate-bomb': {
    defaults: { size: 2 ** 30 },
    build: ({ size = 0 }) => ({ contentType: 'application/pdf', body: flateBombPdf(size) }),
  },
  /** A valid PDF of `pages` short pages. */
  'pdf-many-pages': {
    defaults: { pages: 600 },
    build: ({ pages = 0 }) => ({
      contentType: 'application/pdf',
      body: buildPdf(
        'Many pages',
        Array.from({ length: pages }, (_, index) => [`This is page ${index + 1}.`]),
      ),
    }),
  },
  /** An empty body served as HTML. */
  empty: { defaults: {}, build: () => html('') },
  /** Bare words served as HTML. */
  'bare-text': { defaults: {}, build: () => html('hello') },
  /** A doctype and nothing else. */
  'doctype-only': { defaults: {}, build: () => html('<!doctype html>') },
  /** `count` opening brackets, never closed. */
  'json-open-brackets': { defaults: { count: 1_000_000 }, build: ({ count = 0 }) => json('['.repeat(count)) },
  /** `{"a":` repeated `count` times, never closed. */
  'json-open-objects': {
    defaults: { count: 500_000 },
    build: ({ count = 0 }) => json('{"a":'.repeat(count)),
  },
  /** Valid JSON nested `depth` arrays deep. */
  'json-deep': {
    defaults: { depth: 100_000 },
    build: ({ depth = 0 }) => json(`${'['.repeat(depth)}1${']'.repeat(depth)}`),
  },
  /** Numbers and keys that a parse-and-print round trip changes. */
  'json-exact': {
    defaults: {},
    build: () =>
      json(
        '{"id":12345678901234567890,"huge":1e400,"tiny":1e-400,"negativeZero":-0,"precise":0.1000000000000000055511151231257827,"dup":"first","dup":"second","escaped":"\\u00e9\\u2028"}',
      ),
  },
  /** XML nested `depth` elements deep. */
  'xml-deep': {
    defaults: { depth: 100_000 },
    build: ({ depth = 0 }) => ({
      contentType: 'application/xml',
      body: Buffer.from(`<?xml version="1.0"?>${'<a>'.repeat(depth)}x${'</a>'.repeat(depth)}`, 'utf8'),
    }),
  },
} as const satisfies Record<string, HostileKind>;

/** One of the names of {@link HOSTILE_KINDS}. */
export type HostileName = keyof typeof HOSTILE_KINDS;

const built = new Map<string, HostilePage>();
/** Built pages are kept up to this many; the oldest goes first. */
const MAX_KEPT_PAGES = 16;

/** The hostile page `name` with `parameters`, built once and kept. */
export function hostilePage(name: HostileName, parameters: HostileParameters = {}): HostilePage {
  const kind: HostileKind = HOSTILE_KINDS[name];
  const values: Record<string, number> = { ...kind.defaults };
  for (const key of Object.keys(kind.defaults)) {
    const value = parameters[key];
    if (value !== undefined) values[key] = value;
  }
  const key = `${name}?${JSON.stringify(values)}`;
  const cached = built.get(key);
  if (cached !== undefined) return cached;
  const page = kind.build(values);
  built.set(key, page);
  if (built.size > MAX_KEPT_PAGES) built.delete(built.keys().next().value as string);
  return page;
}

function flateBombPdf(size: number): Buffer {
  const bomb = deflateBomb('zlib', size);
  const stream = Buffer.concat([...bomb.chunks()]);
  // The text page gives the file a valid structure; the bomb is its content stream.
  const template = buildPdf('Flate bomb', [['Bomb']]).toString('latin1');
  const marker = template.lastIndexOf('stream\n');
  const end = template.indexOf('endstream', marker);
  const dictionaryStart = template.lastIndexOf('<<', marker);
  const before = `${template.slice(0, dictionaryStart)}<< /Length ${stream.length} /Filter /FlateDecode >>\nstream\n`;
  const after = `\n${template.slice(end)}`;
  // Offsets in the cross-reference table are not rewritten; PDF.js rebuilds a broken table.
  return Buffer.concat([Buffer.from(before, 'latin1'), stream, Buffer.from(after, 'latin1')]);
}
