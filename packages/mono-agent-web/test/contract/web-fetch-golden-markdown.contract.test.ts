import { describe, it } from 'vitest';
import { useGoldenPages } from './support/golden-pages.js';

// Contract (WebFetch), step 5 of static extraction: HTML becomes "Article-shaped Markdown". Each
// page here is one of extract's golden pages, fetched from the fixture web through the runtime and
// the built CLI, for the Markdown a kind of markup is written as: emphasis, tables, headings, code,
// words in elements side by side.

const { expectContents } = useGoldenPages('web-fetch-golden-markdown');

describe('5. HTML: emphasis as one run', () => {
  it('writes bold inside bold, and one word in two bold elements, with one pair of marks (runtime and built CLI)', async () => {
    // Before: "**B** **reakfast:**" (the word split in two) and "****Dinner:****".
    await expectContents(
      '/pages/emphasis-runs',
      ['- **Breakfast:** plan on', '- **Appetizers only:** six to twelve', '- **Dinner:** a five-ounce'],
      ['****', '**B** **reakfast'],
    );
  });
});

describe('5. HTML: tables of data', () => {
  it('reads a table whose rows are written without <tr>, and one whose cells hold paragraphs, as tables (runtime and built CLI)', async () => {
    // Before: the first table was one row of every cell, the second one cell per paragraph.
    await expectContents(
      '/pages/comparison-tables',
      [
        '| Stillwell Pro | $1,240 | 4.8 | Monthly flush (intake pipe only) |\n| Float Mark II | $860 | 4.3 | Wire check each spring |',
        '| `taken_at` | When the gauge read the level, in UTC. |',
      ],
      ['\nWhat it tells you\n'],
    );
  });
});

describe('5. HTML: headings keep their words', () => {
  it("keeps each method's name that an API reference links to its own entry, and writes a heading broken over two lines as one line (runtime and built CLI)", async () => {
    // Read as permalinks, the names went with their links: "pub fn (station: &str, …)".
    await expectContents(
      '/pages/api-reference',
      [
        '#### pub fn new(station: &str, datum: Datum) -> Self',
        '#### pub fn level\\_at\\<T>(&self, time: T) -> Option\\<f64> where T: Into\\<Timestamp>,',
        '#### pub const fn rising(&self) -> bool',
        '## Examples reading a station\n',
        '## See also\n',
      ],
      ['pub fn (', 'pub const fn (', 'Examplesreading', '#see-also', '¶', 'Copy item path'],
    );
  });
});

describe('5. HTML: code drawn one element per line', () => {
  it('keeps each line of a sample whole and on a line of its own, however the highlighter draws and names it (runtime and built CLI)', async () => {
    // Before: the response's lines ran together ('{  "id": …') and each line of the callback sample
    // was only its highlighted step ('before', 'after').
    await expectContents(
      '/pages/code-lines',
      [
        '```\n{\n  "id": "rd_8Kq2Lm",\n  "gauge": "harbour-north",\n  "level_m": 2.41,\n',
        'gauge.onRising((before, after) => {\n  console.log(after - before); // metres risen since the last reading\n});',
        '```shell\nnpm install tidekit\nnpx tidekit login\n```',
      ],
      ['{  "id"', '\nbefore\nafter\n', '1npm install'],
    );
  });
});

describe('5. HTML: words written in two elements side by side', () => {
  it("keeps a space between a product's brand and name, a price and its note, a rating and its count, and leaves code as written (runtime and built CLI)", async () => {
    await expectContents(
      '/pages/shop-shelf',
      [
        '[Ridgeway Kestrel Mid Waterproof Boots](',
        '$149.95 Compare at $189.95',
        '4.6 212 reviews',
        '[Crag Works Summit Leather Boots](',
        'Wear the socks you will hike in',
        'SizeUK9',
      ],
      ['RidgewayKestrel', '4.6212', '$149.95Compare', 'W ear'],
    );
  });

  it('writes each product card that is a link around blocks on a line of its own, not run into the next (runtime and built CLI)', async () => {
    await expectContents(
      '/pages/shop-cards',
      [
        'Canvas Market Bag $64.00](',
        '\n\n[![Letterpress print of six birds] Hedgerow Birds Print $30.00](',
        'Looking for a gift? [Gift cards](',
      ],
      [')[!['],
    );
  });

  it('writes no bare list marker for a logo without alt text and no stray emphasis around a picture in bold (runtime and built CLI)', async () => {
    await expectContents(
      '/pages/logo-strip',
      [
        'Shops that trust us with their books:\n\n- ![Hill Bakery]\n\n## What we do',
        '### [Payroll](',
        '![A shoebox of receipts on a shop counter]\n\nMost of our clients start with a shoebox.',
      ],
      ['\n-\n', '**'],
    );
  });
});

