import { findRecordedPage, recordedPages } from '../recorded-pages.js';
import { BadRequestError, type Route } from '../route-context.js';
import { send, sendJson } from '../send.js';

/** `/pages`: a JSON index of the recorded pages, so a test or demo can discover them. */
export const pageIndexRoute: Route = {
  pattern: '/pages',
  handle(context) {
    sendJson(
      context,
      200,
      recordedPages().map((page) => ({
        name: page.name,
        path: `/pages/${page.name}`,
        contentType: page.contentType,
        description: page.description,
      })),
    );
  },
};

/** `/pages/<name>`: a recorded page, byte for byte, with its recorded Content-Type. */
export const pageRoute: Route = {
  pattern: '/pages/:name',
  async handle(context) {
    const name = context.params['name'] ?? '';
    const page = findRecordedPage(name);
    if (!page) throw new BadRequestError(`no recorded page called "${name}"; see /pages`, 404);
    send(context, 200, { 'content-type': page.contentType }, await page.load());
  },
};
