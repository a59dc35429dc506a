import { parseHTML } from 'linkedom';
import { describe, expect, it } from 'vitest';
import { pageClaims, pageKind } from './page-kind.js';

const claimsArticleLoosely = (document: Document) => pageClaims(document).looseArticle;

const page = (head: string, body = '<p>x</p>') =>
  parseHTML(`<!doctype html><html><head>${head}</head><body>${body}</body></html>`)
    .document as unknown as Document;
const OG_ARTICLE = '<meta property="og:type" content="article">';
const jsonLd = (value: unknown) => `<script type="application/ld+json">${JSON.stringify(value)}</script>`;

describe('pageKind', () => {
  it('reads news, blog and report types from JSON-LD, in arrays, graphs and full URLs', () => {
    expect(pageKind(page(jsonLd({ '@type': 'NewsArticle' })))).toBe('article');
    expect(pageKind(page(jsonLd({ '@graph': [{ '@type': 'WebSite' }, { '@type': ['BlogPosting'] }] })))).toBe(
      'article',
    );
    expect(pageKind(page(jsonLd({ '@type': 'https://schema.org/Report' })))).toBe('article');
  });

  it('reads og:type article when JSON-LD says nothing', () => {
    expect(pageKind(page(OG_ARTICLE))).toBe('article');
    expect(pageKind(page('<meta property="og:type" content="website">'))).toBe('other');
    expect(pageKind(page(''))).toBe('other');
  });

  it('reads the types of the items that stand for the page, not of items nested in them', () => {
    const app = { '@type': 'SoftwareApplication', offers: { '@type': 'Offer', price: '0' } };
    expect(pageKind(page(jsonLd(app)))).toBe('other');
    const roundup = {
      '@type': 'NewsArticle',
      itemListElement: [{ '@type': 'Product', offers: { '@type': 'Offer' } }],
      review: { '@type': 'Review', itemReviewed: { '@type': 'Product' } },
    };
    expect(pageKind(page(jsonLd(roundup)))).toBe('article');
    const shelf = {
      '@graph': [
        { '@type': 'CollectionPage' },
        { '@type': 'ItemList', itemListElement: [{ '@type': 'Product' }] },
      ],
    };
    expect(pageKind(page(jsonLd(shelf)))).toBe('other');
    // The page's main entity stands for it, and so does each member of a graph or an array.
    expect(pageKind(page(jsonLd({ '@type': 'WebPage', mainEntity: { '@type': 'Product' } })))).toBe(
      'product',
    );
    expect(pageKind(page(jsonLd({ '@type': 'WebPage', mainEntity: [{ '@type': 'QAPage' }] })))).toBe(
      'thread',
    );
    expect(pageKind(page(jsonLd([{ '@type': 'WebSite' }, { '@graph': [{ '@type': 'Offer' }] }])))).toBe(
      'product',
    );
  });

  it('lets a thread, product or reference type outweigh an article type or og:type', () => {
    const head = `<meta property="og:type" content="article">${jsonLd({ '@type': 'Article' })}`;
    for (const type of ['QAPage', 'DiscussionForumPosting']) {
      expect(pageKind(page(head + jsonLd({ '@type': type })))).toBe('thread');
    }
    for (const type of ['CollectionPage', 'TechArticle']) {
      expect(pageKind(page(head + jsonLd({ '@type': type })))).toBe('other');
    }
    for (const type of ['Product', 'ProductGroup', 'AggregateOffer']) {
      expect(pageKind(page(head + jsonLd({ '@type': type })))).toBe('product');
    }
  });

  it('reads a product from og:type and microdata unless the page declares an article', () => {
    const item =
      '<div itemscope itemtype="https://schema.org/Product"><span itemprop="name">Kettle</span></div>';
    for (const openGraph of ['product', 'og:product', 'product.item']) {
      expect(pageKind(page(`<meta property="og:type" content="${openGraph}">`))).toBe('product');
    }
    expect(pageKind(page('', item))).toBe('product');
    expect(pageKind(page(jsonLd({ '@type': 'CollectionPage' }), item))).toBe('product');
    // A story with a box of the things it recommends stays a story.
    expect(pageKind(page(jsonLd({ '@type': 'BlogPosting' }), item))).toBe('article');
    expect(pageKind(page(OG_ARTICLE, item))).toBe('article');
    // A question about a product is a thread.
    expect(pageKind(page(jsonLd([{ '@type': 'Product' }, { '@type': 'QAPage' }])))).toBe('thread');
  });

  it('reads a thread from the microdata forum engines put on their posts', () => {
    const post =
      '<div itemscope itemtype="http://schema.org/DiscussionForumPosting"><span itemprop="headline">Dues</span></div>';
    expect(pageKind(page(jsonLd({ '@type': 'WebPage' }), post))).toBe('thread');
    expect(
      pageKind(
        page(jsonLd({ '@type': 'WebPage' }), '<div itemscope itemtype="https://schema.org/Question"></div>'),
      ),
    ).toBe('other');
  });

  it('keeps an article that also carries an FAQ block or its publisher as a local business', () => {
    const head = jsonLd([{ '@type': 'NewsArticle' }, { '@type': 'FAQPage' }, { '@type': 'LocalBusiness' }]);
    expect(pageKind(page(head))).toBe('article');
  });

  it('reads invalid JSON-LD without failing, every type in its text', () => {
    expect(pageKind(page('<script type="application/ld+json">{"@type": "NewsArticle", </script>'))).toBe(
      'article',
    );
    const broken =
      '<script type="application/ld+json">{"@type": "WebPage", "about": {"@type": "Product",}}</script>';
    expect(pageKind(page(broken))).toBe('product');
    // Comments and a CDATA wrapper do not make a script unreadable.
    const wrapped = `<script type="application/ld+json">/* site */ <![CDATA[${JSON.stringify({ '@type': 'WebPage', about: { '@type': 'Product' } })}]]></script>`;
    expect(pageKind(page(wrapped))).toBe('other');
  });

  it('reads at most a bounded number of items of one script', () => {
    const graph = Array.from({ length: 5_000 }, () => ({ '@type': 'WebPage' }));
    expect(pageKind(page(jsonLd({ '@graph': [...graph, { '@type': 'Product' }] })))).toBe('other');
    expect(pageKind(page(jsonLd({ '@graph': [{ '@type': 'Product' }, ...graph] })))).toBe('product');
    // The 200th item is read and the 201st is not.
    const filler = (count: number) => Array.from({ length: count }, () => ({ '@type': 'WebPage' }));
    expect(pageKind(page(jsonLd({ '@graph': [...filler(198), { '@type': 'Product' }] })))).toBe('product');
    expect(pageKind(page(jsonLd({ '@graph': [...filler(199), { '@type': 'Product' }] })))).toBe('other');
    // A graph or a main entity of hundreds of thousands of items is read without exhausting the stack.
    const huge = Array.from({ length: 300_000 }, () => 0);
    expect(pageKind(page(jsonLd({ '@graph': huge })))).toBe('other');
    expect(pageKind(page(jsonLd([{ '@type': 'WebPage', mainEntity: huge }])))).toBe('other');
  });
});

