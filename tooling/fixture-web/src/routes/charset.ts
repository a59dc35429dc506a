import { FIXTURE_CHARSETS } from '../charset-pages/charset-documents.js';
import { CHARSET_VARIANTS, describeCharsetPage, loadCharsetPage } from '../charset-pages/charset-variants.js';
import { BadRequestError, type Route } from '../route-context.js';
import { send } from '../send.js';

/**
 * `/charset/<charset>/<variant>`: the article of that charset, in bytes of that charset, declared the
 * way `variant` says. The same pages are at `/pages/<charset>-<variant>`.
 */
export const charsetRoute: Route = {
  pattern: '/charset/:charset/:variant',
  async handle(context) {
    const charset = context.params['charset'] ?? '';
    const variant = context.params['variant'] ?? '';
    const page = describeCharsetPage(charset, variant);
    if (!page) {
      throw new BadRequestError(
        `no page for charset "${charset}" and variant "${variant}"; charsets: ${FIXTURE_CHARSETS.join(', ')}; ` +
          `variants: ${CHARSET_VARIANTS.join(', ')} (bom and bom-conflict only for utf-8)`,
        404,
      );
    }
    send(context, 200, { 'content-type': page.contentType }, await loadCharsetPage(page));
  },
};
