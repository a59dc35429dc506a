import { describe, expect, it } from 'vitest';
import { extractHtml } from './extract-html.js';

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

  it('passes over a block that is a form, and reads the story beside it', async () => {
    const choice = (index: number) =>
      `<p><label for="c${index}"><input id="c${index}" type="checkbox"> Choice ${index} <small>Hear about the harbour's meetings, its walks, its film nights and its work days, as soon as they are planned, with the place and the time</small></label></p>`;
    const html =
      '<!doctype html><html><head><title>The gauge</title><meta property="og:type" content="article"></head><body>' +
      `<div id="signup"><form action="/join"><div>${Array.from({ length: 6 }, (_, index) => choice(index)).join('')}</div></form></div>` +
      '<article><h1>The gauge</h1><p>The harbour gauge was moved to the end of the pier this week, where the crew can read it every hour at any tide.</p></article></body></html>';
    const article = await extractHtml(html, 'https://news.example.org/gauge');
    expect(article.text).toContain('The harbour gauge was moved');
    expect(article.text).not.toContain('Choice 3');
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
  // the newsletter box; Defuddle's article of the whole page holds the story. The page is dated as a
  // story: one marked an article by its og:type alone is read as a page of another kind instead. The
  // hidden story holds over three quarters of the page's text, so it is kept as a page its scripts show.
  const page = (boxWords: number) => {
    const paragraphs = Array.from(
      { length: 24 },
      (_, index) =>
        `<p>Paragraph ${index} of the garden column says how shrub ${index} grows, when to plant it and how to prune it.</p>`,
    ).join('');
    const box = Array.from({ length: boxWords }, (_, index) => `newsletter${index}`).join(' ');
    return (
      '<!doctype html><html><head><title>Evergreens</title><meta property="og:type" content="article">' +
      '<meta property="article:published_time" content="2025-04-02T07:00:00Z"></head>' +
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
