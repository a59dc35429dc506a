import { isUsableArticle } from './choose-article.js';
import { markupPieces, markupWithout } from './markup-pieces.js';

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
/** The id attribute of an application mount element, inside its opening tag. */
const MOUNT_ID = new RegExp(`\\bid\\s*=\\s*["']?${MOUNT_IDS}["'\\s>]`, 'i');
const MOUNT_ELEMENTS = new Set(['div', 'main', 'section', 'app-root']);
/** An end tag of a mount element, right where the mount's short text ends. */
const MOUNT_END = /<\/(?:div|main|section|app-root)>/iy;
const ANGULAR_END = /<\/app-root>/iy;
/** Opening tags named as the markup's pieces name them (the name runs to the first other character). */
const ANGULAR_OPENING = /<app-root(?![a-zA-Z0-9:-])/i;
const NOSCRIPT_OPENING = /<noscript(?![a-zA-Z0-9:-])/i;
/** At most this much text (a "Loading…") may sit in an otherwise empty mount element. */
const MOUNT_TEXT_MAX_CHARS = 80;
/**
 * Markup a client-rendering framework leaves for its scripts: Next.js, Nuxt, Redux and Apollo state,
 * Angular, React, Vue and SvelteKit attributes, and Discourse's preload store (`#data-preloaded`),
 * whose app view sends a thread's posts by script.
 */
const FRAMEWORK_STATE =
  /\bid\s*=\s*["']?__NEXT_DATA__|window\.__NUXT__|__INITIAL_STATE__|__APOLLO_STATE__|\bng-version\s*=|\bdata-reactroot\b|\bdata-server-rendered\b|\bdata-sveltekit-|\bdata-v-app\b|\bid\s*=\s*["']?data-preloaded\b/i;
const JAVASCRIPT_REQUIRED =
  /\b(enable|turn on|activate)\s+javascript\b|\bjavascript\s+(is\s+)?(required|disabled|must be enabled|needs to be enabled)\b|\brequires?\s+javascript\b|\bneed(s)?\s+javascript\b/i;
const EXTERNAL_SOURCE = /\bsrc\s*=/i;
const JSON_LD_TYPE = /\btype\s*=\s*["']?application\/ld\+json/i;
/** Elements whose content a reader never sees as page text. */
const INVISIBLE_BLOCKS = new Set([
  'script',
  'style',
  'noscript',
  'template',
  'svg',
  'head',
  'iframe',
  'object',
]);
const SCRIPT_BLOCKS = new Set(['script']);
const NOSCRIPT_BLOCKS = new Set(['noscript']);
const NO_BLOCKS = new Set<string>();
const ENTITY = /&(?:#\d+|#x[\da-f]+|[a-z]+);/gi;
const WHITESPACE = /\s+/g;

/** Characters of `text` with each run of whitespace counted as one and the ends trimmed. */
export function collapsedLength(text: string): number {
  return text.replace(WHITESPACE, ' ').trim().length;
}

/** The page's visible text, roughly: markup, scripts, styles and comments removed, entities as one character. */
function visibleText(html: string): string {
  const bodyStart = html.search(/<body\b/i);
  const body = bodyStart === -1 ? html : html.slice(bodyStart);
  return markupWithout(body, INVISIBLE_BLOCKS).replace(ENTITY, '.');
}

/** Inline script characters (JSON-LD data aside) and the number of external scripts. */
function scripts(html: string): { inlineChars: number; external: number } {
  let inlineChars = 0;
  let external = 0;
  for (const piece of markupPieces(html, SCRIPT_BLOCKS)) {
    if ((piece.kind !== 'block' && piece.kind !== 'tag') || piece.name !== 'script') continue;
    const openingEnd = piece.kind === 'block' ? piece.contentStart : piece.end;
    if (EXTERNAL_SOURCE.test(html.slice(piece.start, openingEnd))) external++;
    if (piece.kind !== 'block') continue;
    if (JSON_LD_TYPE.test(html.slice(piece.start, Math.min(piece.end, piece.start + 200)))) continue;
    inlineChars += piece.contentEnd - piece.contentStart;
  }
  return { inlineChars, external };
}

/** Whether some `<noscript>` says that the page needs JavaScript. */
function noscriptRequiresJavascript(html: string): boolean {
  if (!NOSCRIPT_OPENING.test(html)) return false;
  for (const piece of markupPieces(html, NOSCRIPT_BLOCKS)) {
    if (piece.kind !== 'block') continue;
    if (JAVASCRIPT_REQUIRED.test(markupWithout(html.slice(piece.contentStart, piece.contentEnd), NO_BLOCKS)))
      return true;
  }
  return false;
}

/**
 * Whether the page has an application mount element holding at most a short text and no element
 * (`<div id="root"></div>`, `<div id="app">Loading…</div>`, Angular's `<app-root></app-root>`).
 * Every tag counts, those inside scripts too: a shell may carry its mount in a template string.
 */
function hasEmptyMount(html: string): boolean {
  // A mount's opening tag holds one of the ids, or is Angular's: without either, no tag needs a look.
  if (!MOUNT_ID.test(html) && !ANGULAR_OPENING.test(html)) return false;
  for (const piece of markupPieces(html, NO_BLOCKS)) {
    if (piece.kind !== 'tag' || !MOUNT_ELEMENTS.has(piece.name)) continue;
    const mount = MOUNT_ID.test(html.slice(piece.start, piece.end));
    const angular = piece.name === 'app-root';
    if (!mount && !angular) continue;
    const textEnd = html.indexOf('<', piece.end);
    if (textEnd === -1 || html.slice(piece.end, textEnd).trim().length > MOUNT_TEXT_MAX_CHARS) continue;
    MOUNT_END.lastIndex = textEnd;
    ANGULAR_END.lastIndex = textEnd;
    if ((mount && MOUNT_END.test(html)) || (angular && ANGULAR_END.test(html))) return true;
  }
  return false;
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
  if (hasEmptyMount(html)) markers.push('empty-mount-point');
  if (FRAMEWORK_STATE.test(html)) markers.push('framework-state');
  if (noscriptRequiresJavascript(html)) markers.push('noscript-requires-javascript');
  const { inlineChars, external } = scripts(html);
  // An external bundle counts as a thousand characters of script: its size is unknown here.
  if (external > 0 && inlineChars + external * 1_000 >= SCRIPT_HEAVY_RATIO * Math.max(visibleChars, 1)) {
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
