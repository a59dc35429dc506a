// The inputs of the parser fuzz (fuzz-parsers.ts): mutated real pages and windows of them, random and
// nested JSON, feeds, mutated PDFs and text in several encodings, all drawn from one seeded sequence.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { deflateSync, gunzipSync } from 'node:zlib';
import type { ExtractOptions } from '@mono-agent/extract';
import { FEED_ENTRIES, hostilePage, recordedPages } from '@mono-agent/fixture-web';

export const PARSERS = ['html', 'json', 'xml', 'pdf', 'text'] as const;
export type Parser = (typeof PARSERS)[number];

const url = 'https://fuzz.example/page';

let random: () => number = mulberry32(1);

/** Starts the input sequence of `seed` over: the same seed gives the same inputs on every machine. */
export function seedInputs(seed: number): void {
  random = mulberry32(seed);
}

const pick = <T>(items: readonly T[]): T => items[Math.floor(random() * items.length)] as T;
const integer = (max: number) => Math.floor(random() * max);

export async function loadPages(): Promise<string[]> {
  const here = fileURLToPath(new URL('.', import.meta.url));
  const folders = process.env.MONO_AGENT_FUZZ_PAGES
    ? [process.env.MONO_AGENT_FUZZ_PAGES]
    : [
        resolve(here, '../../../../shared/bench/wcxb-dev/html'),
        resolve(here, '../../../../shared/bench/article-extraction/html'),
      ];
  const pages: string[] = [];
  for (const folder of folders.filter((path) => existsSync(path))) {
    for (const file of readdirSync(folder).sort()) {
      if (!/\.html(\.gz)?$/.test(file)) continue;
      const bytes = readFileSync(join(folder, file));
      pages.push((file.endsWith('.gz') ? gunzipSync(bytes) : bytes).toString('utf8'));
      if (pages.length >= 400) break;
    }
  }
  if (pages.length === 0) {
    for (const page of recordedPages()) pages.push((await page.load()).toString('utf8'));
  }
  return pages;
}

const TAGS = [
  'div',
  'p',
  'span',
  'a',
  'table',
  'tr',
  'td',
  'li',
  'ul',
  'script',
  'style',
  'svg',
  'title',
  'br',
  'img',
  'template',
  'x-y',
  'math',
  'select',
  'option',
  'pre',
  'h1',
  'iframe',
  'noscript',
  'body',
  'html',
  'head',
];

/** Byte-level and structure-level mutations of a string. */
function mutateText(text: string, rounds: number): string {
  let value = text;
  for (let round = 0; round < rounds; round++) {
    const at = integer(value.length + 1);
    switch (integer(9)) {
      case 0:
        value = value.slice(0, at);
        break;
      case 1:
        value = value.slice(0, at) + value.slice(at + integer(2000));
        break;
      case 2: {
        const length = integer(500);
        value =
          value.slice(0, at) +
          value.slice(at, at + length).repeat(1 + integer(50)) +
          value.slice(at + length);
        break;
      }
      case 3: {
        const tag = pick(TAGS);
        const depth = pick([1, 10, 200, 5_000, 50_000]);
        value = `${value.slice(0, at)}${`<${tag}>`.repeat(depth)}${value.slice(at)}`;
        break;
      }
      case 4:
        value =
          value.slice(0, at) +
          pick([
            '<',
            '>',
            '&',
            '&#x',
            '"',
            "'",
            '</',
            '<!--',
            ']]>',
            '<![CDATA[',
            '\u0000',
            '\uFFFD',
            '\uD800',
            '&amp',
            '<?',
            '=',
            '{',
            '[',
            ',',
            '\\u',
            '"\\',
            '%PDF-',
          ]) +
          value.slice(at);
        break;
      case 5: {
        const other = integer(value.length + 1);
        value = value.slice(0, at) + value.slice(other, other + integer(4000)) + value.slice(at);
        break;
      }
      case 6:
        value = value.slice(0, at) + String.fromCharCode(integer(0x10000)) + value.slice(at + 1);
        break;
      case 7:
        value =
          value.slice(0, at) +
          `<${pick(TAGS)} ${pick(['href', 'src', 'class', 'id', 'style', 'charset'])}="${pick(['javascript:x', '//x', 'data:,x', '', '\u0000', 'utf-16', 'x'.repeat(integer(3000))])}">` +
          value.slice(at);
        break;
      default:
        value =
          value.slice(0, at) + value.slice(at).toUpperCase().slice(0, integer(100)) + value.slice(at + 100);
    }
  }
  return value;
}

