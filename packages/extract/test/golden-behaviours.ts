// The behaviours each golden page under test/pages/ is there for, by page: what its expected Markdown
// must hold, hold once, or leave out (checked in golden-pages.test.ts).

import { MARKDOWN_BEHAVIOURS } from './golden-markdown-behaviours.js';
import type { Behaviour } from './golden-pages.js';

const PAGE_BEHAVIOURS: Readonly<Record<string, Record<string, Behaviour>>> = {
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
    "each post under its author's name, without the group, counts, profile fields and signature beside it": {
      keeps: ['### Ines\n\nMy new case arrived', '### Tomas\n\nA hub powered only from SATA', 'Thank you!'],
      drops: ['Members', 'Moderators', 'posts', 'Reputation', 'Location', 'Lisbon', '18.9k', 'Build log'],
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
  'thread-long-opening': {
    'every post of a thread whose opening post runs to several paragraphs, not the opening post alone': {
      keeps: [
        'A few customers placed orders with a card through the payment module last week',
        'Is there a workaround short of cancelling the orders',
        'Payment modules keep tables of their own beside the order',
        'Would it be safe to empty that table for the refused orders only',
        'Remove the rows of the refused orders only, after a backup',
      ],
      drops: ['Powered by a forum engine', 'Sign in'],
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
  'contents-label': {
    'no label of a table of contents left over the text when the table itself is left out': {
      keeps: [
        'Most rain barrels that fail do it in their first winter',
        '## Why barrels crack in winter\n\nWater expands by about nine percent',
      ],
      drops: [
        'Table of contents',
        '[Drain and disconnect](https://pages.example/contents-label/#drain-and-disconnect)',
      ],
    },
  },
  'qa-hidden-counts': {
    'no text of the inline elements a utility class hides at every width': {
      keeps: [
        'Our street has poles with four wires',
        'Neighbouring transformers are put on different phases',
        'the monthly charge is higher.',
      ],
      drops: ['begingroup', 'endgroup', '\n3\n', '\n4\n'],
    },
  },
  'skip-links': {
    'the links that let a keyboard skip a part of the page, but not one inside a sentence': {
      keeps: [
        'If you know your size already, [skip to the results](https://pages.example/skip-links/#results);',
        '## New this season\n\n- [Bowfell Grip](https://pages.example/p/411/bowfell-grip) $138.00',
      ],
      drops: ['Skip to content', 'Skip navigation links', 'Skip this section', 'SKIP ADVERTISEMENT'],
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
  'shadow-cards': {
    "each card's text from its declared shadow tree, its name from the slot that takes it": {
      keeps: [
        '## Porto Vecchio\n\nThe old town climbs the hill behind the quay',
        'the crossing is calm in the mornings.',
        '## Kilmory\n\nThe smallest of the three, a fishing village',
      ],
      drops: ['A harbour', 'Travel'],
    },
  },
  'shop-cards': {
    'each card that is a link around blocks on a line of its own': {
      keeps: ['$64.00](https://pages.example/shop/canvas-market-bag)\n\n[![Letterpress print of six birds]'],
      drops: [')[!['],
    },
  },
};

/** Every golden page's behaviours: of the page's parts (above) and of its markup (golden-markdown-behaviours.ts). */
export const BEHAVIOURS: Readonly<Record<string, Record<string, Behaviour>>> = {
  ...PAGE_BEHAVIOURS,
  ...MARKDOWN_BEHAVIOURS,
};