describe('5. HTML: list items and markers', () => {
  it('starts each card of a list on its marker line when its picture was read on the first card, and escapes a step number set alone (runtime and built CLI)', async () => {
    // Before: "-" alone, the card's text four spaces in below it; and "1." alone, an empty list item.
    await expectContents(
      '/pages/step-boxes',
      [
        '- [Soil](',
        '    ### Peat-free compost mixed with a handful of bark',
        '1\\.\n\nWater the fern an hour before you start',
      ],
      ['\n-\n', '\n1.\n'],
    );
  });
});

describe('5. HTML: numbered code samples', () => {
  it('writes a sample whose lines are numbered beside it, inside it, a table row per line or in an editor as its code alone, and custom blocks as callouts (runtime and built CLI)', async () => {
    // Before: the first two samples were only their column of numbers ("1\n2\n3\n4"), the third had a
    // number on a line before each command, the fourth a blank line between lines, the fifth lost the
    // spaces between its tokens ("foreach($day"), the editor's lines were paragraphs, and "TIP" was a
    // line.
    await expectContents(
      '/pages/numbered-code',
      [
        '```python\nfrom tidekit import TideTable\n\ntable = TideTable.load("harbour-north", year=2026)\n',
        '```python\nhigh = table.next_high_water(after=now)\n',
        '```\ntidekit day harbour-north 2026-03-14\ntidekit day harbour-north today --local\n```',
        'for (const water of day.waters) {\n  console.log(water.kind, water.heightM);\n}\n```',
        '> [!TIP]\n> Tables are cached',
        '> [!DANGER] Not for navigation\n',
        '```php\nforeach ($day->waters as $water) {\n    printf(',
        '```python\nfrom tidekit import TideTable\n\nTideTable.sample().next_low_water()\n```',
      ],
      ['```\n1\n2\n', '```python\n1\n', '\n1\ntidekit', ';\n\nfor (const', '\nTIP\n', 'foreach($day'],
    );
  });
});

describe('5. HTML: formulas an encyclopedia draws as pictures', () => {
  it('writes each formula once as TeX, displayed ones between $$ on lines of their own, from MathML the page hides beside a picture of it (runtime and built CLI)', async () => {
    // Before: every formula was lost, the hidden MathML and its picture both dropped ("where  is the
    // mean sea level").
    await expectContents(
      '/pages/encyclopedia-formulas',
      [
        '$$\nh(t)=H_{0}+\\sum _{i=1}^{n}A_{i}\\cos(\\omega _{i}t-\\varphi _{i})\n$$',
        'where $H_{0}$ is the mean sea level above chart datum',
        'the length of the lunar day $T_{L}$:\n\n$$\n\\omega _{M_{2}}=',
      ],
      ['displaystyle', 'where  is', 'wikimedia.org'],
    );
  });
});

describe("5. HTML: formulas left as TeX between MathJax's delimiters", () => {
  it('writes the TeX source of Sphinx, Pandoc and Quarto formulas between $ and $$, a numbered equation tagged (runtime and built CLI)', async () => {
    // Before: the sources were page text that the Markdown escapes mangled ("\\(A\_i\\)").
    await expectContents(
      '/pages/tutorial-formulas',
      [
        'the amplitude $A_i$ and the phase lag $\\varphi_i$ of each constituent $i$',
        '$$\nh(t) = H_0 + \\sum_{i=1}^{n} A_i \\cos(\\omega_i t - \\varphi_i) \\tag{1}\n$$',
        'the mean as $\\bar{y} = \\frac{1}{N}\\sum_k y_k$',
      ],
      ['\\\\(', '\\_i', '¶'],
    );
  });
});

describe('5. HTML: references to a place on the page', () => {
  it("keeps the words of a documentation page's references to its own sections and equations in running text (runtime and built CLI)", async () => {
    // Before: Sphinx's `reference internal` links went with their words ("see  for the sum").
    await expectContents(
      '/pages/tutorial-formulas',
      [
        'and the model of [(1)](',
        '/pages/tutorial-formulas#equation-tide-model):',
        'see [The model](',
        '/pages/tutorial-formulas#the-model) for the sum they enter.',
      ],
      ['model of :', 'see for the sum', '[How good is the fit]('],
    );
  });
});

describe('5. HTML: asides of a kind', () => {
  it('writes a documentation aside whose class is a kind as a callout of that kind, its bold label dropped (runtime and built CLI)', async () => {
    // Before: each aside was dropped, words and all, as a sidebar is.
    await expectContents(
      '/pages/guide-asides',
      [
        '> [!NOTE]\n> Approximate location is enough for every feature of the SDK.',
        '> [!CAUTION]\n> On Android 14 and later',
        '> [!KEY-POINT]\n> The card never blocks on the answer.',
      ],
      ['**Note:**', 'Related guides'],
    );
  });
});
