import { readFile } from 'node:fs/promises';
import { allCharsetPages, loadCharsetPage } from './charset-pages/charset-variants.js';

/** A page served from stored bytes, reachable as `/pages/<name>`. */
export interface RecordedPage {
  /** The name in `/pages/<name>`. */
  readonly name: string;
  /** The Content-Type header sent with it. */
  readonly contentType: string;
  /** What the page is for, shown by the `/pages` index. */
  readonly description: string;
  /** The bytes exactly as served. */
  load(): Promise<Buffer>;
}

const PAGES_DIRECTORY = new URL('./__fixtures__/pages/', import.meta.url);

/**
 * Pages that are also in extract's golden corpus are served from there, so the bytes a contract
 * test fetches are the bytes whose expected Markdown the corpus pins.
 */
const GOLDEN_PAGES_DIRECTORY = new URL('../../../packages/extract/test/pages/', import.meta.url);
const GOLDEN_PAGES = new Set([
  'accordion-product',
  'api-reference',
  'app-landing',
  'blog-sidebar',
  'code-lines',
  'comparison-tables',
  'component-paragraphs',
  'consent-centre',
  'contents-label',
  'customer-quotes',
  'docs-alerts',
  'embedded-recording',
  'emphasis-runs',
  'encyclopedia-formulas',
  'escaped-body',
  'feature-page',
  'folded-admonitions',
  'forum-author-column',
  'forum-post-authors',
  'forum-ranks',
  'forum-thread',
  'front-page',
  'guide-asides',
  'headline-code',
  'hidden-parts',
  'hover-footnotes',
  'japanese-story',
  'language-versions',
  'lazy-pictures',
  'link-discussion',
  'logo-strip',
  'news-article',
  'next-story',
  'numbered-code',
  'open-letter',
  'pricing-page',
  'product-page',
  'publisher-byline',
  'qa-hidden-counts',
  'question-answers',
  'raised-figures',
  'ranked-list-filters',
  'recipe-category',
  'repository-readme',
  'saved-mathjax-post',
  'saved-story',
  'section-front',
  'service-faq',
  'services-webforms',
  'signup-form-note',
  'shadow-cards',
  'shop-cards',
  'shop-shelf',
  'site-in-title',
  'skip-links',
  'step-boxes',
  'story-among-teasers',
  'story-beside-stream',
  'story-in-grid',
  'thread-long-opening',
  'tutorial-formulas',
  'undeclared-story',
  'uppercase-markup',
  'wire-byline',
  'wrapped-story',
]);

function articleLocation(name: string): URL {
  return GOLDEN_PAGES.has(name)
    ? new URL(`${name}/source.html`, GOLDEN_PAGES_DIRECTORY)
    : new URL(`${name}.html`, PAGES_DIRECTORY);
}

