// The behaviours of the golden pages that are there for a kind of markup (code, formulas, tables,
// callouts, emphasis, headings): what each page's expected Markdown must hold, hold once, or leave
// out. golden-behaviours.ts adds them to the others.

import type { Behaviour } from './golden-pages.js';

export const MARKDOWN_BEHAVIOURS: Readonly<Record<string, Record<string, Behaviour>>> = {
  'headline-code': {
    "a short dated code block right under the headline, which Defuddle's byline rule took for the date line":
      {
        keeps: ['```yaml', 'start-date: 2026-01-15', 'whole agenda of the weekly review'],
        drops: ['Archive'],
      },
  },
  'saved-mathjax-post': {
    'each formula once, as TeX from its math/tex or math/mml script, without what MathJax drew from it': {
      keeps: [
        'a quadratic in $s$. Its two roots',
        '$$\nx(t) = (A + Bt)\\,e^{-\\omega_0 t}\n$$',
        'the damping ratio $\\zeta = c / 2\\sqrt{km}$',
        'instead, which reads the same once drawn: $T_d = 2 \\pi / \\omega_d$ is the period',
      ],
      once: ['m\\ddot{x} + c\\dot{x} + kx = 0'],
      drops: ['m \\ddot{x}', 'MathJax'],
    },
  },
  'raised-figures': {
    'exponents, charges and chemical indices as raised and lowered characters, ordinals and footnote marks as they read':
      {
        keeps: [
          'A count of 10² per 100 ml',
          '10⁴ means a storm overflow',
          'the oxygen in H₂O itself',
          'brings NO₃⁻ and PO₄³⁻ down the river',
          'about 1 m³ of mixing water',
          'on the 1st and 3rd Mondays',
          'falls again.[3](',
        ],
        drops: ['10 2 per', '102 per', 'H2O'],
      },
  },
  'docs-alerts': {
    "Bootstrap's alerts as callouts of their kind, from the class or a title that names one, and a box of no kind as written":
      {
        keeps: [
          '> [!NOTE]\n> The old key stays valid',
          '> [!WARNING]\n> Keep the private half',
          '> [!DANGER] Do not skip the wait\n> A reader that does not know',
          '\n\nQuestions about key rotation are answered',
        ],
        drops: ['Note:', 'Primary', 'Setting up'],
      },
  },
  'folded-admonitions': {
    "MkDocs' folded admonitions as callouts of their kind titled by their summary, and a panel of a custom kind as written":
      {
        keeps: [
          '> [!TIP] Static type checking\n> Type checkers read the alias',
          '> [!WARNING] Aliases on nested models\n> An alias applies to one field',
          '> [!NOTE]\n> Aliases are plain strings.',
          'API Documentation',
        ],
        drops: ['> [!API]', 'Field aliases\n\nField aliases', 'Made with MkDocs', 'Validators\n'],
      },
  },
  'api-reference': {
    "each method's name its heading links to its own entry, and a heading broken over two lines as one": {
      keeps: [
        '#### pub fn new(station: &str, datum: Datum) -> Self',
        '#### pub fn level\\_at\\<T>(&self, time: T) -> Option\\<f64> where T: Into\\<Timestamp>,',
        '#### pub const fn rising(&self) -> bool',
        '## Examples reading a station\n',
      ],
      drops: ['pub fn (', 'pub const fn (', 'Examplesreading', '#see-also', '¶'],
    },
  },
  'code-lines': {
    'each line of a sample drawn as an element of its own, whole and on a line of its own': {
      keeps: [
        '```\n{\n  "id": "rd_8Kq2Lm",\n  "gauge": "harbour-north",\n',
        'gauge.onRising((before, after) => {\n  console.log(after - before); // metres risen since the last reading\n});',
        '```shell\nnpm install tidekit\nnpx tidekit login\n```',
      ],
      drops: ['{  "id"', '\nbefore\n', '1npm'],
    },
  },
  'comparison-tables': {
    'a table whose rows are written without <tr>, and tables whose cells hold paragraphs, as pipe tables': {
      keeps: [
        '| Gauge | Price | Accuracy | Upkeep |\n| --- | --- | --- | --- |\n| Stillwell Pro | $1,240 | 4.8 | Monthly flush (intake pipe only) |\n| Float Mark II |',
        '| Reading | What it tells you |\n| --- | --- |\n| `level_m` | The water level above chart datum, in metres. |',
      ],
      drops: ['\nUpkeep\n', '\nWhat it tells you\n'],
    },
  },
  'emphasis-runs': {
    'one pair of marks for bold inside bold and for one word in two bold or italic elements': {
      keeps: [
        '- **Breakfast:** plan on',
        '- **Appetizers only:** six to twelve',
        '- **Dinner:** a five-ounce',
        '*after* the weather',
      ],
      drops: ['****', '**B** **reakfast', '*a**fter*'],
    },
  },
  'numbered-code': {
    'each numbered sample as its code alone, from a column of numbers beside it, numbers inside it, a row per line or an editor; custom blocks as callouts':
      {
        keeps: [
          '```python\nfrom tidekit import TideTable\n\ntable = TideTable.load("harbour-north", year=2026)\nprint(table.station.name)\n```',
          '```python\nhigh = table.next_high_water(after=now)\nprint(high.height_m)\n',
          '```\ntidekit day harbour-north 2026-03-14\ntidekit day harbour-north today --local\n```',
          "```javascript\nconst day = await tidekit.day('harbour-north', '2026-03-14');\nfor (const water of day.waters) {\n",
          '> [!TIP]\n> Tables are cached in your home folder',
          '> [!DANGER] Not for navigation\n> Predictions ignore surges',
          '```php\nforeach ($day->waters as $water) {\n    printf("%s %.2f\\n", $water->kind, $water->height);\n}\n```',
          '```python\nfrom tidekit import TideTable\n\nTideTable.sample().next_low_water()\n```',
        ],
        drops: [
          '```\n1\n2\n',
          '\n1tidekit',
          '\n2tidekit',
          ';\n\nfor (const',
          '\nTIP\n',
          'foreach(',
          'as$water',
        ],
      },
  },
  'encyclopedia-formulas': {
    'each formula once, as TeX without its style group, the displayed ones on lines of their own': {
      keeps: [
        'the Sun:\n\n$$\nh(t)=H_{0}+\\sum _{i=1}^{n}A_{i}\\cos(\\omega _{i}t-\\varphi _{i})\n$$',
        'where $H_{0}$ is the mean sea level above chart datum, and $A_{i}$, $\\omega _{i}$ and $\\varphi _{i}$ are',
        'the observed level is $h(t)+\\eta (t)$, and',
        '$$\n\\eta (t)\\leq 3\\,\\mathrm {m}\n$$',
      ],
      once: ['H_{0}+', '4\\pi'],
      drops: ['displaystyle', 'wikimedia.org'],
    },
  },
  'tutorial-formulas': {
    "each formula left as TeX between MathJax's delimiters as TeX between $ or $$, a numbered one tagged": {
      keeps: [
        'the amplitude $A_i$ and the phase lag $\\varphi_i$ of each constituent $i$',
        '$$\nh(t) = H_0 + \\sum_{i=1}^{n} A_i \\cos(\\omega_i t - \\varphi_i) \\tag{1}\n$$',
        '$$\n\\min_{A,\\varphi} \\sum_{k} \\left(y_k - h(t_k)\\right)^2\n$$',
        'the mean as $\\bar{y} = \\frac{1}{N}\\sum_k y_k$',
      ],
      drops: ['\\\\(', '\\\\[', '\\_', '¶'],
    },
    "the words of the page's references to its own sections and equations, not its table of contents": {
      keeps: [
        'and the model of [(1)](https://pages.example/tutorial-formulas/#equation-tide-model):',
        'see [The model](https://pages.example/tutorial-formulas/#the-model) for the sum they enter.',
      ],
      drops: ['model of :', 'see for', '[How good is the fit]('],
    },
  },
  'guide-asides': {
    "asides of a kind as callouts of that kind, without the bold label that names it; a sidebar's aside left out":
      {
        keeps: [
          'can see.\n\n> [!NOTE]\n> Approximate location is enough for every feature of the SDK.',
          '> [!CAUTION]\n> On Android 14 and later the system denies a request',
          '> [!KEY-POINT]\n> The card never blocks on the answer.',
        ],
        drops: ['**Note:**', '**Caution:**', 'Key point:', 'Related guides', 'Working offline'],
      },
  },
  'forum-post-authors': {
    "each post headed by its author's name and day from the thread's microdata, without the header's group badge":
      {
        keeps: [
          '- **marta-flies** · 2026-01-13\n\n    I keep a dozen routes saved',
          '- **ridgeline** · 2026-01-13\n\n    Routes you save on the desktop site',
          '- **ridgeline** · 2026-01-15\n\n    Routes drawn in the old planner',
        ],
        drops: ['| Premium', 'Moderator', 'Suggested topics'],
      },
  },
};
