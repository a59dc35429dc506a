// extractHtml on pages whose content is spread over sections, kept by Readability in parts, or
// written as a discussion: the rules that choose between the extractors' answers.
import { parseHTML } from 'linkedom';
import { describe, expect, it } from 'vitest';
import {
  FRAGMENT_MAX_EDGE,
  FRAGMENT_MAX_SHARE,
  FRAGMENT_MIN_GROWTH,
  holdsSpreadBlock,
} from './article-rules.js';
import { extractHtml } from './extract-html.js';
import {
  SPREAD_MIN_SHARE,
  STORY_MIN_TEASERS,
  STORY_MIN_WORDS,
  STORY_TEASER_RATIO,
  spreadContent,
} from './spread-content.js';

const url = 'https://docs.example.org/guide/start.html';

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

describe("spreadContent: a story in the one <article> that holds the page's <h1>", () => {
  const story = Array.from({ length: 20 }, (_, index) => `story${index}`);
  const teasers = Array.from({ length: 60 }, (_, index) => `teaser${index}`);
  const page = (markup: string) =>
    parseHTML(`<!doctype html><html><body><main>${markup}</main></body></html>`)
      .document as unknown as Document;
  const storyText = story.join(' ');

  it("measures Defuddle's article against that article, not the site around it (failing before: the teasers came in)", async () => {
    const sole = page(
      `<article><h1>The ferry</h1><p>${storyText}</p></article><div class="more"><p>${teasers.join(' ')}</p></div>`,
    );
    expect(await spreadContent(sole, url, storyText)).toBeUndefined();
    // A story's comments in articles of their own inside it do not stand beside it.
    const commented = page(
      `<article><h1>The ferry</h1><p>${storyText}</p><article class="comment"><p>reply</p></article></article><p>${teasers.join(' ')}</p>`,
    );
    expect(await spreadContent(commented, url, storyText)).toBeUndefined();
  });

  it('still reads the region when the <h1> is outside the article, or articles stand side by side', async () => {
    const outside = page(`<h1>Ferries</h1><article><p>${storyText}</p></article><p>${teasers.join(' ')}</p>`);
    expect((await spreadContent(outside, url, storyText))?.text).toContain('teaser59');
    const cards = page(
      `<article><h1>The ferry</h1><p>${storyText}</p></article><article><p>${teasers.join(' ')}</p></article>`,
    );
    expect((await spreadContent(cards, url, storyText))?.text).toContain('teaser59');
  });
});

describe('spreadContent: a story among teaser cards marked up as articles', () => {
  const words = (prefix: string, count: number) =>
    Array.from({ length: count }, (_, index) => `${prefix}${index}`).join(' ');
  const storyText = words('story', STORY_MIN_WORDS);
  const cards = (count: number, size: number) =>
    Array.from(
      { length: count },
      (_, card) =>
        `<article class="teaser"><h3><a href="/s/${card}">${words(`card${card}w`, size)}</a></h3></article>`,
    ).join('');
  const page = (markup: string) =>
    parseHTML(`<!doctype html><html><body><main>${markup}</main></body></html>`)
      .document as unknown as Document;
  const story = `<article class="story"><p>${storyText}</p></article>`;
  // Teasers of STORY_MIN_WORDS / STORY_TEASER_RATIO words: the story holds exactly the ratio.
  const teaserWords = STORY_MIN_WORDS / STORY_TEASER_RATIO;

  it("measures Defuddle's article against the story, not the feed of cards after it (failing before: the cards came in)", async () => {
    const feed = page(`${story}<section class="next"><h2>Next</h2>${cards(40, teaserWords)}</section>`);
    expect(await spreadContent(feed, url, storyText)).toBeUndefined();
    const headed = page(
      `<article class="story"><h1>The ferry</h1><p>${storyText}</p></article>${cards(40, teaserWords)}`,
    );
    expect(await spreadContent(headed, url, storyText)).toBeUndefined();
  });

  it('reads the region at the bounds: a story of fewer words, a teaser past the ratio, too few teasers, an <h1> outside', async () => {
    const short = words('story', STORY_MIN_WORDS - 1);
    const shortPage = page(`<article><p>${short}</p></article>${cards(40, teaserWords - 1)}`);
    expect((await spreadContent(shortPage, url, short))?.text).toContain('card39w0');
    const longer = page(
      `${story}${cards(39, teaserWords)}${cards(1, teaserWords + 1).replaceAll('card0w', 'last')}`,
    );
    expect((await spreadContent(longer, url, storyText))?.text).toContain('card38w0');
    const few = page(`${story}${cards(STORY_MIN_TEASERS - 1, 2 * teaserWords)}<p>${words('more', 600)}</p>`);
    expect((await spreadContent(few, url, storyText))?.text).toContain('more599');
    const enough = page(`${story}${cards(STORY_MIN_TEASERS, teaserWords)}<p>${words('more', 600)}</p>`);
    expect(await spreadContent(enough, url, storyText)).toBeUndefined();
    const outside = page(`<h1>Ferries</h1>${story}${cards(40, teaserWords)}`);
    expect((await spreadContent(outside, url, storyText))?.text).toContain('card39w0');
  });
});

describe("spreadContent: a site's sidebar and the boxes after a story are no part of the region", () => {
  const sections = Array.from({ length: 3 }, (_, group) =>
    Array.from({ length: 20 }, (_, index) => `section${group}word${index}`).join(' '),
  );
  const extras = (name: string) =>
    Array.from({ length: 30 }, (_, index) => `${name.replace(/\W/g, '')}extra${index}`).join(' ');
  const page = (markup: string) =>
    parseHTML(`<!doctype html><html><body><div id="page">${markup}</div></body></html>`)
      .document as unknown as Document;
  const body = sections
    .map((text, index) => `<section><h2>Group ${index}</h2><p>${text}</p></section>`)
    .join('');

  it('leaves out sidebars, widget areas, related posts and share bars by their whole id or class name (failing before: they came in)', async () => {
    for (const box of [
      '<div id="sidebar">',
      '<div class="widget-area">',
      '<div id="secondary">',
      '<div class="sidebar-right">',
      '<div class="related-posts">',
      '<div id="jp-relatedposts">',
      '<div class="sharedaddy">',
      '<div class="share-buttons">',
    ]) {
      const document = page(`<div id="content">${body}</div>${box}<p>${extras(box)}</p></div>`);
      const spread = await spreadContent(document, url, sections[0] as string);
      expect(spread?.text, box).toContain('section2word19');
      expect(spread?.text, box).not.toContain('extra0');
    }
  });

  it('keeps an element whose name only starts like one: a side dish, a share price, a sidebar toggle', async () => {
    for (const box of [
      '<div class="side-dish">',
      '<div class="share-price">',
      '<div class="sidebar-toggle">',
    ]) {
      const document = page(`<div id="content">${body}</div>${box}<p>${extras(box)}</p></div>`);
      const spread = await spreadContent(document, url, sections[0] as string);
      expect(spread?.text, box).toContain('extra29');
    }
  });

  it("gives Defuddle's article back when the region without its sidebar holds no more than twice its words", async () => {
    const story = sections.join(' ');
    const document = page(
      `<div id="content"><p>${story}</p></div><div id="sidebar"><p>${extras('a')} ${extras('b')} ${extras('c')}</p></div>`,
    );
    expect(await spreadContent(document, url, story)).toBeUndefined();
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