const ARTICLE_PAGES: readonly { name: string; description: string }[] = [
  { name: 'news-article', description: 'News article with cookie banner, ads, JSON-LD, figure and comments' },
  { name: 'blog-post', description: 'Blog post with a table of contents, code blocks, a table and comments' },
  {
    name: 'docs-page',
    description: 'Documentation page with sidebar navigation, tables and a definition list',
  },
  {
    name: 'forum-thread',
    description: 'Forum thread whose replies quote the first post, with signatures and author details',
  },
  { name: 'product-page', description: 'Product page with a description, a spec table and customer reviews' },
  {
    name: 'saved-story',
    description:
      'News story saved without scripts: a box before <body>, a streamed paragraph, a <noscript> copy and a banner',
  },
  {
    name: 'pricing-page',
    description: 'Pricing page that draws its plans twice, for wide and narrow screens',
  },
  {
    name: 'feature-page',
    description:
      'Product page whose feature sections fade in as the reader scrolls, under a fading menu, with an FAQ folded away',
  },
  {
    name: 'link-discussion',
    description:
      "Link aggregator's thread of nested comments that declares itself an article, its longest reply mid-thread",
  },
  {
    name: 'hidden-parts',
    description:
      'How-to article with a hidden mobile menu, a print-only notice, a hidden tooltip, a closed newsletter dialog, a folded FAQ and a section hidden until found',
  },
  {
    name: 'accordion-product',
    description:
      'Product page whose description, specifications and care notes sit in a Radix accordion marked data-orientation="vertical"',
  },
  {
    name: 'forum-ranks',
    description:
      'Forum thread whose authors carry a rank and a banner under their names and details labelled by icons with tooltips',
  },
  {
    name: 'services-webforms',
    description:
      'Services page wrapped whole in one ASP.NET form, its cards headed and closed by their own header and footer, with a comment section',
  },
  {
    name: 'app-landing',
    description:
      "Application's landing page declared a SoftwareApplication whose price is a nested Offer, with customers' testimonials",
  },
  {
    name: 'recipe-category',
    description:
      'Recipe category marked og:type=article alone and undated: a short introduction above a list of recipe cards',
  },
  {
    name: 'language-versions',
    description: 'Notice shown in English with its German and French versions hidden, two thirds of its text',
  },
  {
    name: 'undeclared-story',
    description:
      "News story on a page that declares no article, in the one <article> holding the page's <h1>, among teasers",
  },
  {
    name: 'signup-form-note',
    description:
      'Short note declared an article beside a sign-up form whose labels outnumber its words, which Readability takes for its block',
  },
  {
    name: 'embedded-recording',
    description:
      'Story with a YouTube concert and a Spotify interview embedded in frames, and an advertising frame',
  },
  {
    name: 'blog-sidebar',
    description:
      "Blog post on a page that declares nothing, beside a theme's #sidebar of text widgets and a related-posts box",
  },
  {
    name: 'repository-readme',
    description:
      'Code repository\'s page: its heading, branch bar and file list, with the README in the one <article> marked itemprop="text"',
  },
  {
    name: 'publisher-byline',
    description:
      'News story whose author tag names the site, with the writer in a byline of separate elements under a subtitle heading',
  },
  {
    name: 'japanese-story',
    description:
      "Japanese news story of three short paragraphs among the site's topic links, a teaser and a ranking of headlines",
  },
  {
    name: 'headline-code',
    description:
      'Blog post with a short dated block of YAML right under its headline, on a page that states its author',
  },
  {
    name: 'hover-footnotes',
    description:
      'Blog post whose footnotes the page hides until their marks are used: one inside its mark, two named by theirs',
  },
  {
    name: 'consent-centre',
    description:
      "News story beside a consent manager's preference centre, a modal whose legal prose outweighs the story",
  },
  {
    name: 'story-in-grid',
    description:
      'News story in a grid of bands whose hashed class names match: the story, teasers, topic links and a site map',
  },
  {
    name: 'next-story',
    description:
      'News story followed by the next story the page appends for a reader scrolling on, each in its own article',
  },
  {
    name: 'raised-figures',
    description:
      'Lab note full of superscripts and subscripts: exponents, charges, chemical formulas, ordinals and a linked footnote mark',
  },
  {
    name: 'lazy-pictures',
    description:
      'Blog post whose pictures are drawn late: placeholders beside <noscript> pictures (Next.js, lazysizes) and an analytics pixel',
  },
  {
    name: 'service-faq',
    description:
      'Service page whose FAQ questions are links that go nowhere (href="#", javascript:) a script opens',
  },
  {
    name: 'site-in-title',
    description:
      "Japanese news story whose <title> adds the site's name after a full-width colon (見出し：新聞名), the name og:site_name states",
  },
  {
    name: 'uppercase-markup',
    description:
      'Club newsletter written in 1990s HTML: capital tag and attribute names (<A HREF>, <IMG SRC>, <P CLASS>) in a layout table',
  },
  {
    name: 'ranked-list-filters',
    description:
      'A listing of rising repositories whose filter menus (a closed <details> each, items marked as ARIA menu items) hold far more words than its entries',
  },
  {
    name: 'escaped-body',
    description:
      "News story whose body and a related excerpt came escaped as text (&lt;p&gt;…), and whose picture's alt text holds a caption's markup",
  },
  {
    name: 'forum-author-column',
    description:
      "Forum thread whose author column lists each poster's group, post and reputation counts and location as lists of labelled items",
  },
  {
    name: 'folded-admonitions',
    description:
      'MkDocs documentation page whose tips and warnings are folded <details> panels classed by kind, beside one of a custom kind',
  },
  {
    name: 'docs-alerts',
    description:
      'Documentation page whose notes and warnings are Bootstrap alerts: a colour class, sometimes a title naming the kind',
  },
  {
    name: 'saved-mathjax-post',
    description:
      'Blog post saved after MathJax 2 drew its formulas, each beside its TeX source in a math/tex script; some never drawn',
  },
  {
    name: 'wrapped-story',
    description:
      "Wine column written straight into the page's wrapper, beside the site's menu, subscription prompts and videos",
  },
  {
    name: 'component-paragraphs',
    description:
      'An explainer built of components: every paragraph in three <div>s of its own, some sentences linking up to half of their words, and a "Read more" line',
  },
  {
    name: 'story-among-teasers',
    description:
      "A broadcaster's story in an <article> with no <h1>, on a page that calls itself a website, followed by a slider of sixteen teaser cards that are <article>s too",
  },
  {
    name: 'story-beside-stream',
    description:
      'News story beside a sidebar of other stories, each a microdata item with its own writer, before it in the page',
  },
  {
    name: 'section-front',
    description:
      "A newspaper's science section: a list of teasers, each with its linked headline, its writer's byline and its date",
  },
  {
    name: 'customer-quotes',
    description:
      "A removal firm's service page with its customers' testimonials and reviews, each naming its writer",
  },
  {
    name: 'front-page',
    description:
      "A newspaper's front page whose Parse.ly tags give its lead story's writer and date, with teasers under bylines",
  },
  {
    name: 'wire-byline',
    description:
      "News story whose byline starts with Print and Email links and signs its writers with the site's own name",
  },
  {
    name: 'api-reference',
    description:
      "A library's API reference whose method headings link each method's name to its own entry, one heading broken over two lines",
  },
  {
    name: 'code-lines',
    description:
      'An API reference whose samples a highlighter draws one element per line: a response as plain <div>s, a sample whose highlighted steps are named as code, numbered install lines',
  },
  {
    name: 'comparison-tables',
    description:
      "A review's comparison table whose rows are written without <tr>, and a table of readings whose cells hold their text in <p>s, as a documentation generator writes them",
  },
  {
    name: 'emphasis-runs',
    description:
      'A galley guide whose list sets bold inside bold and writes one word in two bold (or italic) elements side by side',
  },
  {
    name: 'open-letter',
    description:
      "A magazine's open letter whose signatories fill a table after it, two cells of names and affiliations",
  },
  {
    name: 'numbered-code',
    description:
      "A library's guide whose samples number their lines in a column beside the code, at the start of each line or a table row per line, one in SyntaxHighlighter's table and one in a CodeMirror editor, with VitePress's tip and danger blocks",
  },
  {
    name: 'encyclopedia-formulas',
    description:
      "An encyclopedia article whose formulas are MediaWiki's: MathML hidden for screen readers beside a picture of each, displayed ones indented in a <dl>",
  },
  {
    name: 'tutorial-formulas',
    description:
      "A library's tutorial built by Sphinx, with a Quarto report's formulas, whose formulas are TeX source between MathJax's delimiters, one numbered, and whose text refers to its own sections and equations",
  },
  {
    name: 'guide-asides',
    description:
      'A platform guide whose notes are documentation asides of a kind (<aside class="note">), each opening on a bold label, beside an aside of related guides',
  },
  {
    name: 'thread-long-opening',
    description:
      'A forum thread (Invision Community markup, declared a DiscussionForumPosting) whose opening post runs to several paragraphs and whose replies are one paragraph each',
  },
  {
    name: 'forum-post-authors',
    description:
      "A forum thread whose posts name their author and date in schema.org microdata, in a header beside an avatar and the author's group, with the date only in machine-readable form",
  },
  {
    name: 'shadow-cards',
    description:
      "A travel story whose place cards are web components, each card's text in a shadow tree declared in the HTML (<template shadowrootmode>) and its name in a slot",
  },
  {
    name: 'step-boxes',
    description:
      'A repotting guide whose tool cards share one stock picture and whose steps set each number in a box of its own',
  },
  {
    name: 'question-answers',
    description:
      'A question-and-answer page: a short question above four answers, each ending in a "Comments" label and a list of replies',
  },
  {
    name: 'shop-shelf',
    description:
      "A shop's shelf of boots whose cards write brand and name, price and note, rating and count as spans side by side",
  },
  {
    name: 'contents-label',
    description:
      'A how-to post that declares nothing, its table of contents a labelled list of links to its own sections in a column beside the text',
  },
  {
    name: 'qa-hidden-counts',
    description:
      "A Q&A site's question and answers whose posts hold spans its utility class hides: MathJax's group markers around each post and the comment count kept for microdata",
  },
  {
    name: 'skip-links',
    description:
      "A shop's collection of trail shoes whose links for keyboard users skip to its content, past its menu, past a carousel and past an advertisement, beside a skip link inside a sentence",
  },
  {
    name: 'shop-cards',
    description:
      "A small shop's page whose products are links around a picture, a title and a price, side by side",
  },
  {
    name: 'logo-strip',
    description:
      "A service page with a strip of clients' logos (one with alt text), card headings after an icon's wrapper and a picture in bold",
  },
];

