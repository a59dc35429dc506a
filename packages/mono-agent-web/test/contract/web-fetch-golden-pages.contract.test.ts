import { describe, it } from 'vitest';
import { useGoldenPages } from './support/golden-pages.js';

// Contract (WebFetch), step 5 of static extraction: HTML becomes "Article-shaped Markdown". Each
// page here is one of extract's golden pages, fetched from the fixture web through the runtime and
// the built CLI, for the part of the page a reader comes for. The Markdown each kind of markup is
// written as is proved in web-fetch-golden-markdown.contract.test.ts.

const { expectContents } = useGoldenPages('web-fetch-golden-pages');

describe('5. HTML: a services page wrapped in one form, its cards headed by their own headers', () => {
  it('reads every card with its title, pitch and price, without the site’s chrome or the comments (runtime and built CLI)', async () => {
    await expectContents(
      '/pages/services-webforms',
      [
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
      ['Our team', 'Search our guides', 'Marina Stores wrote', 'Monthly tax tips', 'registered in England'],
    );
  });
});

describe('5. HTML: a page is read as what it stands for, not as what its markup loosely says', () => {
  it("reads an application's landing page with its testimonials, though its data names a price offer (runtime and built CLI)", async () => {
    // The nested Offer once made this a product page, whose customer reviews are left out.
    await expectContents(
      '/pages/app-landing',
      [
        '## A rota that plans itself',
        '## Cover when someone calls in sick',
        '## What our customers say',
        'It takes an hour now, and nobody has been double-booked',
        'Staff sort out most changes between themselves',
        'Four euros per member of staff per month',
      ],
      ['Log in', 'Privacy'],
    );
  });

  it('reads every recipe of a category that an undated og:type calls an article, not its introduction alone (runtime and built CLI)', async () => {
    await expectContents(
      '/pages/recipe-category',
      [
        'everything on one tin, one hot oven',
        'add the quick-cooking things for the last ten minutes only',
        'Harissa chicken with chickpeas',
        'the tomatoes burst into a sauce around them',
        'Whole roast chicken with lemons and olives',
      ],
      ['Popular now', 'Banana bread'],
    );
  });
});

describe('5. HTML: what the page shows, not what it hides or what surrounds its story', () => {
  it('reads the version of a notice the page shows, without the two languages it hides (runtime and built CLI)', async () => {
    await expectContents(
      '/pages/language-versions',
      ['leaves the north pier every ninety minutes', 'sent to everyone who has signed up for text alerts'],
      ['Winterfahrplan', 'Inselfähre', 'quatre-vingt-dix'],
    );
  });

  it("reads a story in the one <article> holding the page's <h1> without the site's teasers (runtime and built CLI)", async () => {
    await expectContents(
      '/pages/undeclared-story',
      ['every ninety minutes instead of every hour', 'Bicycles and foot passengers do not need to book'],
      ['More from the harbour', 'Most read', 'cycle lane', 'Quay Street'],
    );
  });

  it('keeps the sentences of a story built of components that link part of their words (runtime and built CLI)', async () => {
    await expectContents(
      '/pages/component-paragraphs',
      [
        'For instance, [the authority paid for a second dredger in 2019](http',
        'Having stayed out for decades, [the twin villages of Holm and Sande applied to join](http',
        'The board has also asked engineers to study',
      ],
      ['Read more'],
    );
  });

  it('reads a story, not the slider of teaser cards after it that are articles too (runtime and built CLI)', async () => {
    await expectContents(
      '/pages/story-among-teasers',
      ['The old hotel by the steelworks closed its doors', 'because the last scene is played on the street'],
      ['Next article', 'Bus lanes on the ring road', 'Night buses to run on Fridays', 'Transport office'],
    );
  });

  it('links the video and the recording a story embeds instead of dropping them with its frames (runtime and built CLI)', async () => {
    await expectContents(
      '/pages/embedded-recording',
      [
        '[YouTube video: Harbour choir, winter concert 2025](https://www.youtube.com/watch?v=Qh7Yd2-kP0w)',
        '[Spotify recording: Ines Varga on the evening call](https://open.spotify.com/episode/7pLw3Xk2Qq9ZrT1aBcDeFg)',
        '[Post on X](https://x.com/harbourmaster/status/1864012345678901234)',
      ],
      ['ads.example.net'],
    );
  });

  it('reads a short note, not the sign-up form beside it that Readability takes for its block (runtime and built CLI)', async () => {
    await expectContents(
      '/pages/signup-form-note',
      ["Radio North's guest this morning", 'press play below'],
      ['Your email address', 'Receive the monthly letter', 'Sign me up'],
    );
  });

  it("reads a post that declares nothing without its blog's sidebar widgets and related posts (runtime and built CLI)", async () => {
    await expectContents(
      '/pages/blog-sidebar',
      ['Aquadulce Claudia', 'Pinch out the tops'],
      ['Plot 14 in numbers', 'What is growing now', 'You may also like', 'Seed Swap North'],
    );
  });

  it("reads the story, not the consent manager's preference centre whose legal prose outweighs it (runtime and built CLI)", async () => {
    await expectContents(
      '/pages/consent-centre',
      ['Sleeper trains will run', 'no replacement coaches'],
      ['Your privacy choices', 'Strictly necessary cookies'],
    );
  });

  it('reads the story, not the bands of teasers and links that share its hashed class name (runtime and built CLI)', async () => {
    await expectContents(
      '/pages/story-in-grid',
      ['lowest level in thirty years', 'flooded chapel'],
      ['Winter ferry timetable', 'Letters to the editor'],
    );
  });

  it('reads the story, not the next story the page appends after it (runtime and built CLI)', async () => {
    await expectContents(
      '/pages/next-story',
      ['keepers and their families', 'record their memories'],
      ['Harbour wall repairs'],
    );
  });

  it("reads the story without the site's menu and subscription prompts around it (runtime and built CLI)", async () => {
    await expectContents(
      '/pages/wrapped-story',
      ['stay fresh in the glass', 'when the cheese comes out'],
      ['Subscribe now', 'Create an account'],
    );
  });

  it('writes exponents and chemical indices as raised and lowered characters, not run into their numbers (runtime and built CLI)', async () => {
    await expectContents(
      '/pages/raised-figures',
      ['A count of 10² per 100 ml', 'the oxygen in H₂O itself', 'brings NO₃⁻ and PO₄³⁻'],
      ['102 per', 'H2O'],
    );
  });

  it('keeps the pictures a page draws late, from the <noscript> beside each placeholder (runtime and built CLI)', async () => {
    await expectContents(
      '/pages/lazy-pictures',
      ['The dinghy upside down on trestles', 'Copper rivets and roves'],
      ['analytics.example', 'data:image'],
    );
  });

  it("writes a documentation page's Bootstrap alerts as callouts that keep their kind (runtime and built CLI)", async () => {
    await expectContents(
      '/pages/docs-alerts',
      ['> [!NOTE]\n> The old key stays valid', '> [!DANGER] Do not skip the wait'],
      ['Note:', 'Primary'],
    );
  });

  it('reads a story whose body came escaped as text as the markup it is, never as literal tags (runtime and built CLI)', async () => {
    await expectContents(
      '/pages/escaped-body',
      [
        'The island ferry moves to its winter timetable on Monday',
        '## Evening crossings',
        '![The morning ferry leaving the north pier Photo by Ben Ode]',
      ],
      ['<p>', '\\<p>', '<strong>', '<small>', '\\<br>'],
    );
  });

  it("reads a listing's entries without the options of its filter menus (runtime and built CLI)", async () => {
    await expectContents(
      '/pages/ranked-list-filters',
      ['## [kessel/ferry-timetable](http', 'Charts the depth of a dredged channel from sonar soundings'],
      ['[Ada](', '[Basque](', 'This month', 'Sign out'],
    );
  });

  it("writes a documentation page's folded admonitions as callouts of their kind, titled by their summary (runtime and built CLI)", async () => {
    await expectContents(
      '/pages/folded-admonitions',
      [
        '> [!TIP] Static type checking\n> Type checkers read the alias',
        '> [!WARNING] Aliases on nested models\n> An alias applies to one field',
        'API Documentation',
      ],
      ['> [!API]', 'Made with MkDocs'],
    );
  });

  it('writes the questions of an FAQ opened by links that go nowhere as headings, not links to the page (runtime and built CLI)', async () => {
    await expectContents(
      '/pages/service-faq',
      ['### How often is payroll run?\n\nMost clients pay monthly', '### Who approves each run?'],
      ['service-faq/#', '[###'],
    );
  });

  it('keeps the links of a page written with capital attribute names (<A HREF>), as a browser reads them (runtime and built CLI)', async () => {
    await expectContents(
      '/pages/uppercase-markup',
      [
        // Resolved against the page's address on the fixture web.
        '[volunteers page](http://127.0.0.1:',
        '/pages/volunteers.html)',
        '[regional entry system](http://www.regatta-entries.example/head-race)',
      ],
      ['Join the club'],
    );
  });

  it('writes each formula of a post saved after MathJax ran once, as TeX from its source (runtime and built CLI)', async () => {
    await expectContents(
      '/pages/saved-mathjax-post',
      [
        'a quadratic in $s$. Its two roots',
        '$$\nx(t) = (A + Bt)\\,e^{-\\omega_0 t}\n$$',
        'the damping ratio $\\zeta = c / 2\\sqrt{km}$',
      ],
      ['m \\ddot{x}', 'MathJax'],
    );
  });

  it('keeps a short dated code block right under the headline (runtime and built CLI)', async () => {
    await expectContents(
      '/pages/headline-code',
      ['start-date: 2026-01-15', 'whole agenda of the weekly review'],
      ['Archive'],
    );
  });

  it('reads the footnotes a page hides until their marks are used, and not the menu its toggle hides (runtime and built CLI)', async () => {
    await expectContents(
      '/pages/hover-footnotes',
      [
        'kept in the town library',
        'no timetable can move the tide.[^1]',
        '[^1]: Except on the three days around each spring tide, when the pier dries out for an hour before dawn.',
        'runs for six weeks',
      ],
      ['Subscribe to the letter', '↩'],
    );
  });

  it("reads a Japanese story as its paragraphs, weighing them by their characters, without the page's topic links and ranking (runtime and built CLI)", async () => {
    await expectContents(
      '/pages/japanese-story',
      ['港湾委員会は二十日', '西水路を使う', '半分に満たなかった'],
      ['港湾整備', 'あわせて読みたい', 'アクセスランキング', '駅前再開発'],
    );
  });

  it("reads a repository page as its README, the <article> microdata marks as the page's text, without the file list (runtime and built CLI)", async () => {
    await expectContents(
      '/pages/repository-readme',
      ['predicts the height of the tide', 'pip install tidecalc', 'astronomical tide alone'],
      ['Use Git or check out', 'Add the constants for eleven Baltic stations', '2 branches', 'Watch 12'],
    );
  });
});

describe('5. HTML: what a page hides from its reader', () => {
  it('leaves out hidden menus, notices, tooltips and closed dialogs, and keeps a folded FAQ answer and a section hidden until found (runtime and built CLI)', async () => {
    await expectContents(
      '/pages/hidden-parts',
      [
        '## 1\\. Wash and dry the hull',
        'Mark every soft spot with chalk',
        '### Can I leave the boat in the water?',
        'Only in a sheltered harbour that never freezes',
        // hidden="until-found": find-in-page opens it, so it is the page's text.
        '## What you will need\n\nA blunt awl, a stiff brush',
      ],
      [
        'All guides (mobile)',
        'Printed from harbourworkshop.example',
        'Tip: an awl with a wooden handle',
        'Get the weekly guide',
        'Loading comments',
        '★★★★☆',
      ],
    );
  });
});

describe('5. HTML: widgets and threads read as a reader sees them', () => {
  it("reads a thread's posts under their authors' names without the group, counts, profile fields and signature beside each (runtime and built CLI)", async () => {
    await expectContents(
      '/pages/forum-author-column',
      ['### Ines\n\nMy new case arrived', '### Tomas\n\nA hub powered only from SATA'],
      ['Members', 'Reputation', 'Location', 'Lisbon', 'Build log'],
    );
  });

  it("reads the description folded in a product page's accordion, which a reader-view parser takes for a menu (runtime and built CLI)", async () => {
    // The site's menu keeps its orientation marker and stays out.
    await expectContents(
      '/pages/accordion-product',
      [
        '### Description',
        'The Fieldline lantern throws a warm, even light across a four-person tent',
        '| Run time | 3 to 9 hours |',
        'Charge the lantern fully before storing it for the winter',
        '## Built for the trail',
      ],
      ['Lighting]('],
    );
  });

  it("leaves out the rank under each author's name and the details labelled by icons, and keeps every post (runtime and built CLI)", async () => {
    await expectContents(
      '/pages/forum-ranks',
      [
        '#### Lena',
        'Every evening around eight my router drops the Wi-Fi',
        '#### Tomas',
        'move the 2.4 GHz band to 1, 6 or 11',
        'it has not dropped once since',
      ],
      ['Well-known member', 'Network wizard', 'Moderator', 'Jan 14, 2020', '18,902', 'Porto'],
    );
  });
});

describe('5. HTML: a thread whose opening post is long', () => {
  it('keeps every reply of a declared thread whose opening post runs to several paragraphs (runtime and built CLI)', async () => {
    // Before: the opening post's paragraphs passed for the thread's series, and the replies were lost.
    await expectContents(
      '/pages/thread-long-opening',
      [
        'Is there a workaround short of cancelling the orders',
        'Payment modules keep tables of their own beside the order',
        'Remove the rows of the refused orders only, after a backup',
      ],
      ['Powered by a forum engine'],
    );
  });
});

describe('5. HTML: who wrote each post of a thread', () => {
  it("heads each post with its author's name and date, read from the thread's microdata, and leaves the author's header out (runtime and built CLI)", async () => {
    // Before: the headers went as page furniture and the thread read as one voice.
    await expectContents(
      '/pages/forum-post-authors',
      [
        '- **marta-flies** · 2026-01-13\n\n    I keep a dozen routes saved',
        '- **ridgeline** · 2026-01-13\n\n    Routes you save on the desktop site',
        '- **marta-flies** · 2026-01-14\n\n    That worked for the routes',
      ],
      ['| Premium', 'Moderator'],
    );
  });
});

describe('5. HTML: a question and every answer', () => {
  it('keeps the question and every answer when each answer ends in a "Comments" label (runtime and built CLI)', async () => {
    // Before: the question and the first answer only (the label read as the end of the article),
    // then the answers without their question.
    await expectContents(
      '/pages/question-answers',
      [
        'Our float gauge in the old harbour reads about four centimetres above the staff',
        'Silt is the usual suspect.',
        'Check the temperature of the float wire as well.',
        "Spring is also when the river's fresh water is at its highest.",
        'Before anything else, read the staff at slack water only.',
      ],
      ['How often should a stilling well be cleaned?'],
    );
  });
});

describe('5. HTML: a story and the list it carries', () => {
  it('reads an open letter with its signatories, not the table of names alone (runtime and built CLI)', async () => {
    // Before: Readability's pick, the row of names and affiliations, without a word of the letter.
    await expectContents(
      '/pages/open-letter',
      [
        'Our harbour towns are facing a season of change.',
        'That is why we ask the councils, the newspapers and the harbour boards',
        '**Ada Albers**, writer',
      ],
      [],
    );
  });
});

describe('5. HTML: shadow trees declared in the HTML', () => {
  it("reads each web component's declared shadow tree where the browser draws it, with what its slots take (runtime and built CLI)", async () => {
    // Before: the cards' text, written in their shadow trees, was lost; only the slotted names and notes stayed.
    await expectContents(
      '/pages/shadow-cards',
      [
        '## Porto Vecchio\n\nThe old town climbs the hill behind the quay',
        'A working port with a lighthouse you can climb on weekends',
        '## Kilmory\n\nThe smallest of the three, a fishing village',
      ],
      ['A harbour\n'],
    );
  });
});

describe('5. HTML: links for keyboard users are no page text', () => {
  it('leaves out the links that skip a part of the page, and keeps a skip link that is part of a sentence (runtime and built CLI)', async () => {
    // Before: the carousel's "Skip this section" came out under its heading.
    await expectContents(
      '/pages/skip-links',
      ['If you know your size already, [skip to the results](', '## New this season\n\n- [Bowfell Grip]('],
      ['Skip this section', 'Skip to content', 'Skip navigation links', 'SKIP ADVERTISEMENT'],
    );
  });
});

describe('5. HTML: no label of a table of contents the answer leaves out', () => {
  it('leaves out the "Table of contents" label once the table itself is left out (runtime and built CLI)', async () => {
    // Before: the label stood over the first paragraph, as if a table followed.
    await expectContents(
      '/pages/contents-label',
      ['Most rain barrels that fail do it in their first winter', '## Why barrels crack in winter'],
      ['Table of contents'],
    );
  });
});

describe('5. HTML: what a utility class hides is not read', () => {
  it('leaves out the inline elements a class hides at every width: MathJax group markers and comment counts (runtime and built CLI)', async () => {
    // Before: "$\begingroup$" and "$\endgroup$" stood around every post, and each comment count after it.
    await expectContents(
      '/pages/qa-hidden-counts',
      ['Our street has poles with four wires', 'the monthly charge is higher.'],
      ['begingroup', 'endgroup'],
    );
  });
});