describe('pageClaims: looseArticle', () => {
  it('is true of an article marked by og:type alone on an undated page', () => {
    expect(claimsArticleLoosely(page(OG_ARTICLE))).toBe(true);
    // A modified time is every page's; an SEO plugin's WebPage item dates every page too.
    expect(
      claimsArticleLoosely(page(`${OG_ARTICLE}<meta property="article:modified_time" content="2025-03-01">`)),
    ).toBe(true);
    expect(
      claimsArticleLoosely(page(OG_ARTICLE + jsonLd({ '@type': 'WebPage', datePublished: '2025-03-01' }))),
    ).toBe(true);
  });

  it('is false of a dated page and of a page that declares an article type', () => {
    for (const date of [
      '<meta property="article:published_time" content="2025-03-01T08:00:00Z">',
      '<meta name="article:published_time" content="2025-03-01">',
    ]) {
      expect(claimsArticleLoosely(page(OG_ARTICLE + date))).toBe(false);
    }
    expect(
      claimsArticleLoosely(page(OG_ARTICLE, '<p>Posted <time itemprop="datePublished">2 May</time></p>')),
    ).toBe(false);
    expect(
      claimsArticleLoosely(page(jsonLd({ '@graph': [{ '@type': 'WebPage' }, { '@type': 'BlogPosting' }] }))),
    ).toBe(false);
  });
});
