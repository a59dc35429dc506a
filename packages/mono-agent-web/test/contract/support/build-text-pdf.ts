// A real, minimal PDF 1.4 file with text pages set in Helvetica (WinAnsi, so the page text is
// Latin-1) and a document title stored as UTF-16BE, which carries any Unicode character. Byte
// offsets in the cross-reference table are measured while the file is assembled.

function pageString(text: string): string {
  let escaped = '';
  for (const character of text) {
    const code = character.codePointAt(0)!;
    if (code > 0xff) throw new Error(`page text must be Latin-1, got U+${code.toString(16)}`);
    if (character === '(' || character === ')' || character === '\\') escaped += `\\${character}`;
    else if (code < 0x20 || code > 0x7e) escaped += `\\${code.toString(8).padStart(3, '0')}`;
    else escaped += character;
  }
  return `(${escaped})`;
}

function utf16Hex(text: string): string {
  let hex = 'FEFF';
  for (let index = 0; index < text.length; index += 1) {
    hex += text.charCodeAt(index).toString(16).padStart(4, '0').toUpperCase();
  }
  return `<${hex}>`;
}

/** Builds a PDF whose pages hold `pages` (one line each entry) and whose Info title is `title`. */
export function buildTextPdf(title: string, pages: readonly (readonly string[])[]): Buffer {
  const pageNumbers = pages.map((_, index) => 5 + index * 2);
  const objects = [
    '<< /Type /Catalog /Pages 2 0 R >>',
    `<< /Type /Pages /Kids [${pageNumbers.map((number) => `${number} 0 R`).join(' ')}] /Count ${pages.length} >>`,
    '<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica /Encoding /WinAnsiEncoding >>',
    `<< /Title ${utf16Hex(title)} /Producer (mono-agent contract tests) >>`,
  ];
  for (const [index, lines] of pages.entries()) {
    objects.push(
      `<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Resources << /Font << /F1 3 0 R >> >> /Contents ${pageNumbers[index]! + 1} 0 R >>`,
    );
    const operations = ['BT', '/F1 11 Tf', '14 TL', '54 740 Td'];
    for (const line of lines) operations.push(`${pageString(line)} Tj`, 'T*');
    operations.push('ET');
    const content = `${operations.join('\n')}\n`;
    objects.push(`<< /Length ${Buffer.byteLength(content, 'latin1')} >>\nstream\n${content}endstream`);
  }
  const parts: Buffer[] = [];
  let length = 0;
  const append = (text: string) => {
    const bytes = Buffer.from(text, 'latin1');
    parts.push(bytes);
    length += bytes.length;
  };
  append('%PDF-1.4\n%\xe2\xe3\xcf\xd3\n');
  const offsets = objects.map((body, index) => {
    const offset = length;
    append(`${index + 1} 0 obj\n${body}\nendobj\n`);
    return offset;
  });
  const xref = length;
  append(`xref\n0 ${objects.length + 1}\n0000000000 65535 f \n`);
  for (const offset of offsets) append(`${String(offset).padStart(10, '0')} 00000 n \n`);
  append(`trailer\n<< /Size ${objects.length + 1} /Root 1 0 R /Info 4 0 R >>\nstartxref\n${xref}\n%%EOF\n`);
  return Buffer.concat(parts);
}
