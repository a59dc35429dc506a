import { describe, expect, it, vi } from 'vitest';
import { extract } from './extract.js';

// The DOM stages break on the page after its statement was read (a bug of a stage, a page no stage
// foresaw): the page is read as streamed text, and what the tree said of it stays.
vi.mock('./html/extract-html.js', () => ({
  extractHtml: vi.fn(async () => {
    throw new Error('a stage broke on this page');
  }),
}));

describe('DOM stages that break after the page stated its metadata', () => {
  it('keep the statement read from the tree: the visible byline and dateline too', async () => {
    // Only the visible byline names the writer, and only the line under the headline dates it.
    const body = `<!doctype html><html lang="en"><head><title>Ferry timetable changes | Kessel Courier</title></head>
<body><article><h1>Ferry timetable changes</h1><p class="byline">By Ada Brand</p><p>4 December 2025</p>
<p>The winter ferry runs every ninety minutes from Monday.</p></article></body></html>`;
    const document = await extract({ body, url: 'https://example.org/ferry' });
    expect(document.stage).toBe('streamed-text');
    expect(document.parserFailures[0]).toEqual({
      stage: 'readability',
      reason: 'failed: Error: a stage broke on this page',
    });
    expect(document).toMatchObject({ author: 'Ada Brand', published: '2025-12-04', language: 'en' });
    expect(document.title).toBe('Ferry timetable changes');
    expect(document.content).toContain('every ninety minutes');
  });
});
