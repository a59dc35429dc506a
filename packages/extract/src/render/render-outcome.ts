import { WebToolError } from '@mono-agent/budget-policy';
import { detectAccessBarrier } from './access-barrier.js';
import type { BrowserStepFailure } from './browser-step.js';

/** What a browser step that failed means for the render: a refusal of the domain filter, or a failure. */
export function stepFailure(error: BrowserStepFailure): WebToolError {
  const text = error.message;
  if (/domain filter|not in the allowed domains|ERR_NAME_NOT_RESOLVED|ERR_BLOCKED/i.test(text)) {
    return new WebToolError({
      code: 'policy_denied',
      message: 'the page tried to send the browser to another host; the render was stopped there',
      details: { rule: 'render-origin' },
    });
  }
  return new WebToolError({
    code: 'backend_unavailable',
    message: `the browser could not render the page: ${text}`,
    details: { reason: 'render_failed' },
  });
}

/** Refuses a page the browser ended on another origin than the one requested (or on no URL at all). */
export function assertSameOrigin(finalUrl: string, target: URL): void {
  let finalOrigin: string | undefined;
  try {
    finalOrigin = new URL(finalUrl).origin;
  } catch {
    finalOrigin = undefined;
  }
  if (finalOrigin !== target.origin) {
    throw new WebToolError({
      code: 'policy_denied',
      message: 'the browser ended on another origin than the one requested; its page was not read',
      details: { rule: 'render-origin' },
    });
  }
}

/** The rendered page's HTML, refused when the browser returned none or the page is an access barrier. */
export function readablePage(evaluated: Record<string, unknown>): string {
  const html = typeof evaluated.result === 'string' ? evaluated.result : '';
  if (html === '') {
    throw new WebToolError({
      code: 'backend_unavailable',
      message: 'the browser returned no page content',
      details: { reason: 'render_failed' },
    });
  }
  const barrier = detectAccessBarrier(html);
  if (barrier !== undefined) {
    throw new WebToolError({
      code: barrier.code,
      message: barrier.reason,
      details: { rule: 'rendered-page' },
    });
  }
  return html;
}
