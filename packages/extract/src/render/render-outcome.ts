import { WebToolError } from '@mono-agent/budget-policy';
import { detectAccessBarrier } from './access-barrier.js';
import type { BrowserStepFailure } from './browser-step.js';

/**
 * What a browser step that failed means: a refusal when the domain filter stopped it, or when the
 * browser has since left the requested origin (a step often fails because the page is navigating
 * away: its document is going, the settle wait's context is replaced); otherwise a failure. `locate`
 * asks the browser which URL its tab shows.
 */
export async function stepFailure(
  error: BrowserStepFailure,
  target: URL,
  locate: () => Promise<string | undefined>,
): Promise<WebToolError> {
  const text = error.message;
  if (/domain filter|not in the allowed domains|ERR_NAME_NOT_RESOLVED|ERR_BLOCKED/i.test(text)) {
    return new WebToolError({
      code: 'policy_denied',
      message: 'the page tried to send the browser to another host; the render was stopped there',
      details: { rule: 'render-origin' },
    });
  }
  const location = await locate();
  // Only a page's address counts: a tab on no page (`about:blank`) has not left for anywhere.
  if (location !== undefined && /^https?:/i.test(location) && originOf(location) !== target.origin)
    return leftOrigin();
  return new WebToolError({
    code: 'backend_unavailable',
    message: `the browser could not render the page: ${text}`,
    details: { reason: 'render_failed' },
  });
}

/**
 * The page `read` found, which is run once more after `pause` when it found no page: a
 * navigation the page started may be landing, and the second read sees where it landed.
 */
export async function readWithRetry(
  read: () => Promise<PageRead>,
  pause: () => Promise<void>,
): Promise<PageRead> {
  try {
    return await read();
  } catch (error) {
    if (!WebToolError.isInstance(error, 'backend_unavailable')) throw error;
    await pause();
    return read();
  }
}

/**
 * What a render reads the page with: the document's own URL and its HTML, taken in one task of the
 * page, so both are of one document (a navigation cannot land between them). A document being
 * replaced has no root element; its HTML is then empty.
 */
export const READ_PAGE_EXPRESSION =
  '[location.href, document.documentElement ? document.documentElement.outerHTML : ""]';

/** The origin of `url`, or undefined when it is no URL. */
export function originOf(url: string): string | undefined {
  try {
    return new URL(url).origin;
  } catch {
    return undefined;
  }
}

/** The refusal of a render whose page sent the browser to another origin before it was read. */
export function leftOrigin(): WebToolError {
  return new WebToolError({
    code: 'policy_denied',
    message:
      'the page sent the browser to another origin while it was rendered; the render was stopped there and nothing of that origin was read',
    details: { rule: 'render-origin' },
  });
}

/** Refuses a page the browser ended on another origin than the one requested (or on no URL at all). */
export function assertSameOrigin(finalUrl: string, target: URL): void {
  if (originOf(finalUrl) !== target.origin) {
    throw new WebToolError({
      code: 'policy_denied',
      message: 'the browser ended on another origin than the one requested; its page was not read',
      details: { rule: 'render-origin' },
    });
  }
}

/** What one read of the page found: its document's URL and its HTML. */
export interface PageRead {
  pageUrl: string;
  html: string;
}

/**
 * The page a read ({@link READ_PAGE_EXPRESSION}) found, refused as no page content when it found no
 * HTML (the step is then worth running once more, {@link readWithRetry}).
 */
export function pageContent(evaluated: Record<string, unknown>): PageRead {
  const [pageUrl, html] = Array.isArray(evaluated.result) ? evaluated.result : [];
  if (typeof html !== 'string' || html === '') {
    throw new WebToolError({
      code: 'backend_unavailable',
      message: 'the browser returned no page content',
      details: { reason: 'render_failed' },
    });
  }
  return { pageUrl: typeof pageUrl === 'string' ? pageUrl : '', html };
}

/**
 * The HTML of a page read on a tab that shows the requested origin, refused when the document read is
 * of another origin (a page there, or the error page of a navigation that failed: the tab shows the
 * address it tried, the document an error page's own) or is an access barrier.
 */
export function readablePage(page: PageRead, target: URL): string {
  if (originOf(page.pageUrl) !== target.origin) {
    if (/^https?:/i.test(page.pageUrl)) throw leftOrigin();
    throw new WebToolError({
      code: 'backend_unavailable',
      message: `the browser shows an error page (${page.pageUrl.split(/[/?#]/)[0] || 'no address'}) instead of the page: a navigation of the page failed to load`,
      details: { reason: 'render_failed' },
    });
  }
  const barrier = detectAccessBarrier(page.html);
  if (barrier !== undefined) {
    throw new WebToolError({
      code: barrier.code,
      message: barrier.reason,
      details: { rule: 'rendered-page' },
    });
  }
  return page.html;
}