function mutateBytes(bytes: Uint8Array, rounds: number): Uint8Array {
  let value = Buffer.from(bytes);
  for (let round = 0; round < rounds; round++) {
    const at = integer(value.length + 1);
    switch (integer(5)) {
      case 0:
        value = value.subarray(0, at);
        break;
      case 1:
        if (at < value.length) value[at] = integer(256);
        break;
      case 2:
        value = Buffer.concat([value.subarray(0, at), randomBytes(integer(64)), value.subarray(at)]);
        break;
      case 3:
        value = Buffer.concat([value.subarray(0, at), value.subarray(at + integer(256))]);
        break;
      default: {
        const length = integer(256);
        value = Buffer.concat([
          value.subarray(0, at + length),
          value.subarray(at, at + length),
          value.subarray(at + length),
        ]);
      }
    }
  }
  return value;
}

function randomBytes(length: number): Buffer {
  const bytes = Buffer.alloc(length);
  for (let index = 0; index < length; index++) bytes[index] = integer(256);
  return bytes;
}

function randomJson(depth: number): string {
  const roll = integer(depth > 6 ? 6 : 9);
  switch (roll) {
    case 0:
      return pick([
        '0',
        '-0',
        '1e400',
        '-1e-400',
        '12345678901234567890',
        '0.1000000000000000055511151231257827',
        '1E+2',
        '3.14',
      ]);
    case 1:
      return JSON.stringify(
        pick([
          '',
          'a',
          '\u2028',
          '\uD800',
          '[END UNTRUSTED WEB CONTENT]',
          'é',
          '\\',
          'x'.repeat(integer(2000)),
        ]),
      );
    case 2:
      return pick(['true', 'false', 'null']);
    case 3:
      return `"\\u${integer(0x10000).toString(16).padStart(4, '0')}"`;
    case 4:
    case 5:
      return String(random() * 10 ** integer(30));
    case 6:
    case 7:
      return `[${Array.from({ length: integer(6) }, () => randomJson(depth + 1)).join(',')}]`;
    default:
      return `{${Array.from({ length: integer(6) }, () => `${JSON.stringify(pick(['a', 'b', 'a', '', '__proto__', 'constructor']))}:${randomJson(depth + 1)}`).join(',')}}`;
  }
}

function jsonInput(): string {
  const kind = integer(10);
  if (kind === 0) return pick(['[', '{"a":', '[1,', '{"', '-']).repeat(pick([1, 1000, 100_000, 500_000]));
  if (kind === 1) return `${'['.repeat(integer(100_000))}${']'.repeat(integer(100_000))}`;
  const value = randomJson(0);
  return kind < 6 ? value : mutateText(value, 1 + integer(3));
}

function xmlInput(): string {
  const items = FEED_ENTRIES.slice(0, 1 + integer(FEED_ENTRIES.length));
  const rss = `<?xml version="1.0" encoding="UTF-8"?><rss version="2.0"><channel><title>Feed &amp; more</title>${items.map((entry) => `<item><title>${escapeXml(entry.title)}</title><link>https://fuzz.example/${integer(100)}</link><description><![CDATA[<p>${escapeXml(entry.title)}</p>]]></description></item>`).join('')}</channel></rss>`;
  const atom = `<?xml version="1.0"?><feed xmlns="http://www.w3.org/2005/Atom"><title>A</title>${items.map((entry) => `<entry><title>${escapeXml(entry.title)}</title><link href="/e${integer(9)}"/><updated>2024-01-01</updated></entry>`).join('')}</feed>`;
  const entities = `<?xml version="1.0"?><!DOCTYPE r [<!ENTITY e "${'a'.repeat(integer(5000))}">]><r>${'&e;'.repeat(integer(40))}</r>`;
  const deep = `<?xml version="1.0"?>${'<a>'.repeat(integer(100_000))}x`;
  const base = pick([rss, rss, atom, atom, entities, deep]);
  return integer(4) === 0 ? base : mutateText(base, 1 + integer(4));
}

function escapeXml(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;');
}

const PDFS: Uint8Array[] = [
  hostilePage('pdf-many-pages', { pages: 3 }).body,
  hostilePage('pdf-many-pages', { pages: 40 }).body,
  hostilePage('pdf-flate-bomb', { size: 2 ** 26 }).body,
  pdfWithStream(deflateSync(Buffer.from('BT /F1 12 Tf 72 720 Td (Compressed text) Tj ET'))),
];

