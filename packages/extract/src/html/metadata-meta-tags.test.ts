import { describe, expect, it } from 'vitest';
import { readPageMetadata } from './page-metadata.js';

const page = (head: string, body = '<p>Text.</p>') =>
  `<!doctype html><html><head><title>T</title>${head}</head><body>${body}</body></html>`;

describe("readPageMetadata: the page's <meta> tags before an item's <meta itemprop>", () => {
  it("reads the page's description, not a shortened copy an item states before it", async () => {
    const summary =
      'Four weeks before the conference, a look at its speakers, its sessions and its new venue.';
    const html = page(
      `<meta itemprop="description" content="${summary.slice(0, 40)}"><meta name="description" content="${summary}">`,
    );
    expect((await readPageMetadata(html)).description).toBe(summary);
  });

  it("reads the page's author, not the writer of an item it lists", async () => {
    const html = page(
      '<meta name="author" content="Dana Whitlock">',
      '<div itemscope itemtype="https://schema.org/Book"><meta itemprop="author" content="Jane Austen"><p>Emma.</p></div>',
    );
    // The item's <meta> comes first in the markup that is read, yet the page's own tag names the page.
    const first = page(
      '<meta itemprop="author" content="Jane Austen"><meta name="author" content="Dana Whitlock">',
    );
    expect((await readPageMetadata(html)).author).toBe('Dana Whitlock');
    expect((await readPageMetadata(first)).author).toBe('Dana Whitlock');
  });

  it('still reads a <meta itemprop> when no other tag states the field', async () => {
    const html = page('<meta itemprop="description" content="What the item says of the page.">');
    expect((await readPageMetadata(html)).description).toBe('What the item says of the page.');
  });
});

describe('readPageMetadata: a writer tag holding a part of an address', () => {
  it("passes over a tag whose value is the writer's page's key (failing before: the author was 'sophie-foster')", async () => {
    const html = page(
      '<meta name="parsely-author" content="sophie-foster"><meta name="author" content="Sophie Foster">',
    );
    expect((await readPageMetadata(html)).author).toBe('Sophie Foster');
    for (const slug of ['emma_mackenzie', 'j.smith', 'staff-writer-2']) {
      const keyed = page(
        `<meta name="parsely-author" content="${slug}"><meta name="author" content="Emma Mackenzie">`,
      );
      expect((await readPageMetadata(keyed)).author).toBe('Emma Mackenzie');
    }
  });

  it('keeps a name in capitals, with spaces, or of one word', async () => {
    for (const name of ['Jean-Luc Martin', 'AFP', 'dpa', 'Anne-Marie', 'ssi']) {
      const html = page(
        `<meta name="parsely-author" content="${name}"><meta name="author" content="Someone Else">`,
      );
      expect((await readPageMetadata(html)).author).toBe(name);
    }
  });
});
