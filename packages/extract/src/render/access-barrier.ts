import type { FailureCode } from '@mono-agent/budget-policy';
import { markupWithout } from '../html/markup-pieces.js';

/**
 * A page whose visible text is at least this long is read as content even when it holds a password
 * field (a sign-in box beside an article is not a sign-in page).
 */
export const SIGN_IN_PAGE_MAX_VISIBLE_CHARS = 2_000;

/** A page that stands between the reader and the content. */
export interface AccessBarrier {
  /** `authentication_required` for sign-in walls, `access_challenge` for CAPTCHAs and bot checks. */
  code: Extract<FailureCode, 'authentication_required' | 'access_challenge'>;
  /** What was found, in words (never page content). */
  reason: string;
}

const CHALLENGE_MARKUP: readonly [RegExp, string][] = [
  [
    /\/cdn-cgi\/challenge-platform\/|\bcf-challenge\b|\bcf-turnstile\b|\bchallenge-form\b/i,
    'a bot-check challenge',
  ],
  [/\bg-recaptcha\b|\bh-captcha\b|\/recaptcha\/api|hcaptcha\.com\/1\/api|\bcaptcha\b/i, 'a CAPTCHA'],
  [/\bpx-captcha\b|\b_pxCaptcha\b|\bdatadome\b.*captcha/i, 'a CAPTCHA'],
];
const CHALLENGE_TITLE =
  /^(just a moment|attention required|access denied|are you a (robot|human)|verify(ing)? (you are|that you are) (a )?human|security check|checking your browser|one more step|pardon our interruption)\b/i;
const PASSWORD_FIELD = /<input\b[^>]*\btype\s*=\s*["']?password\b/i;
const SIGN_IN_WORDING =
  /\b(sign[\s-]?in|log[\s-]?in|login|sign[\s-]?on|authenticate|authentication required)\b/i;
const TITLE = /<title\b[^>]*>([\s\S]*?)<\/title>/i;
/** Elements whose content is not the page's visible text. */
const INVISIBLE_BLOCKS = new Set(['script', 'style', 'noscript', 'template', 'svg', 'head']);

function visibleLength(html: string): number {
  return markupWithout(html, INVISIBLE_BLOCKS).replace(/\s+/g, ' ').trim().length;
}

/**
 * Recognises a rendered page that is a clear sign-in wall or access challenge, so the renderer can
 * report it instead of passing it off as the page: a CAPTCHA or bot-check widget, a challenge title
 * ("Just a moment...", "Attention Required!"), or a short page built around a password field that
 * speaks of signing in. Nothing is clicked, typed or solved.
 */
export function detectAccessBarrier(html: string): AccessBarrier | undefined {
  const title = (TITLE.exec(html)?.[1] ?? '').replace(/\s+/g, ' ').trim();
  if (CHALLENGE_TITLE.test(title)) {
    return { code: 'access_challenge', reason: 'the page is an access challenge (challenge page title)' };
  }
  const visible = visibleLength(html);
  for (const [pattern, what] of CHALLENGE_MARKUP) {
    if (pattern.test(html) && visible < SIGN_IN_PAGE_MAX_VISIBLE_CHARS) {
      return { code: 'access_challenge', reason: `the page shows ${what}` };
    }
  }
  if (PASSWORD_FIELD.test(html) && visible < SIGN_IN_PAGE_MAX_VISIBLE_CHARS) {
    const body = markupWithout(html, INVISIBLE_BLOCKS, true);
    if (SIGN_IN_WORDING.test(title) || SIGN_IN_WORDING.test(body)) {
      return { code: 'authentication_required', reason: 'the page asks to sign in (password form)' };
    }
  }
  return undefined;
}
