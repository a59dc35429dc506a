// The behaviours each golden page under test/pages/ is there for, by page: what its expected Markdown
// must hold, hold once, or leave out (checked in golden-pages.test.ts).

/** What a page's Markdown must hold, hold once, or leave out. */
interface Behaviour {
  keeps?: readonly string[];
  once?: readonly string[];
  drops?: readonly string[];
}

export const BEHAVIOURS: Readonly<Record<string, Record<string, Behaviour>>> = {
  'forum-thread': {
    'each post once, without signatures or author details': {
      once: ['Is the fan controller failing'],
      keeps: ['Rita said:', 'fan curve in the BIOS', 'embedded controller firmware'],
      drops: ['Omar fixes laptops', 'Rig: ThinkPad', 'Joined', 'Lisbon'],
    },
  },
  'product-page': {
    'the product without its customer reviews': {
      keeps: ['€49.00', 'boils a litre of water', '1.7 litres'],
      drops: ['first frost', 'Third kettle', 'garden'],
    },
  },
  'saved-story': {
    'the body, its streamed paragraph, once, and not the banner': {
      once: ['three of the pier', 'ferry to the island'],
      drops: ['home screen'],
    },
  },
  'pricing-page': {
    'the plans drawn for wide and narrow screens, once': {
      once: ['### Starter', '### Team', '### Business', '### Nonprofit', 'single sign-on'],
      keeps: ['Questions about billing', 'fourteen days'],
    },
  },
  'feature-page': {
    'the sections faded in on scroll, not the menus': {
      keeps: [
        '## Quiet where you need it',
        '## A day of listening',
        '## Fits and stays put',
        'Six microphones',
        'three more charges',
        'silicone tips',
        'IPX4',
      ],
      drops: ['Over-ear headphones', 'Harbourline club'],
    },
    'the answers an FAQ folds away by class, not other hidden boxes': {
      keeps: [
        'Do they work with two phones at once?',
        'stay paired with two devices',
        'recycles the old cells',
      ],
      drops: ['ten percent off'],
    },
  },
  'link-discussion': {
    'every comment of a discussion declared an article (the series), not only its longest reply': {
      keeps: [
        'Good to see the census published in full',
        'counted from the water this year',
        'released as a spreadsheet',
        'copy cleanly from the HTML version',
      ],
      once: ['I volunteered on one of those plots'],
      drops: ['Linkboard is run by its readers'],
    },
  },
  'app-landing': {
    'every section with its testimonials: the offer its data names is not the page': {
      keeps: [
        '## Every shift covered, without the spreadsheet',
        '## A rota that plans itself',
        '## Swaps without the phone calls',
        '## Cover when someone calls in sick',
        '## What our customers say',
        'It takes an hour now',
        'Staff sort out most changes',
        'Four euros per member of staff',
      ],
      drops: ['Log in', 'Privacy'],
    },
  },
  'language-versions': {
    'the version the page shows, not the two languages it hides, which hold two thirds of its text': {
      keeps: [
        'leaves the north pier every ninety minutes',
        'Season tickets stay valid',
        'sent to everyone who has signed up for text alerts',
      ],
      drops: ['Winterfahrplan', 'Inselfähre', 'Horaires', 'quatre-vingt-dix', 'Privacy'],
    },
  },
  'undeclared-story': {
    "the story in the one <article> holding the page's <h1>, not the teasers around it, on a page that declares no article":
      {
        keeps: [
          'every ninety minutes instead of every hour',
          'Bicycles and foot passengers do not need to book',
        ],
        drops: ['More from the harbour', 'Most read', 'cycle lane', 'Quay Street', 'Weather'],
      },
  },
  'repository-readme': {
    "a repository's README, the one <article> that microdata marks as the page's text, without the file list or the clone menu":
      {
        keeps: ['predicts the height of the tide', 'pip install tidecalc', 'astronomical tide alone'],
        drops: [
          'Use Git or check out',
          'Add the constants for eleven Baltic stations',
          '2 branches',
          'Watch 12',
        ],
      },
  },
  'blog-sidebar': {
    "a post that declares nothing, without its blog's sidebar widgets and related posts": {
      keeps: ['Aquadulce Claudia', 'chilli powder', 'Pinch out the tops'],
      drops: [
        'Plot 14 in numbers',
        'What is growing now',
        'Margaret',
        'You may also like',
        'Seed Swap North',
      ],
    },
  },
  'signup-form-note': {
    'a short note declared an article, not the sign-up form Readability takes for its block': {
      keeps: ["Radio North's guest this morning", 'press play below'],
      drops: ['Your email address', 'Receive the monthly letter', 'Sign me up'],
    },
  },
  'embedded-recording': {
    "a link to each embedded player's media, named by its frame's title, and no advertising frame": {
      keeps: [
        '[YouTube video: Harbour choir, winter concert 2025](https://www.youtube.com/watch?v=Qh7Yd2-kP0w)',
        '[Spotify recording: Ines Varga on the evening call](https://open.spotify.com/episode/7pLw3Xk2Qq9ZrT1aBcDeFg)',
        '[Post on X](https://x.com/harbourmaster/status/1864012345678901234)',
        'welcomes new voices',
      ],
      drops: ['ads.example.net', 'Spotify Embed'],
    },
  },
  'recipe-category': {
    'the introduction and every recipe of a category marked an article by an undated og:type': {
      keeps: [
        'one hot oven',
        'quick-cooking things',
        'Harissa chicken with chickpeas',
        'tomatoes burst into a sauce',
        'Whole roast chicken with lemons and olives',
      ],
      drops: ['Popular now', 'Banana bread', 'About'],
    },
  },
  'japanese-story': {
    "a Japanese story's paragraphs, weighed by their characters, without the page's topic links, teaser and ranking":
      {
        keeps: ['港湾委員会は二十日', '西水路を使う', '半分に満たなかった'],
        drops: ['港湾整備', 'あわせて読みたい', 'アクセスランキング', '駅前再開発'],
      },
  },
  'headline-code': {
    "a short dated code block right under the headline, which Defuddle's byline rule took for the date line":
      {
        keeps: ['```yaml', 'start-date: 2026-01-15', 'whole agenda of the weekly review'],
        drops: ['Archive'],
      },
  },
  'consent-centre': {
    "the story, and not the consent manager's preference centre, whose legal prose outweighs it": {
      keeps: ['Sleeper trains will run', 'no replacement coaches'],
      drops: ['Your privacy choices', 'Strictly necessary cookies', 'opt out of the sale'],
    },
  },
  'story-in-grid': {
    "the story, and not the bands of teasers and links beside it that the grid's hashed class names make look alike":
      {
        keeps: ['lowest level in thirty years', 'flooded chapel'],
        drops: ['Winter ferry timetable', 'Water supply', 'Letters to the editor'],
      },
  },
  'next-story': {
    'the story the page is about, without the next story it appends for the reader scrolling on': {
      keeps: ['keepers and their families', 'record their memories'],
      drops: ['Harbour wall repairs', 'harbour board'],
    },
  },
  'wrapped-story': {
    "the story cleaned of the page's menu and subscription prompts, which Readability's block held": {
      keeps: ['stay fresh in the glass', 'when the cheese comes out'],
      drops: ['Subscribe now', 'Create an account', 'Hockey'],
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
  'lazy-pictures': {
    "each lazily drawn picture from the <noscript> beside its placeholder, and not an analytics pixel's": {
      keeps: [
        'The dinghy upside down on trestles, its hull stripped to bare larch',
        'Copper rivets and roves laid out on the bench before clenching',
      ],
      once: ['Copper rivets and roves laid out'],
      drops: ['analytics.example', 'data:image'],
    },
  },
  'service-faq': {
    'questions an inert link opens are headings with their answers, not links to the page itself': {
      keeps: [
        '### How often is payroll run?\n\nMost clients pay monthly',
        '### Can we switch from another provider in the middle of the tax year?',
        '### Who approves each run?\n\nOne person you name',
        '[Read how a switch works](https://pages.example/payroll/switching/)',
      ],
      drops: ['service-faq/#', '[###', 'javascript:'],
    },
  },
  'uppercase-markup': {
    'links, pictures and classes of a page written with capital attribute names, as a browser reads them': {
      keeps: [
        '[volunteers page](https://pages.example/uppercase-markup/volunteers.html)',
        '[regional entry system](http://www.regatta-entries.example/head-race)',
        '![The finished boat shed with its doors open]',
      ],
      drops: ['Join the club', 'Last changed'],
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
  'escaped-body': {
    "a body and an excerpt escaped as text read as markup, and a picture's alt text without its tags": {
      keeps: [
        'The island ferry moves to its winter timetable on Monday',
        "**parents' evenings**",
        '## Evening crossings',
        '![The morning ferry leaving the north pier Photo by Ben Ode]',
      ],
      drops: ['<p>', '\\<p>', '<strong>', '<small>', '\\<br>', '&lt;'],
    },
  },
  'forum-author-column': {
    "each post under its author's name, without the group, counts and profile fields beside it": {
      keeps: ['### Ines\n\nMy new case arrived', '### Tomas\n\nA hub powered only from SATA', 'Thank you!'],
      drops: ['Members', 'Moderators', 'posts', 'Reputation', 'Location', 'Lisbon', '18.9k'],
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
  'hidden-parts': {
    'a section hidden until found is read, what is hidden for good is not': {
      keeps: ['## What you will need\n\nA blunt awl, a stiff brush'],
      drops: ['Loading comments', 'All guides (mobile)', 'Get the weekly guide'],
    },
  },
  'hover-footnotes': {
    'the footnotes a page shows from their marks, inside the mark or named by it, and not the menu its toggle opens':
      {
        keeps: [
          'kept in the town library',
          'the pier dries out for an hour before dawn',
          'runs for six weeks',
          'the tide.[^1]',
          '[^2]: The trial starts',
        ],
        drops: ['Subscribe to the letter', '↩', '#fn:'],
      },
  },
  'services-webforms': {
    'every card with its title, pitch and price, without chrome or comments (landing page)': {
      keeps: [
        '# Bookkeeping and payroll for small firms',
        '## Monthly bookkeeping',
        'Every receipt filed, every account reconciled.',
        'From 95 pounds a month',
        '## Payroll and pensions',
        'From 4 pounds per employee per run.',
        '## Year-end accounts and tax returns',
        'Included with monthly bookkeeping.',
        'How a boatyard cut its month-end',
      ],
      drops: [
        'Our team',
        'Search our guides',
        'Marina Stores wrote',
        'Monthly tax tips',
        'registered in England',
      ],
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
  'question-answers': {
    'the question and every answer, though each answer ends in a "Comments" label': {
      keeps: [
        'Our float gauge in the old harbour reads about four centimetres above the staff',
        'Silt is the usual suspect.',
        'Check the temperature of the float wire as well.',
        "Spring is also when the river's fresh water is at its highest.",
        'Before anything else, read the staff at slack water only.',
      ],
      drops: ['How often should a stilling well be cleaned?', 'Site design and logo'],
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
  'open-letter': {
    'the letter with its signatories, not the table of names alone': {
      keeps: [
        'Our harbour towns are facing a season of change.',
        'That is why we ask the councils, the newspapers and the harbour boards',
        '**Ada Albers**, writer',
      ],
      drops: [],
    },
  },
  'step-boxes': {
    'each card of a list starts on its marker line, and a step number in a box reads as text': {
      keeps: [
        '- [Soil](https://pages.example/shop/soil)\n\n    ### Peat-free compost',
        '- [Tools](https://pages.example/shop/tools)',
        '1\\.\n\nWater the fern an hour before you start',
      ],
      drops: ['\n-\n', '\n1.\n', '\n2.\n'],
    },
  },
  'shop-shelf': {
    'a space between words written in two elements side by side, and code as written': {
      keeps: [
        '[Ridgeway Kestrel Mid Waterproof Boots](',
        '$149.95 Compare at $189.95',
        '4.6 212 reviews',
        'SizeUK9',
      ],
      drops: ['RidgewayKestrel', '4.6212', '$149.95Compare', 'W ear'],
    },
  },
  'ranked-list-filters': {
    "a listing's ranked entries without the options of its filter menus or its account menu": {
      keeps: [
        '## Rising repositories',
        '## [kessel/ferry-timetable](https://pages.example/kessel/ferry-timetable)',
        'Go · [415 stars](https://pages.example/lindqvist/channel-depth/stargazers) · 7 stars today',
      ],
      drops: ['[Ada](', '[Basque](', 'This month', 'Sign out', 'Collections'],
    },
  },
  'component-paragraphs': {
    'the sentences that link part of their words, each in its own wrappers, without the line that is mostly a link':
      {
        keeps: [
          'For instance, [the authority paid for a second dredger in 2019](',
          'Having stayed out for decades, [the twin villages of Holm and Sande applied to join](',
          'and a [two-thirds majority of the members](',
        ],
        drops: ['Read more'],
      },
  },
  'story-among-teasers': {
    'the story in its <article>, not the slider of teaser <article>s after it': {
      keeps: ['The old hotel by the steelworks', 'wear sturdy shoes'],
      drops: ['Next article', 'Bus lanes on the ring road', 'Night buses', 'Transport office'],
    },
  },
  'logo-strip': {
    'no bare list markers for logos without alt text, a logo with one kept': {
      keeps: ['Shops that trust us with their books:\n\n- ![Hill Bakery]\n\n## What we do'],
      drops: ['\n-\n'],
    },
    "a card's heading on one line with its link, past the icon's wrapper": {
      keeps: ['### [Payroll](https://pages.example/services/payroll)'],
      drops: ['###\n'],
    },
    'a picture in bold written alone, without stray emphasis marks': {
      keeps: ['![A shoebox of receipts on a shop counter]\n\nMost of our clients'],
      drops: ['**'],
    },
  },
  'numbered-code': {
    'each numbered sample as its code alone, from a column of numbers beside it, numbers inside it or a row per line; custom blocks as callouts':
      {
        keeps: [
          '```python\nfrom tidekit import TideTable\n\ntable = TideTable.load("harbour-north", year=2026)\nprint(table.station.name)\n```',
          '```python\nhigh = table.next_high_water(after=now)\nprint(high.height_m)\n',
          '```\ntidekit day harbour-north 2026-03-14\ntidekit day harbour-north today --local\n```',
          "```javascript\nconst day = await tidekit.day('harbour-north', '2026-03-14');\nfor (const water of day.waters) {\n",
          '> [!TIP]\n> Tables are cached in your home folder',
          '> [!DANGER] Not for navigation\n> Predictions ignore surges',
        ],
        drops: ['```\n1\n2\n', '\n1tidekit', '\n2tidekit', ';\n\nfor (const', '\nTIP\n'],
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
  'shop-cards': {
    'each card that is a link around blocks on a line of its own': {
      keeps: ['$64.00](https://pages.example/shop/canvas-market-bag)\n\n[![Letterpress print of six birds]'],
      drops: [')[!['],
    },
  },
};