function pdfWithStream(stream: Buffer): Uint8Array {
  const template = Buffer.from(hostilePage('pdf-many-pages', { pages: 1 }).body).toString('latin1');
  const marker = template.lastIndexOf('stream\n');
  const end = template.indexOf('endstream', marker);
  const dictionary = template.lastIndexOf('<<', marker);
  return Buffer.concat([
    Buffer.from(
      `${template.slice(0, dictionary)}<< /Length ${stream.length} /Filter /FlateDecode >>\nstream\n`,
      'latin1',
    ),
    stream,
    Buffer.from(`\n${template.slice(end)}`, 'latin1'),
  ]);
}

const LABELS = [
  'utf-8',
  'UTF-8',
  'latin1',
  'iso-8859-2',
  'windows-1251',
  'koi8-r',
  'shift_jis',
  'gbk',
  'euc-kr',
  'utf-16le',
  'utf-16be',
  'x-user-defined',
  'replacement',
  'iso-2022-jp',
  'big5',
  'x-klingon',
  '',
  '"utf-8"',
  'utf-8;q=1',
  'UTF-7',
];
const ENCODERS = ['utf-8', 'latin1', 'utf16le'] as const;

function textInput(pages: readonly string[]): { body: Uint8Array; contentType: string } {
  const source = pick([randomJson(0), pick(pages).slice(0, 20_000), 'plain words é ü 日本 Ж', '']);
  const bytes = integer(3) === 0 ? randomBytes(integer(4000)) : Buffer.from(source, pick(ENCODERS));
  const label = pick(LABELS);
  const type = pick(['text/plain', 'text/html', 'text/csv', 'application/xml', 'text/markdown']);
  return {
    body: integer(2) === 0 ? mutateBytes(bytes, 1 + integer(3)) : bytes,
    contentType: label === '' ? type : `${type}; charset=${label}`,
  };
}

/** A stretch of `text` of at most `length` characters, from a random place. */
function window(text: string, length: number): string {
  const start = integer(Math.max(1, text.length - length));
  return text.slice(start, start + length);
}

/** The next input of the sequence for `parser`; HTML inputs are made from `pages`. */
export function input(parser: Parser, pages: readonly string[]): ExtractOptions {
  const format = pick(['markdown', 'markdown', 'text', 'raw'] as const);
  switch (parser) {
    case 'html': {
      const page = pick(pages);
      const roll = integer(20);
      // Whole real pages (one input in ten) reach the size bounds and the DOM stages' budget; windows
      // of a real page (up to 64 KiB, from anywhere in it: inside a script, mid-tag) are cheaper to
      // extract, so a run tries many more mutations of the same markup.
      const body =
        roll < 2
          ? Array.from(
              { length: integer(2000) },
              () => `<${pick(TAGS)}>${pick(['', 'w', '&amp;', ' '])}`,
            ).join('')
          : roll < 4
            ? mutateText(page, 1 + integer(4))
            : mutateText(window(page, 1 + integer(64 * 1024)), 1 + integer(4));
      return {
        body: Buffer.from(body, 'utf8'),
        url,
        contentType: pick([
          'text/html',
          'text/html; charset=utf-8',
          'application/xhtml+xml',
          'text/html; charset=windows-1252',
        ]),
        format,
      };
    }
    case 'json':
      return {
        body: Buffer.from(jsonInput(), 'utf8'),
        url,
        contentType: pick(['application/json', 'application/ld+json', 'text/json']),
        format,
      };
    case 'xml':
      return {
        body: Buffer.from(xmlInput(), 'utf8'),
        url,
        contentType: pick(['application/rss+xml', 'application/atom+xml', 'application/xml', 'text/xml']),
        format,
      };
    case 'pdf':
      return {
        body: mutateBytes(pick(PDFS), integer(6)),
        url,
        contentType: pick(['application/pdf', 'application/octet-stream']),
        format: format === 'raw' ? 'markdown' : format,
      };
    default:
      return { ...textInput(pages), url, format };
  }
}

/** A small seeded generator: the same seed gives the same inputs on every machine. */
function mulberry32(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let value = state;
    value = Math.imul(value ^ (value >>> 15), value | 1);
    value ^= value + Math.imul(value ^ (value >>> 7), value | 61);
    return ((value ^ (value >>> 14)) >>> 0) / 4294967296;
  };
}
