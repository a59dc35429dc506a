import { parseHTML } from 'linkedom';
import { describe, expect, it } from 'vitest';
import {
  FRAGMENT_MAX_EDGE,
  FRAGMENT_MAX_SHARE,
  FRAGMENT_MIN_GROWTH,
  holdsSpreadBlock,
} from './article-rules.js';
import { extractHtml } from './extract-html.js';
import { SPREAD_MIN_SHARE, spreadContent } from './spread-content.js';

const url = 'https://docs.example.org/guide/start.html';

describe('extractHtml: pages a browser would render', () => {
  it('extracts a valid HTML5 page that leaves out <html>, <head> and <body>', async () => {
    const page =
      '<!doctype html><meta charset=utf-8><title>Tide tables</title><h1>Tide tables</h1>' +
      '<p>High water at the harbour mouth comes at noon on Monday and about fifty minutes later each day.</p>' +
      '<p>Spring tides on Thursday bring the lowest water of the month.</p>';
    const article = await extractHtml(page, url);
    expect(article.text).toContain('High water at the harbour mouth comes at noon');
    expect(article.text).toContain('Spring tides on Thursday');
    expect(article.title).toBe('Tide tables');
  });

  it('extracts bare fragments and bare words', async () => {
    expect((await extractHtml('<p>Ferry every forty minutes.</p><p>Last boat 22:50.</p>', url)).text).toBe(
      'Ferry every forty minutes.\n\nLast boat 22:50.',
    );
    expect((await extractHtml('hello', url)).text).toBe('hello');
  });

  it('returns the page text when everything readable sits in page chrome', async () => {
    const page = '<html><body><header><p>Shop closed today, back on Monday.</p></header></body></html>';
    const article = await extractHtml(page, url);
    expect(article.text).toContain('Shop closed today, back on Monday.');
  });

  it("reads a page's description of itself when its body holds no text at all", async () => {
    const shell = (head: string) =>
      `<!doctype html><html><head><title>Thread</title>${head}</head><body><section id="splash"><div class="dots"></div></section><div id="app"></div><script>start()</script></body></html>`;
    const article = await extractHtml(
      shell(
        '<meta property="og:description" content="Short."><meta name="description" content="How do I *start*?   Where [should](x) I begin">',
      ),
      url,
    );
    expect(article).toMatchObject({ stage: 'page-description', title: 'Thread' });
    expect(article.text).toBe('How do I *start*? Where [should](x) I begin');
    // Written as text: nothing in it becomes Markdown emphasis or a link.
    expect(article.markdown).toBe('How do I \\*start\\*? Where \\[should\\](x) I begin');
    expect(article.parserFailures.map((failure) => failure.stage)).toContain('cleaned-body');
    // The longest of the descriptions wins; a blank one is none.
    const twitter = await extractHtml(
      shell(
        '<meta name="description" content="  "><meta name="twitter:description" content="From the card.">',
      ),
      url,
    );
    expect(twitter).toMatchObject({ stage: 'page-description', text: 'From the card.' });
    // Any text in the body, even a loading notice, is the body's own.
    const loading = await extractHtml(
      shell('<meta name="description" content="About the thread.">').replace(
        '<div id="app">',
        '<div id="app">Loading',
      ),
      url,
    );
    expect(loading).toMatchObject({ stage: 'cleaned-body', text: 'Loading' });
  });

  it('comes back empty only for a page without text', async () => {
    for (const page of ['', '<!doctype html>', '<html><body><script>var a = 1;</script></body></html>']) {
      const article = await extractHtml(page, url);
      expect(article.text).toBe('');
      expect(article.stage).toBe('cleaned-body');
    }
  });
});

