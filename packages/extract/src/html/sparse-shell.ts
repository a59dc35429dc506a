import { isUsableArticle } from './choose-article.js';
import { findMarkers } from './markup-markers.js';
import { type MarkupPiece, markupPieces, markupWithout } from './markup-pieces.js';

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
/** At most this much text (a "Loading…") may sit in an otherwise empty mount element. */
const MOUNT_TEXT_MAX_CHARS = 80;
/**
 * Markup a client-rendering framework leaves for its scripts: Next.js, Nuxt, Redux and Apollo state,
 * Angular, React, Vue and SvelteKit attributes, and Discourse's preload store (`#data-preloaded`),
 * whose app view sends a thread's posts by script.
 */
const FRAMEWORK_STATE =
  /\bid\s*=\s*["']?__NEXT_DATA__|window\.__NUXT__|__INITIAL_STATE__|__APOLLO_STATE__|\bng-version\s*=|\bdata-reactroot\b|\bdata-server-rendered\b|\bdata-sveltekit-|\bdata-v-app\b|\bid\s*=\s*["']?data-preloaded\b/i;
/** The markup the markers need, found in one pass over the page (`findMarkers`). */
const SHELL_MARKUP = { mountId: MOUNT_ID, angularOpening: ANGULAR_OPENING, frameworkState: FRAMEWORK_STATE };
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
const NO_BLOCKS = new Set<string>();
const ENTITY = /&(?:#\d+|#x[\da-f]+|[a-z]+);/gi;
const WHITESPACE = /\s+/g;

/** Characters of `text` with each run of whitespace counted as one and the ends trimmed. */
export function collapsedLength(text: string): number {
  return text.replace(WHITESPACE, ' ').trim().length;
}

/** What {@link readMarkup} counts in its pass over the markup. */
interface MarkupCounts {
  /** Characters of the visible text after `<body`, each run of whitespace counted as one. */
  visibleChars: number;
  /** Characters of inline script (JSON-LD data aside). */
  inlineChars: number;
  /** External scripts. */
  external: number;
  /** Whether some `<noscript>` says that the page needs JavaScript. */
  requiresJavascript: boolean;
}

/**
 * Reads the markup in one pass: the page's visible text (roughly: from `<body` on, markup, scripts,
 * styles and comments taken out, an entity as one character), its scripts, and what its
 * `<noscript>`s say. A script or a `<noscript>` inside another invisible block (a template, an
 * SVG) is no part of the page.
 */
function readMarkup(html: string): MarkupCounts {
  const bodyStart = html.search(/<body\b/i);
  const counts: MarkupCounts = { visibleChars: 0, inlineChars: 0, external: 0, requiresJavascript: false };
  const visible: string[] = [];
  readPieces(html, bodyStart === -1 ? 0 : bodyStart, counts, visible);
  counts.visibleChars = collapsedLength(visible.join('').replace(ENTITY, '.'));
  return counts;
}

/**
 * Counts the pieces of `html` into `counts`, and adds those from `textFrom` on to `visible` (the
 * text, a space for anything else). A `<head>`'s scripts and `<noscript>`s count; its text is never
 * visible.
 */
function readPieces(
  html: string,
  textFrom: number,
  counts: MarkupCounts,
  visible: string[] | undefined,
): void {
  for (const piece of markupPieces(html, INVISIBLE_BLOCKS)) {
    if (visible !== undefined && piece.start >= textFrom) {
      visible.push(piece.kind === 'text' ? html.slice(piece.start, piece.end) : ' ');
    }
    if (piece.kind === 'text' || piece.kind === 'comment') continue;
    if (piece.name === 'script') countScript(html, piece, counts);
    else if (piece.kind !== 'block') continue;
    else if (piece.name === 'head') {
      readPieces(html.slice(piece.contentStart, piece.contentEnd), 0, counts, undefined);
    } else if (piece.name === 'noscript' && !counts.requiresJavascript) {
      const said = markupWithout(html.slice(piece.contentStart, piece.contentEnd), NO_BLOCKS);
      counts.requiresJavascript = JAVASCRIPT_REQUIRED.test(said);
    }
  }
}

/** Adds a script (a block, or an opening tag without end tag) to the counts. */
function countScript(
  html: string,
  piece: Extract<MarkupPiece, { kind: 'tag' | 'block' }>,
  counts: MarkupCounts,
): void {
  const openingEnd = piece.kind === 'block' ? piece.contentStart : piece.end;
  if (EXTERNAL_SOURCE.test(html.slice(piece.start, openingEnd))) counts.external++;
  if (piece.kind !== 'block') return;
  if (JSON_LD_TYPE.test(html.slice(piece.start, Math.min(piece.end, piece.start + 200)))) return;
  counts.inlineChars += piece.contentEnd - piece.contentStart;
}

/**
 * Whether the page has an application mount element holding at most a short text and no element
 * (`<div id="root"></div>`, `<div id="app">Loading…</div>`, Angular's `<app-root></app-root>`).
 * Every tag counts, those inside scripts too: a shell may carry its mount in a template string.
 */
function hasEmptyMount(html: string): boolean {
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
  const { visibleChars, inlineChars, external, requiresJavascript } = readMarkup(html);
  const markers: ShellMarker[] = [];
  const found = findMarkers(html, SHELL_MARKUP);
  // A mount's opening tag holds one of the ids, or is Angular's: without either, no tag needs a look.
  if ((found.has('mountId') || found.has('angularOpening')) && hasEmptyMount(html))
    markers.push('empty-mount-point');
  if (found.has('frameworkState')) markers.push('framework-state');
  if (requiresJavascript) markers.push('noscript-requires-javascript');
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
