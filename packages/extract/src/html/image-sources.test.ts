import { hostilePage } from '@mono-agent/fixture-web';
import { afterAll, describe, expect, it } from 'vitest';
import { createExtractionPool } from '../pool/extraction-pool.js';
import {
  MAX_SRCSET_CANDIDATES,
  MAX_SRCSET_URL_CHARS,
  normalizeImageSources,
  normalizeSrcset,
} from './image-sources.js';
import { parseHtmlDocument } from './parse-html-document.js';

describe('normalizeSrcset', () => {
  it('keeps candidates and their width or density descriptors, one per candidate', () => {
    expect(normalizeSrcset('a.jpg 480w, b.jpg 800w')).toBe('a.jpg 480w, b.jpg 800w');
    expect(normalizeSrcset('  a.jpg   1.5x ,b.jpg 2x  ')).toBe('a.jpg 1.5x, b.jpg 2x');
    expect(normalizeSrcset('a.jpg 100w 2x')).toBe('a.jpg 100w');
  });

  it('gives a candidate without a usable descriptor 1x, as the HTML standard reads it', () => {
    expect(normalizeSrcset('a.jpg')).toBe('a.jpg 1x');
    expect(normalizeSrcset('a.jpg, b.jpg 2x')).toBe('a.jpg 1x, b.jpg 2x');
    expect(normalizeSrcset('a.jpg 300h, b.jpg')).toBe('a.jpg 1x, b.jpg 1x');
  });

  it('splits as the standard does: commas inside a URL stay, trailing ones end it, parentheses hold', () => {
    expect(normalizeSrcset('https://cdn.example/w_200,h_100/a.jpg 200w')).toBe(
      'https://cdn.example/w_200,h_100/a.jpg 200w',
    );
    expect(normalizeSrcset('a.jpg,, b.jpg 2x,')).toBe('a.jpg 1x, b.jpg 2x');
    expect(normalizeSrcset('a.jpg 2x (x, y), b.jpg 3x')).toBe('a.jpg 2x, b.jpg 3x');
  });

  it('keeps short inline images, and gives undefined when nothing is left', () => {
    expect(normalizeSrcset('data:image/svg+xml;base64,PHN2Zz4=, a.jpg 2x')).toBe(
      'data:image/svg+xml;base64,PHN2Zz4= 1x, a.jpg 2x',
    );
    expect(normalizeSrcset('data:image/svg+xml;utf8,')).toBe('data:image/svg+xml;utf8 1x');
    expect(normalizeSrcset('  , ,')).toBeUndefined();
    expect(normalizeSrcset('')).toBeUndefined();
  });

  it(`keeps a URL of ${MAX_SRCSET_URL_CHARS} characters, leaves out one longer and cuts a longer inline image to its header`, () => {
    const url = (length: number) => `https://i.example/${'a'.repeat(length - 'https://i.example/'.length)}`;
    expect(normalizeSrcset(`${url(MAX_SRCSET_URL_CHARS)} 2x`)).toBe(`${url(MAX_SRCSET_URL_CHARS)} 2x`);
    expect(normalizeSrcset(`${url(MAX_SRCSET_URL_CHARS + 1)} 2x, b.jpg 1x`)).toBe('b.jpg 1x');
    expect(normalizeSrcset(url(MAX_SRCSET_URL_CHARS + 1))).toBeUndefined();
    const inline = (length: number) =>
      `data:image/png;base64,${'A'.repeat(length - 'data:image/png;base64,'.length)}`;
    expect(normalizeSrcset(`${inline(MAX_SRCSET_URL_CHARS)} 2x`)).toBe(`${inline(MAX_SRCSET_URL_CHARS)} 2x`);
    expect(normalizeSrcset(`${inline(MAX_SRCSET_URL_CHARS + 1)} 2x`)).toBe('data:image/png;base64 2x');
    expect(normalizeSrcset(`DATA:${'A'.repeat(MAX_SRCSET_URL_CHARS)}`)).toBe('data: 1x');
  });

  it(`keeps ${MAX_SRCSET_CANDIDATES} candidates and drops the ones after`, () => {
    const set = (count: number) => Array.from({ length: count }, (_, index) => `i${index}.jpg ${index + 1}w`);
    expect(normalizeSrcset(set(MAX_SRCSET_CANDIDATES).join(', '))).toBe(
      set(MAX_SRCSET_CANDIDATES).join(', '),
    );
    expect(normalizeSrcset(set(MAX_SRCSET_CANDIDATES + 5).join(', '))).toBe(
      set(MAX_SRCSET_CANDIDATES).join(', '),
    );
  });
});

describe('normalizeImageSources', () => {
  it('rewrites srcset and lazy loaders’ copies of it on images, and leaves src, alt and other attributes', async () => {
    const document = await parseHtmlDocument(
      '<body><img src="data:image/gif;base64,R0lGOD" alt="A photo, 2x" srcset="data:image/svg+xml;base64,PHN2Zz4=" ' +
        'data-srcset="a.jpg, b.jpg 2x" nitro-lazy-srcset="c.jpg" data-lazy="d.jpg 1x,e.jpg 2x" class="wide 2x">' +
        '<picture><source srcset="f.webp 1x,  g.webp 2x"></picture><div srcset="h.jpg"></div>' +
        `<img srcset="https://i.example/${'a'.repeat(MAX_SRCSET_URL_CHARS)}"></body>`,
    );
    normalizeImageSources(document);
    const image = document.querySelector('img') as Element;
    expect(image.getAttribute('srcset')).toBe('data:image/svg+xml;base64,PHN2Zz4= 1x');
    expect(image.getAttribute('src')).toBe('data:image/gif;base64,R0lGOD');
    expect(image.getAttribute('alt')).toBe('A photo, 2x');
    expect(image.getAttribute('data-srcset')).toBe('a.jpg 1x, b.jpg 2x');
    expect(image.getAttribute('nitro-lazy-srcset')).toBe('c.jpg 1x');
    expect(image.getAttribute('data-lazy')).toBe('d.jpg 1x, e.jpg 2x');
    expect(image.getAttribute('class')).toBe('wide 2x');
    expect(document.querySelector('source')?.getAttribute('srcset')).toBe('f.webp 1x, g.webp 2x');
    expect(document.querySelector('div')?.getAttribute('srcset')).toBe('h.jpg 1x');
    expect(document.querySelectorAll('img')[1]?.hasAttribute('srcset')).toBe(false);
  });
});

// Worker start-up on a busy machine can take many seconds; what is tested is the stage, not a time.
describe('the extraction pool: image source sets cannot stall the extractors', { timeout: 90_000 }, () => {
  const pool = createExtractionPool();
  afterAll(() => pool.close());

  it('reads an article whose images carry 150,000-character source sets with the DOM stages', async () => {
    // Without the rewrite, Defuddle's source-set patterns spend minutes on this page, so the DOM
    // stages run out of their time budget and the streamed stage reads it instead.
    const page = hostilePage('long-srcset', { size: 150_000 });
    const document = await pool.extract({
      body: page.body,
      contentType: page.contentType,
      url: 'https://report.example/',
    });
    expect(document.stage).toBe('defuddle');
    expect(document.parserFailures).toEqual([]);
    expect(document.content).toContain('The last paragraph closes the report.');
    expect(document.content).not.toContain('aaaaaaaa');
  });
});
