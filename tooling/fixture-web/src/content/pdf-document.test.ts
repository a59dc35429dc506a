import { describe, expect, it } from 'vitest';
import { buildPdf, FIXTURE_PDF_PAGES, FIXTURE_PDF_TITLE, fixturePdf } from './pdf-document.js';

/** Reads the cross-reference table the way a PDF reader starts: from `startxref` at the end. */
function readXref(pdf: string): { offsets: number[]; size: number } {
  const startxref = /startxref\n(\d+)\n%%EOF\n$/.exec(pdf);
  if (!startxref) throw new Error('no startxref at the end');
  const xrefAt = Number(startxref[1]);
  expect(pdf.slice(xrefAt, xrefAt + 5)).toBe('xref\n');
  const header = /^xref\n0 (\d+)\n/.exec(pdf.slice(xrefAt));
  if (!header) throw new Error('bad xref header');
  const count = Number(header[1]);
  const entriesAt = xrefAt + header[0].length;
  const offsets: number[] = [];
  for (let index = 0; index < count; index += 1) {
    const entry = pdf.slice(entriesAt + index * 20, entriesAt + (index + 1) * 20);
    expect(entry).toMatch(/^\d{10} \d{5} [nf] \n$/);
    if (index > 0) offsets.push(Number(entry.slice(0, 10)));
  }
  const trailer = /trailer\n<< \/Size (\d+)/.exec(pdf.slice(entriesAt + count * 20));
  return { offsets, size: Number(trailer?.[1]) };
}

describe('fixturePdf', () => {
  const pdf = fixturePdf().toString('latin1');

  it('starts with a PDF header and a binary comment and ends with %%EOF', () => {
    expect(pdf.startsWith('%PDF-1.4\n%')).toBe(true);
    expect(pdf.charCodeAt(10)).toBeGreaterThan(127);
    expect(pdf.endsWith('%%EOF\n')).toBe(true);
  });

  it('has an xref entry pointing at the start of every object', () => {
    const { offsets, size } = readXref(pdf);
    expect(size).toBe(offsets.length + 1);
    for (const [index, offset] of offsets.entries()) {
      expect(pdf.slice(offset, offset + 20)).toMatch(new RegExp(`^${index + 1} 0 obj\\n`));
    }
  });

  it('declares stream lengths that match the streams', () => {
    const streams = [...pdf.matchAll(/<< \/Length (\d+) >>\nstream\n([\s\S]*?)endstream/g)];
    expect(streams).toHaveLength(2);
    for (const [, length, content] of streams) expect(content?.length).toBe(Number(length));
  });

  it('has two pages carrying the expected text', () => {
    expect(pdf).toMatch(/\/Type \/Pages \/Kids \[5 0 R 7 0 R\] \/Count 2/);
    expect(pdf.match(/\/Type \/Page /g)).toHaveLength(2);
    const pageTexts = [...pdf.matchAll(/stream\n([\s\S]*?)endstream/g)].map(([, content]) =>
      [...(content ?? '').matchAll(/\((.*)\) Tj/g)].map(([, text]) => text),
    );
    expect(pageTexts).toEqual(FIXTURE_PDF_PAGES);
    expect(pdf).toContain(`/Title (${FIXTURE_PDF_TITLE})`);
  });

  it('escapes parentheses and backslashes in text', () => {
    const escaped = buildPdf('t', [['a (b) \\ c']]).toString('latin1');
    expect(escaped).toContain('(a \\(b\\) \\\\ c) Tj');
    const { offsets } = readXref(escaped);
    for (const [index, offset] of offsets.entries())
      expect(escaped.startsWith(`${index + 1} 0 obj`, offset)).toBe(true);
  });
});