// Fixture files never change while a process runs, so each is read at most once.
const loaded = new Map<string, Promise<Buffer>>();

function once(name: string, load: () => Promise<Buffer>): () => Promise<Buffer> {
  return () => {
    let bytes = loaded.get(name);
    if (!bytes) {
      bytes = load();
      loaded.set(name, bytes);
      bytes.catch(() => loaded.delete(name));
    }
    return bytes;
  };
}

function buildPages(): RecordedPage[] {
  const articles = ARTICLE_PAGES.map(
    ({ name, description }): RecordedPage => ({
      name,
      description,
      contentType: 'text/html; charset=utf-8',
      load: once(name, () => readFile(articleLocation(name))),
    }),
  );
  const charsetPages = allCharsetPages().map((page): RecordedPage => {
    const name = `${page.charset}-${page.variant}`;
    return {
      name,
      description: `${page.charset} page, charset declared by: ${page.variant}`,
      contentType: page.contentType,
      load: once(name, () => loadCharsetPage(page)),
    };
  });
  return [...articles, ...charsetPages];
}

let pages: readonly RecordedPage[] | undefined;

/** Every recorded page: the articles first, then one per charset and variant. */
export function recordedPages(): readonly RecordedPage[] {
  pages ??= buildPages();
  return pages;
}

/** The recorded page called `name`, if any. */
export function findRecordedPage(name: string): RecordedPage | undefined {
  return recordedPages().find((page) => page.name === name);
}
