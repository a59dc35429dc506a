import { WebToolError } from '@mono-agent/budget-policy';
import { describe, expect, it } from 'vitest';
import { detectKind, SNIFF_BYTES } from './decode/detect-kind.js';
import { extract } from './extract.js';
import { failureReason, MAX_FAILURE_REASON_CHARS } from './failure-reason.js';
import { MAX_XML_ENTITY_EXPANDED_CHARS } from './formats/extract-xml.js';
import {
  chooseArticle,
  DEFUDDLE_MIN_WORD_SHARE,
  isUsableArticle,
  LOADING_SHELL_MAX_WORDS,
} from './html/choose-article.js';
import { MAX_HTML_DEPTH, MAX_HTML_ELEMENTS } from './html-bounds.js';

const url = 'https://example.org/';
const wordsOf = (count: number, prefix = 'w') =>
  Array.from({ length: count }, (_, index) => `${prefix}${index}`).join(' ');
const candidate = (text: string) => ({ markdown: text, text });

describe('article choice bounds', () => {
  it(`lets Defuddle win at ${DEFUDDLE_MIN_WORD_SHARE.toFixed(3)} of Readability's words and not below`, () => {
    const readability = candidate(wordsOf(300));
    const atShare = candidate(wordsOf(300 * DEFUDDLE_MIN_WORD_SHARE));
    const belowShare = candidate(wordsOf(300 * DEFUDDLE_MIN_WORD_SHARE - 1));
    expect(chooseArticle(atShare, readability)).toBe('defuddle');
    expect(chooseArticle(belowShare, readability)).toBe('readability');
    expect(chooseArticle(candidate(wordsOf(301)), readability)).toBe('readability');
  });

  it('lets Readability win when Defuddle found a different block of similar length', () => {
    expect(chooseArticle(candidate(wordsOf(250, 'other')), candidate(wordsOf(300)))).toBe('readability');
  });

  it(`treats loading wording as a shell up to ${LOADING_SHELL_MAX_WORDS} words and as content past it`, () => {
    expect(isUsableArticle(`Loading ${wordsOf(LOADING_SHELL_MAX_WORDS - 1)}`)).toBe(false);
    expect(isUsableArticle(`Loading ${wordsOf(LOADING_SHELL_MAX_WORDS)}`)).toBe(true);
    expect(isUsableArticle('')).toBe(false);
    expect(chooseArticle(candidate('Please enable JavaScript'), candidate('Loading…'))).toBeUndefined();
  });
});

describe('sniffing bounds', () => {
  it(`recognises undeclared HTML within the first ${SNIFF_BYTES} bytes`, () => {
    const at = (padding: number) => new TextEncoder().encode(`${' '.repeat(padding)}<!doctype html><p>x</p>`);
    const fits = SNIFF_BYTES - '<!doctype html'.length;
    expect(detectKind(undefined, at(fits))).toBe('html');
    expect(detectKind(undefined, at(fits + 1))).toBe('text');
  });
});

describe('parser failure reasons', () => {
  it(`are cut to ${MAX_FAILURE_REASON_CHARS} characters`, () => {
    const fits = new Error('x'.repeat(MAX_FAILURE_REASON_CHARS - 'Error: '.length));
    expect(failureReason(fits)).toHaveLength(MAX_FAILURE_REASON_CHARS);
    expect(failureReason(new Error(`${fits.message}y`))).toHaveLength(MAX_FAILURE_REASON_CHARS);
    expect(failureReason(new Error(`${fits.message}y`)).endsWith('y')).toBe(false);
  });
});

describe('XML entity expansion', () => {
  // Each reference to a 5003-character entity adds 5000 characters (the reference itself is 3).
  const body = (references: number) =>
    `<?xml version="1.0"?><!DOCTYPE r [<!ENTITY e "${'a'.repeat(5003)}">]><r>${'&e;'.repeat(references)}</r>`;
  const fits = MAX_XML_ENTITY_EXPANDED_CHARS / 5000;

  it(`allows ${MAX_XML_ENTITY_EXPANDED_CHARS} added characters and refuses more`, async () => {
    const document = await extract({ body: body(fits), url, contentType: 'application/xml' });
    expect(document.kind).toBe('xml');
    const error = await extract({ body: body(fits + 1), url, contentType: 'application/xml' }).catch(
      (caught) => caught,
    );
    expect(WebToolError.isInstance(error, 'parse_error')).toBe(true);
  });
});

describe('feed summaries past the DOM bounds', () => {
  const feed = (summary: string) =>
    `<?xml version="1.0"?><rss version="2.0"><channel><title>F</title><item><title>Night buses</title><link>https://example.org/a</link><description><![CDATA[${summary}]]></description></item></channel></rss>`;

  it(`read a summary nested deeper than ${MAX_HTML_DEPTH} levels as streamed text, keeping its words`, async () => {
    for (const depth of [MAX_HTML_DEPTH - 2, MAX_HTML_DEPTH + 1, 50_000]) {
      const summary = `<p>The council approved ${'<x-y>'.repeat(depth)}the pilot.</p>`;
      const document = await extract({ body: feed(summary), url, contentType: 'application/rss+xml' });
      expect(document.kind, String(depth)).toBe('feed');
      expect(document.content, String(depth)).toMatch(/The council approved ?the pilot\./);
    }
  });

  it(`read a summary of more than ${MAX_HTML_ELEMENTS} elements as streamed text`, async () => {
    const summary = `<p>Before</p>${'<span>w</span>'.repeat(MAX_HTML_ELEMENTS + 1)}<p>After</p>`;
    const document = await extract({ body: feed(summary), url, contentType: 'application/rss+xml' });
    expect(document.content).toContain('Before');
    expect(document.content).toContain('After');
  });
});

describe('the streamed-text stage past the DOM bounds', () => {
  it('reads a page of 50,000 unclosed links, each in its own block, keeping words and safe links', async () => {
    // Every block flushes the line; it once walked every link still open on the page each time.
    const page = `<!doctype html><html><body><p>Start</p>${'<div><a href="/x">w'.repeat(50_000)}<p>End</p></body></html>`;
    const document = await extract({ body: page, url, contentType: 'text/html' });
    expect(document.stage).toBe('streamed-text');
    expect(document.content).toContain('Start');
    expect(document.content).toContain('End');
    expect(document.content).toContain('[w](https://example.org/x)');
  });
});
