import { describe, expect, it } from 'vitest';
import { formatTable } from './format-table.js';

describe('formatTable', () => {
  it('pads text left-aligned and numbers right-aligned under a rule', () => {
    expect(
      formatTable(
        ['case', 'ms'],
        [
          ['baseline', '12.5'],
          ['fast', '3'],
        ],
      ),
    ).toBe(['case      ms', '--------  ----', 'baseline  12.5', 'fast         3'].join('\n'));
  });
});
