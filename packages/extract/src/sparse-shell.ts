import { isUsableArticle } from './choose-article.js';

/**
 * Extracted text shorter than this (in characters, after whitespace is collapsed) counts as sparse.
 * A real article, forum thread or product page says more than a few sentences; an application shell
 * says "Loading…" or nothing at all.
 */
export const SPARSE_TEXT_MAX_CHARS = 200;

/**
 * Visible body text (all of it, navigation included) at or above this many characters means the
 * server already sent readable content, so the page is not a shell even when no article was found.
 */
export const SHELL_VISIBLE_TEXT_MAX_CHARS = 1_500;

/** Script bytes per visible text character from which a page counts as script-heavy. */
export const SCRIPT_HEAVY_RATIO = 20;

/** Why the markup looks like a client-rendered application. */
export type ShellMarker =
  | 'empty-mount-point'
  | 'framework-state'
  | 'noscript-requires-javascript'
  | 'script-heavy';

/** The sparse-shell signal of an HTML page: what decides whether rendering it in a browser can help. */
export interface SparseShellSignal {
  /** Characters of the extracted article text (whitespace collapsed). */
  textChars: number;
  /** Characters of the page's visible body text, outside scripts, styles and templates. */
  visibleChars: number;
  /** The client-rendering markers found in the markup (empty when it looks like an ordinary page). */
  markers: ShellMarker[];
  /** Sparse text and application markup together: a browser would likely show more. */
  sparse: boolean;
}

const MOUNT_IDS =
  '(?:root|app|__next|__nuxt|___gatsby|app-root|react-root|application|main-app|svelte|q-app)';
/** A mount element whose content is at most a short text (e.g. "Loading…") and no element. */
const EMPTY_MOUNT = new RegExp(
  `<(?:div|main|section|app-root)\\b[^>]*\\bid\\s*=\\s*["']?${MOUNT_IDS}["'\\s>][^>]*>\\s*(?:[^<]{0,80})\\s*</(?:div|main|section|app-root)>`,
  'i',
);
const ANGULAR_ROOT = /<app-root\b[^>]*>\s*(?:[^<]{0,80})<\/app-root>/i;
const FRAMEWORK_STATE =
  /\bid\s*=\s*["']?__NEXT_DATA__|window\.__NUXT__|__INITIAL_STATE__|__APOLLO_STATE__|\bng-version\s*=|\bdata-reactroot\b|\bdata-server-rendered\b|\bdata-sveltekit-|\bdata-v-app\b/i;
const NOSCRIPT = /<noscript\b[^>]*>([\s\S]*?)<\/noscript>/gi;
const JAVASCRIPT_REQUIRED =
  /\b(enable|turn on|activate)\s+javascript\b|\bjavascript\s+(is\s+)?(required|disabled|must be enabled|needs to be enabled)\b|\brequires?\s+javascript\b|\bneed(s)?\s+javascript\b/i;
const SCRIPT_BLOCK = /<script\b[^>]*>([\s\S]*?)<\/script\s*>/gi;
const EXTERNAL_SCRIPT = /<script\b[^>]*\bsrc\s*=/gi;
const INVISIBLE_BLOCK =
  /<(script|style|noscript|template|svg|head|iframe|object)\b[^>]*>[\s\S]*?<\/\1\s*>|<!--[\s\S]*?-->/gi;
const TAG = /<[^>]*>/g;
const ENTITY = /&(?:#\d+|#x[\da-f]+|[a-z]+);/gi;
const WHITESPACE = /\s+/g;

function collapsedLength(text: string): number {
  return text.replace(WHITESPACE, ' ').trim().length;
}

/** The page's visible text, roughly: markup, scripts, styles and comments removed, entities as one character. */
function visibleText(html: string): string {
  const bodyStart = html.search(/<body\b/i);
  const body = bodyStart === -1 ? html : html.slice(bodyStart);
  return body.replace(INVISIBLE_BLOCK, ' ').replace(TAG, ' ').replace(ENTITY, '.');
}

function scriptBytes(html: string): number {
  let total = 0;
  for (const match of html.matchAll(SCRIPT_BLOCK)) {
    if (/\btype\s*=\s*["']?application\/ld\+json/i.test(match[0].slice(0, 200))) continue;
    total += match[1]?.length ?? 0;
  }
  return total;
}

/** What the markup alone says: visible text length and client-rendering markers. */
export interface ShellMarkup {
  /** Characters of the page's visible body text, outside scripts, styles and templates. */
  visibleChars: number;
  /** The client-rendering markers found. */
  markers: ShellMarker[];
}

/**
 * The markup half of the signal, which needs no extraction: a page with no marker, or with
 * {@link SHELL_VISIBLE_TEXT_MAX_CHARS} or more visible characters, is never a sparse shell.
 */
export function inspectShellMarkup(html: string): ShellMarkup {
  const visibleChars = collapsedLength(visibleText(html));
  const markers: ShellMarker[] = [];
  if (EMPTY_MOUNT.test(html) || ANGULAR_ROOT.test(html)) markers.push('empty-mount-point');
  if (FRAMEWORK_STATE.test(html)) markers.push('framework-state');
  for (const match of html.matchAll(NOSCRIPT)) {
    if (JAVASCRIPT_REQUIRED.test((match[1] ?? '').replace(TAG, ' '))) {
      markers.push('noscript-requires-javascript');
      break;
    }
  }
  const externalScripts = html.match(EXTERNAL_SCRIPT)?.length ?? 0;
  // An external bundle counts as a thousand characters of script: its size is unknown here.
  if (
    externalScripts > 0 &&
    scriptBytes(html) + externalScripts * 1_000 >= SCRIPT_HEAVY_RATIO * Math.max(visibleChars, 1)
  ) {
    markers.push('script-heavy');
  }
  return { visibleChars, markers };
}

/**
 * Decides whether an HTML page is a sparse client-rendered application shell: its extracted text is
 * short (or only a loading notice), its visible text is short too, and its markup shows at least one
 * client-rendering marker: an empty mount element such as `<div id="root"></div>`, framework state
 * (`__NEXT_DATA__`, `ng-version`, …), a `<noscript>` saying JavaScript is required, or far more script
 * than text. Works on the markup as text, so it costs one pass of a few regular expressions and no
 * second parse.
 */
export function detectSparseShell(html: string, extractedText: string): SparseShellSignal {
  const textChars = collapsedLength(extractedText);
  const { visibleChars, markers } = inspectShellMarkup(html);
  const sparseText = textChars < SPARSE_TEXT_MAX_CHARS || !isUsableArticle(extractedText);
  const sparse = sparseText && visibleChars < SHELL_VISIBLE_TEXT_MAX_CHARS && markers.length > 0;
  return { textChars, visibleChars, markers, sparse };
}