describe('extractHtml: Markdown', () => {
  const documentation = (body: string) =>
    `<!doctype html><html><head><title>Start</title></head><body><main><article><h1>Getting started</h1>
<p>This guide shows how to install the client library and make a first request against the service.</p>
${body}
<p>Every request needs an API key, which the dashboard shows under settings once an account exists.</p>
</article></main></body></html>`;

  it('keeps data tables as pipe tables', async () => {
    const { markdown } = await extractHtml(
      documentation(
        '<table><thead><tr><th>Option</th><th>Default</th></tr></thead><tbody><tr><td>timeout</td><td>30 s</td></tr><tr><td>retries</td><td>2 | 3</td></tr></tbody></table>',
      ),
      url,
    );
    expect(markdown).toContain(
      '| Option | Default |\n| --- | --- |\n| timeout | 30 s |\n| retries | 2 \\| 3 |',
    );
  });

  it('keeps code blocks with their language', async () => {
    const { markdown } = await extractHtml(
      documentation(
        '<pre><code class="language-python">import client\nclient.connect()</code></pre><pre data-lang="sh">pip install client</pre>',
      ),
      url,
    );
    expect(markdown).toContain('```python\nimport client\nclient.connect()\n```');
    expect(markdown).toContain('```sh\npip install client\n```');
  });

  it('writes images as their alt text and never leaves an empty link', async () => {
    const { markdown, text } = await extractHtml(
      documentation(
        '<p>The dashboard <img src="/img/dash.png" alt="Dashboard with the key panel open"> lists keys. <a href="/keys"><img src="/i.png" alt=""></a><a href="/x"> </a>Keys can be revoked.</p>',
      ),
      url,
    );
    expect(markdown).toContain('![Dashboard with the key panel open]');
    expect(markdown).not.toMatch(/dash\.png|i\.png|\[\s*\]\(/);
    // Plain text is the prose; an image's alt text is not.
    expect(text).not.toContain('Dashboard with the key panel open');
  });

  it('reads a repeated alt text once, and skips file names and alt texts the caption repeats', async () => {
    const { markdown } = await extractHtml(
      documentation(
        '<p><img src="/a.jpg" alt="Blue trail shoe"><img src="/b.jpg" alt="Blue trail shoe"><img src="/c.jpg" alt="IMG_2041.jpg"><img src="/d.jpg" alt="milan-design-week-2018-lamp-01"></p>' +
          '<figure><img src="/e.jpg" alt="The harbour at dawn"><figcaption>The harbour at dawn, seen from the pier.</figcaption></figure>',
      ),
      url,
    );
    expect(markdown.match(/Blue trail shoe/g)).toHaveLength(1);
    expect(markdown).not.toMatch(/IMG_2041|milan-design-week/);
    expect(markdown.match(/The harbour at dawn/g)).toHaveLength(1);
  });
});

describe('extractHtml: pages declared as articles', () => {
  it('keeps the lists of an index page declared an article, whose block is all lists of links', async () => {
    // Sites mark every page og:type=article. Dropping the lists of links from Readability's block, as
    // from a story's, left 27 words of this page; its block is read whole from the page instead.
    const names = ['Ada', 'ALGOL', 'APL', 'BASIC', 'COBOL', 'Eiffel', 'Forth', 'Fortran', 'Haskell', 'Lisp'];
    const section = (index: number) =>
      `<h2>Section ${index}</h2><ul>${names.map((name) => `<li><a href="/wiki/${name}_${index}">${name} ${index}</a></li>`).join('')}</ul>`;
    const html =
      '<!doctype html><html><head><title>List of languages</title><meta property="og:type" content="article"></head>' +
      '<body><nav><a href="/">Home</a></nav><main><h1>List of languages</h1>' +
      '<p>This is an index of notable programming languages, in alphabetical order, with links to each.</p>' +
      `${Array.from({ length: 6 }, (_, index) => section(index)).join('')}</main></body></html>`;
    const article = await extractHtml(html, 'https://wiki.example.org/List_of_languages');
    expect(article.markdown).toContain('[Lisp 5](https://wiki.example.org/wiki/Lisp_5)');
    expect(article.markdown).toContain('## Section 0');
    expect(article.markdown).toContain('This is an index of notable programming languages');
  });

  it('keeps dropping a menu of links that came along inside a story', async () => {
    const paragraph = (index: number) =>
      `<p>Paragraph ${index} of the story tells how the harbour gauge was moved, checked and read again, every hour, by the same crew of three.</p>`;
    const html =
      '<!doctype html><html><head><title>The gauge</title><meta property="og:type" content="article"></head><body><article>' +
      `<h1>The gauge</h1>${Array.from({ length: 8 }, (_, index) => paragraph(index)).join('')}` +
      '<ul><li><a href="/a">Related one</a></li><li><a href="/b">Related two</a></li><li><a href="/c">Related three</a></li></ul>' +
      '</article></body></html>';
    const article = await extractHtml(html, 'https://news.example.org/gauge');
    expect(article.markdown).toContain('Paragraph 7 of the story');
    expect(article.markdown).not.toContain('Related two');
  });

  it('leaves the captions of a story’s pictures out, and keeps them on a reference page', async () => {
    const paragraph = (index: number) =>
      `<p>Paragraph ${index} of the story tells how the harbour gauge was moved, checked and read again, every hour, by the same crew of three.</p>`;
    const figure =
      '<figure><img src="/gauge.jpg" alt="The gauge"><figcaption>The gauge at low tide, seen from the pier. Credit: Harbour Office</figcaption></figure>';
    // A gallery's caption and credit, named by class, beside a picture loaded by script.
    const gallery =
      '<div class="gallery-item"><div class="lazy-image" data-src="/crew.jpg"></div><div class="caption">The crew of three reads the gauge at noon.</div>' +
      '<span class="photo-credit">Photo: Harbour Office</span></div>';
    // What sites also call a caption: the line under a heading, and a long block.
    const subtitle =
      '<div class="title-item"><h2>How the gauge is read</h2><span class="title-item-caption">Every hour, by the same crew.</span></div>';
    const long = `<div class="caption-block">${Array.from({ length: 60 }, (_, index) => `word${index}`).join(' ')}</div>`;
    const page = (type: string) =>
      `<!doctype html><html><head><title>The gauge</title><meta property="og:type" content="${type}"></head><body><article>` +
      `<h1>The gauge</h1>${paragraph(0)}${figure}${paragraph(1)}${gallery}${paragraph(2)}${subtitle}${paragraph(3)}${long}` +
      `${Array.from({ length: 5 }, (_, index) => paragraph(index + 4)).join('')}</article></body></html>`;
    const story = await extractHtml(page('article'), 'https://news.example.org/gauge');
    expect(story.markdown).toContain('Paragraph 8 of the story');
    expect(story.markdown).not.toContain('seen from the pier');
    expect(story.markdown).not.toContain('reads the gauge at noon');
    expect(story.markdown).not.toContain('Photo: Harbour Office');
    expect(story.markdown).toContain('Every hour, by the same crew.');
    expect(story.markdown).toContain('word59');
    const reference = await extractHtml(page('website'), 'https://docs.example.org/gauge');
    expect(reference.markdown).toContain('Paragraph 8 of the story');
    expect(reference.markdown).toContain('The gauge at low tide, seen from the pier. Credit: Harbour Office');
    expect(reference.markdown).toContain('The crew of three reads the gauge at noon.');
  });

  it('reads the whole recipe when Readability found only its short introduction', async () => {
    const steps = Array.from(
      { length: 6 },
      (_, index) =>
        `<li><span>Step ${index + 1}: fold the dough${index}, rest it${index} and shape it${index} gently before baking.</span></li>`,
    ).join('');
    const html =
      '<!doctype html><html><head><title>Everyday sourdough</title><meta property="og:type" content="article"></head>' +
      '<body><header><a href="/">Bakery</a></header><main><h1>Everyday sourdough</h1>' +
      '<div class="top"><div class="wrap"><div class="intro"><p>This bread is tangy, open and easy, a loaf for every day of ' +
      'the week, with a crisp crust and soft crumb, and it keeps, wrapped, for days.</p></div></div></div>' +
      '<div class="card"><div class="recipe"><h2>Ingredients</h2><ul><li><span>500 g flour</span></li>' +
      '<li><span>350 g water</span></li><li><span>100 g starter</span></li><li><span>10 g salt</span></li></ul>' +
      `<h2>Method</h2><ol>${steps}</ol></div></div></main><footer><span>© Bakery</span></footer></body></html>`;
    const article = await extractHtml(html, 'https://bakery.example.org/sourdough');
    expect(article.text).toContain('This bread is tangy');
    expect(article.text).toContain('350 g water');
    expect(article.text).toContain('Step 6: fold the dough5');
  });
});

describe('extractHtml: a block too short to be a story', () => {
  // The story sits where Readability does not look (a hidden panel a script opens), so its block is
  // the newsletter box; Defuddle's article of the whole page holds the story.
  const page = (boxWords: number) => {
    const paragraphs = Array.from(
      { length: 12 },
      (_, index) =>
        `<p>Paragraph ${index} of the garden column says how shrub ${index} grows, when to plant it and how to prune it.</p>`,
    ).join('');
    const box = Array.from({ length: boxWords }, (_, index) => `newsletter${index}`).join(' ');
    return (
      '<!doctype html><html><head><title>Evergreens</title><meta property="og:type" content="article"></head>' +
      `<body><header><a href="/">Echo</a></header><div hidden class="story"><article><h1>Evergreens</h1>${paragraphs}</article></div>` +
      `<div class="signup"><p>${box}</p></div></body></html>`
    );
  };

  it('gives way to the whole page’s article under 50 words, and stays from 50 on', async () => {
    const short = await extractHtml(page(49), 'https://news.example.org/garden');
    expect(short.text).toContain('Paragraph 11 of the garden column');
    expect(short.text).not.toContain('newsletter0');
    const box = await extractHtml(page(50), 'https://news.example.org/garden');
    expect(box.text).toContain('newsletter49');
    expect(box.text).not.toContain('Paragraph 0 of the garden column');
  });
});

describe('extractHtml: pages that spread their content over sections', () => {
  const sentences = (topic: string, count: number) =>
    Array.from(
      { length: count },
      (_, index) =>
        `${topic} note ${index + 1} says how the service handles ${topic.toLowerCase()} for every team.`,
    ).join(' ');
  const section = (title: string, name: string) =>
    `<section class="${name}"><div class="container"><h2>${title}</h2><p>${sentences(title, 3)}</p></div></section>`;
  /** A landing page: a hero, feature sections and one `<article>`, which Defuddle takes for the content. */
  const landing = (head: string) =>
    `<!doctype html><html><head><title>Acme Payroll</title>${head}</head><body>
<header><nav><a href="/">Home</a> <a href="/pricing">Pricing</a></nav></header>
<main><section class="hero"><h1>Payroll for small teams</h1><p>${sentences('Payroll', 2)}</p></section>
${section('Time tracking', 'feature-grid')}${section('Benefits', 'feature-grid')}
<div class="content"><article><h2>How Acme runs payroll</h2><p>${sentences('Onboarding', 6)}</p></article></div>
${section('Tax filing', 'testimonial')}${section('Support', 'faq')}</main>
<footer><p>Copyright Acme Company</p></footer></body></html>`;

  /** The landing page read as its region: every section's heading, the one Defuddle kept among them. */
  const expectEverySection = (article: { stage: string; markdown: string }) => {
    expect(article.stage).toBe('cleaned-body');
    for (const heading of [
      '# Payroll for small teams',
      '## Time tracking',
      '## How Acme runs payroll',
      '## Support',
    ])
      expect(article.markdown).toContain(heading);
  };

  it('reads every section of a page when Defuddle kept one of them', async () => {
    const article = await extractHtml(
      landing('<meta property="og:type" content="website">'),
      'https://acme.example/',
    );
    expectEverySection(article);
    expect(article.text).not.toContain('Pricing');
    expect(article.text).not.toContain('Copyright Acme');
    expect(article.title).toBe('Acme Payroll');
  });

  it('keeps the header and footer of each section, and drops the page’s', async () => {
    // The whole page sits in a <section>: its header is still the one with the search.
    let page = landing('')
      .replace(
        '<article>',
        '<article><header role="banner"><p>Sponsored banner</p></header><header hidden><p>Hidden header</p></header>',
      )
      .replace(
        '<main>',
        '<main><section class="page"><header><form role="search"><input name="q"></form><p>Find a plan</p></header>',
      )
      .replace('</main>', '</section></main>');
    const titles = ['Time tracking', 'Benefits', 'Tax filing', 'Support'];
    for (const title of titles) {
      page = page
        .replace(`<h2>${title}</h2>`, `<header><h2>${title}</h2><p>${title} pitch.</p></header>`)
        .replace(/(<\/p>)(<\/div><\/section>)/, `$1<footer><p>${title} is in every plan.</p></footer>$2`);
    }
    const article = await extractHtml(page, 'https://acme.example/');
    expect(article.stage).toBe('cleaned-body');
    for (const title of titles) {
      expect(article.markdown).toContain(`## ${title}`);
      expect(article.text).toContain(`${title} pitch.`);
      expect(article.text).toContain(`${title} is in every plan.`);
    }
    // The page's own header and footer go, and so do a section's banner and hidden header.
    for (const chrome of ['Pricing', 'Find a plan', 'Copyright', 'Sponsored banner', 'Hidden header'])
      expect(article.text).not.toContain(chrome);
  });

  it('reads a page wrapped in one form, and still drops the forms inside it', async () => {
    // ASP.NET Web Forms: the whole body is one <form> (no <main>), the site search another inside it.
    const page = landing('')
      .replace('<body>', '<body><form id="aspnetForm" method="post" action="./">')
      .replace('</body>', '</form></body>')
      .replace('<main>', '<div class="page">')
      .replace(
        '</main>',
        '<form role="search"><label>Search the help centre</label><input name="q"></form></div>',
      );
    const article = await extractHtml(page, 'https://acme.example/');
    expectEverySection(article);
    for (const chrome of ['Pricing', 'Copyright', 'Search the help centre'])
      expect(article.text).not.toContain(chrome);
  });

  it('leaves the readers’ comments out of the region', async () => {
    const comment = (author: string) =>
      `<li class="comment"><p>${author} wrote: the payroll export saved our finance team a whole afternoon.</p></li>`;
    const page = landing('').replace(
      '</main>',
      `<section class="commentary"><h2>Editor’s commentary</h2><p>${sentences('Commentary', 2)}</p></section>` +
        `<div id="comments" class="comments-area"><h2>3 comments</h2><ol class="commentlist">` +
        `${comment('Ana')}${comment('Ben')}${comment('Cleo')}</ol></div></main>`,
    );
    const article = await extractHtml(page, 'https://acme.example/');
    expect(article.stage).toBe('cleaned-body');
    expect(article.markdown).toContain('## Support');
    // A name that only starts with the word is not a comment section.
    expect(article.markdown).toContain('## Editor’s commentary');
    expect(article.text).not.toContain('3 comments');
    expect(article.text).not.toContain('wrote:');
  });

  it('keeps the comments of a page that is the discussion', async () => {
    const reply = (author: string) =>
      `<li class="comment"><p>${author}: ${sentences(`${author} replies`, 3)}</p></li>`;
    const page = `<!doctype html><html><head><title>Payroll exports | Board</title></head><body>
<header><nav><a href="/">Board</a> <a href="/new">New</a></nav></header>
<main><div class="post"><h1>Payroll exports now come as CSV</h1><p>${sentences('Export', 4)}</p></div>
<ul class="comments">${['Ana', 'Ben', 'Cleo', 'Dev'].map(reply).join('')}</ul></main>
<footer>Board is run by its readers.</footer></body></html>`;
    const article = await extractHtml(page, 'https://board.example/post/1');
    expect(article.text).toContain('Export note 4');
    for (const author of ['Ana', 'Ben', 'Cleo', 'Dev'])
      expect(article.text).toContain(`${author} replies note 3`);
    expect(article.text).not.toContain('run by its readers');
  });

  it('keeps Defuddle’s article on a product’s page, whatever declares the product', async () => {
    for (const head of [
      '<script type="application/ld+json">{"@context":"https://schema.org","@type":"Product","name":"Acme Payroll"}</script>',
      '<meta property="og:type" content="product">',
    ]) {
      const article = await extractHtml(landing(head), 'https://acme.example/');
      expect(article.stage).toBe('defuddle');
      expect(article.text).toContain('Onboarding note 6');
      expect(article.text).not.toContain('Tax filing note 1');
    }
  });

  it('takes the region below half its words, keeps Defuddle’s article from half on', async () => {
    const region = Array.from({ length: 40 }, (_, index) => `word${index}`);
    const page = (markup: string) =>
      parseHTML(`<!doctype html><html><body><header>Menu</header><main>${markup}</main></body></html>`)
        .document as unknown as Document;
    const article = (count: number) => region.slice(0, count).join(' ');
    const spaced = page(`<p>${region.join(' ')}</p>`);
    // Paragraphs without a space between them: their words never run together in the count.
    const packed = page(region.map((word) => `<p>${word}</p>`).join(''));
    for (const document of [spaced, packed]) {
      expect(await spreadContent(document, url, article(SPREAD_MIN_SHARE * 40))).toBeUndefined();
      const spread = await spreadContent(document, url, article(SPREAD_MIN_SHARE * 40 - 1));
      expect(spread?.text.match(/word\d+/g)).toEqual(region);
      expect(spread?.text).not.toContain('Menu');
    }
  });
});

describe('extractHtml: a story Readability kept in parts', () => {
  const trees = [
    'alder',
    'birch',
    'cedar',
    'dogwood',
    'elm',
    'fir',
    'ginkgo',
    'hazel',
    'ivy',
    'juniper',
    'larch',
    'maple',
  ];
  const prose = (step: number, count: number) =>
    Array.from(
      { length: count },
      (_, index) =>
        `Step ${step}-${index} splits ${trees[(step * 3 + index) % 12]} logs, stacks them bark up, and dries ${trees[(step + index * 5) % 12]} kindling, says ranger ${step * 10 + index}.`,
    ).join(' ');
  // Readability's first pass strips sections whose class says "extra" as unlikely content; Defuddle
  // keeps them. Readability's block is then the other steps, spread through the guide.
  const guide = (extraSentences: number, blockSentences = 2) => {
    const section = (step: number) =>
      step % 2
        ? `<section class="tip"><h2>Step ${step}</h2><p>${prose(step, blockSentences)}</p></section>`
        : `<section class="extra-tip"><h2>Step ${step}</h2><p>${prose(step, extraSentences)}</p></section>`;
    return (
      '<!doctype html><html><head><title>Campfires</title><meta property="og:type" content="article"></head><body>' +
      '<header><nav><a href="/">Home</a></nav></header><main><h1>How to build a campfire</h1>' +
      `<div class="guide">${Array.from({ length: 10 }, (_, index) => section(index + 1)).join('')}</div></main>` +
      '<footer>Copyright</footer></body></html>'
    );
  };
  const steps = (text: string) => text.match(/Step \d+-0/g);

  it('reads the whole guide when the block is a small part of the page’s prose and runs through Defuddle’s article', async () => {
    const article = await extractHtml(guide(3), 'https://outdoors.example/campfire');
    expect(article.stage).toBe('defuddle');
    expect(steps(article.text)).toEqual(Array.from({ length: 10 }, (_, index) => `Step ${index + 1}-0`));
    expect(article.text).not.toContain('Copyright');
  });

  it('keeps the block from FRAGMENT_MAX_SHARE of the page’s prose on, reads the guide below it', async () => {
    expect(FRAGMENT_MAX_SHARE).toBe(0.8);
    // Five steps of five sentences beside five of one: the block holds just over four fifths of the
    // page's prose (its title and the other steps' headings count too); with four sentences, under.
    const kept = await extractHtml(guide(1, 5), 'https://outdoors.example/campfire');
    expect(steps(kept.text)).toEqual(['Step 1-0', 'Step 3-0', 'Step 5-0', 'Step 7-0', 'Step 9-0']);
    const whole = await extractHtml(guide(1, 4), 'https://outdoors.example/campfire');
    expect(whole.stage).toBe('defuddle');
    expect(steps(whole.text)).toEqual(Array.from({ length: 10 }, (_, index) => `Step ${index + 1}-0`));
  });

  describe('holdsSpreadBlock', () => {
    const block = Array.from({ length: 100 }, (_, index) => `b${index}`);
    const extra = (count: number, from = 0) =>
      Array.from({ length: count }, (_, index) => `x${from + index}`);
    const article = (list: string[]) => ({
      markdown: list.join(' '),
      text: list.join(' '),
      title: undefined,
    });
    const split = (middle: string[], before: string[] = [], after: string[] = []) =>
      article([...before, ...block.slice(0, 50), ...middle, ...block.slice(50), ...after]);

    it('needs FRAGMENT_MIN_GROWTH times the block’s words', () => {
      expect(FRAGMENT_MIN_GROWTH * block.length).toBe(120);
      expect(holdsSpreadBlock(split(extra(20)), block.join(' '))).toBe(true);
      expect(holdsSpreadBlock(split(extra(19)), block.join(' '))).toBe(false);
    });

    it('needs the block to start and end within FRAGMENT_MAX_EDGE of the article’s ends', () => {
      // 200 words: the edge is 30 words at either end.
      expect(FRAGMENT_MAX_EDGE * 200).toBe(30);
      expect(holdsSpreadBlock(split(extra(40), extra(30, 100), extra(30, 200)), block.join(' '))).toBe(true);
      expect(holdsSpreadBlock(split(extra(39), extra(31, 100), extra(30, 200)), block.join(' '))).toBe(false);
      expect(holdsSpreadBlock(split(extra(39), extra(30, 100), extra(31, 200)), block.join(' '))).toBe(false);
      // A block at the start of a longer article (a story with related posts after it) stays.
      expect(holdsSpreadBlock(split([], [], extra(100)), block.join(' '))).toBe(false);
    });

    it('needs most of the block in the article', () => {
      const changed = [...block.slice(0, 50), ...extra(50, 500)];
      expect(holdsSpreadBlock(split(extra(40)), changed.join(' '))).toBe(false);
    });
  });
});

describe('extractHtml: a discussion declared an article', () => {
  const birds = ['auk', 'bittern', 'curlew', 'dunlin', 'eider', 'fulmar', 'gannet', 'heron', 'ibis'];
  const sentences = (comment: number, count: number) =>
    Array.from(
      { length: count },
      (_, index) =>
        `Comment ${comment}-${index} counts ${birds[(comment + index) % 9]}${comment} nests, ${comment * 20 + index} pairs near ledge${comment}${index}.`,
    ).join(' ');
  // A link aggregator's thread: the story is a link, the page is its comments, each reply nested in
  // the subtree of the comment it answers. Readability keeps the longest comment, a reply.
  const thread = (longest: number) => {
    const comment = (index: number, replies: number[]): string =>
      '<li class="comments_subtree"><div class="comment">' +
      `<div class="details"><a href="/~reader${index}">reader${index}</a> 3 hours ago</div>` +
      `<div class="comment_text"><p>${sentences(index, index === longest ? 16 : 4)}</p></div></div>` +
      `<ol class="comments">${replies.map((reply) => comment(reply, [])).join('')}</ol></li>`;
    return (
      '<!doctype html><html><head><title>Seabird census results | Linkboard</title>' +
      '<meta property="og:type" content="article"></head><body>' +
      '<header><nav><a href="/">Linkboard</a> <a href="/recent">Recent</a></nav></header><main>' +
      '<div class="story"><a href="https://birds.example.org/census">Seabird census results</a> birds.example.org</div>' +
      `<ol class="comments">${comment(1, [2, 3])}${comment(4, [5, 6])}${comment(7, [8, 9])}</ol>` +
      '</main><footer>About Linkboard</footer></body></html>'
    );
  };

  it('reads every comment when Readability kept one of them', async () => {
    const article = await extractHtml(thread(5), 'https://linkboard.example/s/census');
    expect(article.text.match(/Comment \d-0/g)).toEqual(
      Array.from({ length: 9 }, (_, index) => `Comment ${index + 1}-0`),
    );
    expect(article.text).toContain('Comment 5-15');
    expect(article.text).not.toContain('About Linkboard');
  });
});
