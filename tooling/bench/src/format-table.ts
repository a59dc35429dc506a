/** Renders rows as a plain-text table with a header rule; numbers are right-aligned. */
export function formatTable(header: readonly string[], rows: readonly (readonly string[])[]): string {
  const widths = header.map((title, column) =>
    Math.max(title.length, ...rows.map((row) => (row[column] ?? '').length)),
  );
  const isNumeric = (text: string) => /^-?[\d.,]+%?$/.test(text);
  const render = (cells: readonly string[]) =>
    cells
      .map((cell, column) =>
        isNumeric(cell) ? cell.padStart(widths[column]!) : cell.padEnd(widths[column]!),
      )
      .join('  ')
      .trimEnd();
  const rule = widths.map((width) => '-'.repeat(width)).join('  ');
  return [render(header), rule, ...rows.map(render)].join('\n');
}
