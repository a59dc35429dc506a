import { renderAtomFeed, renderRssFeed } from '../content/feeds.js';
import { renderInvalidJson, renderJson, renderPlainText } from '../content/json-documents.js';
import { fixturePdf } from '../content/pdf-document.js';
import { renderSitemap } from '../content/sitemap.js';
import { findRecordedPage } from '../recorded-pages.js';
import { BadRequestError, type Route } from '../route-context.js';
import { send } from '../send.js';

/** What `/content/<kind>` serves for one kind. */
interface ContentKind {
  readonly contentType: string;
  render(origin: string): string | Buffer | Promise<Buffer>;
}

/** The document kinds of `/content/<kind>` with their Content-Type. */
export const CONTENT_KINDS = {
  json: { contentType: 'application/json', render: renderJson },
  'json-invalid': { contentType: 'application/json', render: renderInvalidJson },
  xml: { contentType: 'application/xml; charset=utf-8', render: renderSitemap },
  rss: { contentType: 'application/rss+xml; charset=utf-8', render: renderRssFeed },
  atom: { contentType: 'application/atom+xml; charset=utf-8', render: renderAtomFeed },
  pdf: { contentType: 'application/pdf', render: fixturePdf },
  text: { contentType: 'text/plain; charset=utf-8', render: renderPlainText },
  html: { contentType: 'text/html; charset=utf-8', render: () => findRecordedPage('news-article')!.load() },
} as const satisfies Record<string, ContentKind>;

/** One of the keys of `CONTENT_KINDS`. */
export type ContentKindName = keyof typeof CONTENT_KINDS;

/** `/content/<kind>`: one document of each common kind, links in it pointing back at this fixture. */
export const contentRoute: Route = {
  pattern: '/content/:kind',
  async handle(context) {
    const name = context.params['kind'] ?? '';
    if (!Object.hasOwn(CONTENT_KINDS, name)) {
      throw new BadRequestError(
        `unknown content kind "${name}"; one of ${Object.keys(CONTENT_KINDS).join(', ')}`,
        404,
      );
    }
    const kind: ContentKind = CONTENT_KINDS[name as ContentKindName];
    const body = await kind.render(context.url.origin);
    send(context, 200, { 'content-type': kind.contentType }, body);
  },
};
