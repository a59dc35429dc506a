import { describe, expect, it } from 'vitest';
import { markdownInGuide as markdownOf } from './__fixtures__/guide-page.js';
import { htmlToMarkdown } from './html-to-markdown.js';

const base = 'https://example.org/';

describe('htmlToMarkdown: runs of emphasis', () => {
  it('writes bold inside bold, and one word in two bold elements side by side, with one pair of marks', async () => {
    expect(await htmlToMarkdown('<p><b><strong>Platform</strong></b> costs</p>', base)).toBe(
      '**Platform** costs',
    );
    expect(await htmlToMarkdown('<p><b>B</b><b>reakfast:</b> oats</p>', base)).toBe('**Breakfast:** oats');
    expect(await htmlToMarkdown('<p><strong>Bold <b>inner</b> tail</strong></p>', base)).toBe(
      '**Bold inner tail**',
    );
    expect(await htmlToMarkdown('<p><em>wide</em><i>spread</i></p>', base)).toBe('*widespread*');
  });

  it('leaves emphasis apart when anything stands between, and other kinds as they are', async () => {
    expect(await htmlToMarkdown('<p><strong>one</strong> <strong>two</strong></p>', base)).toBe(
      '**one** **two**',
    );
    expect(await htmlToMarkdown('<p><strong>bold</strong><em>italic</em></p>', base)).toBe(
      '**bold***italic*',
    );
  });
});

describe('extract: a page that sets bold inside bold', () => {
  it('writes no run of four marks', async () => {
    const content = await markdownOf(
      '<ul><li><strong>B</strong><strong>reakfast:</strong> oats with milk, every day of the crossing.</li><li><strong>Appetizers </strong><strong>only:</strong> six to twelve pieces a guest.</li><li><b><strong>Lunch:</strong></b> bread and soup on deck.</li></ul>',
    );
    expect(content).toContain('- **Breakfast:** oats with milk');
    expect(content).toContain('- **Appetizers only:** six to twelve');
    expect(content).toContain('- **Lunch:** bread and soup');
    expect(content).not.toContain('****');
  });
});
