// A minimal PDF written object by object. Real PDF readers locate objects through the cross-reference
// table, so its byte offsets are measured while the file is assembled rather than typed in by hand.

/** The text of the fixture PDF, one array of lines per page; the first line of a page is its heading. */
export const FIXTURE_PDF_PAGES: readonly (readonly string[])[] = [
  [
    'Harbour Night Bus Pilot: Interim Report',
    'Prepared for the transport committee, September 2024.',
    'Average ridership across the three lines reached 512 passengers per night.',
    'Line N1 carried more than half of all passengers.',
  ],
  [
    'Findings and Recommendation',
    'Most riders travel between midnight and 2 a.m. after late shifts.',
    'Line N3 through both hospitals should run every 20 minutes.',
    'The committee recommends extending the pilot by twelve months.',
  ],
];

/** The document title stored in the PDF's Info dictionary. */
export const FIXTURE_PDF_TITLE = 'Harbour Night Bus Pilot: Interim Report';

function pdfString(text: string): string {
  return `(${text.replace(/[\\()]/g, (character) => `\\${character}`)})`;
}

function pageContent(lines: readonly string[]): string {
  const [heading = '', ...body] = lines;
  const operations = [
    'BT',
    '/F1 18 Tf',
    '20 TL',
    '72 720 Td',
    `${pdfString(heading)} Tj`,
    '/F1 12 Tf',
    '16 TL',
    'T*',
  ];
  for (const line of body) operations.push('T*', `${pdfString(line)} Tj`);
  operations.push('ET');
  return `${operations.join('\n')}\n`;
}

/** Builds a valid PDF 1.4 file with one page per entry of `pages`, set in Helvetica. */
export function buildPdf(title: string, pages: readonly (readonly string[])[]): Buffer {
  const pageObjectNumbers = pages.map((_, index) => 5 + index * 2);
  const objects: string[] = [
    '<< /Type /Catalog /Pages 2 0 R >>',
    `<< /Type /Pages /Kids [${pageObjectNumbers.map((number) => `${number} 0 R`).join(' ')}] /Count ${pages.length} >>`,
    '<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica /Encoding /WinAnsiEncoding >>',
    `<< /Title ${pdfString(title)} /Producer (mono-agent fixture-web) /CreationDate (D:20240901120000Z) >>`,
  ];
  for (const [index, lines] of pages.entries()) {
    const contentNumber = pageObjectNumbers[index]! + 1;
    objects.push(
      `<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Resources << /Font << /F1 3 0 R >> >> /Contents ${contentNumber} 0 R >>`,
    );
    const content = pageContent(lines);
    objects.push(`<< /Length ${Buffer.byteLength(content, 'latin1')} >>\nstream\n${content}endstream`);
  }

  const parts: Buffer[] = [];
  let length = 0;
  const append = (part: Buffer | string) => {
    const bytes = typeof part === 'string' ? Buffer.from(part, 'latin1') : part;
    parts.push(bytes);
    length += bytes.length;
  };
  append('%PDF-1.4\n');
  // Bytes above 127 in a comment tell transfer tools the file is binary.
  append(Buffer.from([0x25, 0xe2, 0xe3, 0xcf, 0xd3, 0x0a]));
  const offsets: number[] = [];
  for (const [index, body] of objects.entries()) {
    offsets.push(length);
    append(`${index + 1} 0 obj\n${body}\nendobj\n`);
  }
  const xrefOffset = length;
  // Every entry is exactly 20 bytes, the trailing space included, as the format requires.
  const entries = offsets.map((offset) => `${String(offset).padStart(10, '0')} 00000 n \n`).join('');
  append(`xref\n0 ${objects.length + 1}\n0000000000 65535 f \n${entries}`);
  append(
    `trailer\n<< /Size ${objects.length + 1} /Root 1 0 R /Info 4 0 R >>\nstartxref\n${xrefOffset}\n%%EOF\n`,
  );
  return Buffer.concat(parts, length);
}

let builtPdf: Buffer | undefined;

/** The two-page fixture PDF, built on first use. */
export function fixturePdf(): Buffer {
  builtPdf ??= buildPdf(FIXTURE_PDF_TITLE, FIXTURE_PDF_PAGES);
  return builtPdf;
}
