import { describe, expect, it } from 'vitest';
import { markdownInGuide as markdownOf } from './__fixtures__/guide-page.js';
import { openImpliedRows } from './table-rows.js';

const row = (cells: readonly string[]) => `${cells.map((cell) => `<td>${cell}</td>`).join('')}</tr>`;

describe('openImpliedRows', () => {
  it('opens a row before each cell that no row holds, as a browser does', () => {
    expect(
      openImpliedRows('<table><tbody><td>a</td><td>b</td></tr><td>c</td><td>d</td></tr></tbody></table>'),
    ).toBe('<table><tbody><tr><td>a</td><td>b</td></tr><tr><td>c</td><td>d</td></tr></tbody></table>');
    // Straight in the table, after a header group, and a row left open before the group ends.
    expect(openImpliedRows('<table><th>h</th></tr><tbody><td>x</td></tbody><tfoot><td>f</td></table>')).toBe(
      '<table><tr><th>h</th></tr><tbody><tr><td>x</td></tbody><tfoot><tr><td>f</td></table>',
    );
  });

  it('follows a table inside a cell on its own, and leaves rows that are written, scripts and stray cells alone', () => {
    const nested =
      '<table><tr><td><table><td>inner</td></table></td><td>after</td></tr><tr><td>next</td></tr></table>';
    expect(openImpliedRows(nested)).toBe(
      '<table><tr><td><table><tr><td>inner</td></table></td><td>after</td></tr><tr><td>next</td></tr></table>',
    );
    const written =
      '<table>\n<tr><td>a</td></tr>\n<tr><td>b</td></tr></table><script>s = "<table><td>";</script><td>stray</td>';
    expect(openImpliedRows(written)).toBe(written);
  });
});

describe('extract: a table whose rows are written without <tr>', () => {
  it('reads one row of the table per </tr>, under the header row', async () => {
    const header = '<thead><tr><th>Gauge</th><th>Level</th><th>Read at</th></tr></thead>';
    const body = [
      ['North wall', '2.41 m', '06:30'],
      ['Ferry pier', '2.38 m', '06:35'],
      ['Old lock', '2.52 m', '06:40'],
    ]
      .map(row)
      .join('');
    const content = await markdownOf(`<table>${header}<tbody>${body}</tbody></table>`);
    expect(content).toContain(
      '| Gauge | Level | Read at |\n| --- | --- | --- |\n| North wall | 2.41 m | 06:30 |\n| Ferry pier | 2.38 m | 06:35 |\n| Old lock | 2.52 m | 06:40 |',
    );
  });
});

describe('extract: a table of data whose cells set a note on a line of its own', () => {
  it('is a table when a header row heads it and each such cell says little', async () => {
    const content = await markdownOf(
      '<table><tr><th>Hammock</th><th>Weight</th><th>Price</th></tr>' +
        '<tr><td>Blackbird</td><td>15.7 oz.<p>(with stuff sack and bug net)</p></td><td>$175</td></tr>' +
        '<tr><td>Tempest</td><td>1 lb. 3 oz.<p>(with stuff sack)</p></td><td>$75</td></tr></table>',
    );
    expect(content).toContain('| Blackbird | 15.7 oz. (with stuff sack and bug net) | $175 |');
    expect(content).toContain('| Tempest | 1 lb. 3 oz. (with stuff sack) | $75 |');
  });

  it("sets a short list in a cell on the cell's line, each item after a bullet", async () => {
    const content = await markdownOf(
      '<table><tr><th>Brewer</th><th>Details</th></tr>' +
        '<tr><td>Moccamaster</td><td><ul><li>Brews a full pot in six minutes.</li><li>Cone filter, glass carafe.</li></ul></td></tr>' +
        '<tr><td>Ratio Six</td><td><ul><li>Heats the water to the degree.</li><li>Basket filter, steel carafe.</li></ul></td></tr></table>',
    );
    expect(content).toContain(
      '| Moccamaster | • Brews a full pot in six minutes. • Cone filter, glass carafe. |',
    );
    expect(content).toContain(
      '| Ratio Six | • Heats the water to the degree. • Basket filter, steel carafe. |',
    );
  });

  it('is the layout of a page when its cells hold paragraphs of prose, or no header row heads it', async () => {
    const prose =
      'The harbour authority rebuilt the north wall after the storm of 2019, and the gauge on it has been read every morning since then by the crew of the pilot boat.';
    const laidOut = await markdownOf(
      `<table><tr><th>Year</th><th>Work</th></tr><tr><td>2019</td><td><p>${prose}</p></td></tr><tr><td>2020</td><td><p>Quiet.</p></td></tr></table>`,
    );
    expect(laidOut).not.toContain('| 2019 |');
    expect(laidOut).toContain(prose);
    const headless = await markdownOf(
      '<table><tr><td>Blackbird</td><td>15.7 oz.<p>(with bug net)</p></td></tr><tr><td>Tempest</td><td>1 lb.<p>(bare)</p></td></tr></table>',
    );
    expect(headless).not.toContain('| Blackbird |');
  });
});
