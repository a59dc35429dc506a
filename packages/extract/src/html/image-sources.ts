/**
 * The most candidates an image source set keeps. The largest of 22,027 source sets on the 1,539
 * benchmark pages has 22.
 */
export const MAX_SRCSET_CANDIDATES = 32;

/**
 * The longest candidate URL a source set keeps. One of the benchmark pages' 22,027 source sets has
 * a URL over 1,024 characters (a 2,066-character inline image).
 */
export const MAX_SRCSET_URL_CHARS = 2_048;

/** A width or pixel-density descriptor, in the form the extractors read. */
const DESCRIPTOR = /^\d+(?:\.\d+)?[wx]$/;

/**
 * A value that lists an image file followed by a descriptor, as lazy-loading attributes do (the
 * pattern by which Defuddle copies such a value into `srcset`, case aside).
 */
const LISTS_IMAGE_SOURCES = /\.(?:jpe?g|png|webp)\s+\d/i;

const isSpace = (code: number) =>
  code === 0x20 || code === 0x09 || code === 0x0a || code === 0x0c || code === 0x0d;

/**
 * Rewrites an image source set (`srcset` and its lazy-loading copies) in one pass, as the HTML
 * standard splits it: URLs up to whitespace, descriptors up to a comma outside parentheses.
 * A URL over {@link MAX_SRCSET_URL_CHARS} characters is left out, or, for an inline `data:`
 * image, cut to its header; candidates past {@link MAX_SRCSET_CANDIDATES} are left out, and every
 * candidate kept ends in one width or density descriptor (`1x` when it had none). The extractors
 * read source sets with patterns that take time quadratic in a run of text they cannot split, such
 * as a long inline image without a descriptor; a rewritten set gives them none. The Markdown shows images by their alt text, so no source the
 * model could read is lost. `undefined` when no candidate is left.
 */
export function normalizeSrcset(value: string): string | undefined {
  const kept: string[] = [];
  const length = value.length;
  let at = 0;
  while (at < length && kept.length < MAX_SRCSET_CANDIDATES) {
    while (at < length && (isSpace(value.charCodeAt(at)) || value[at] === ',')) at++;
    if (at >= length) break;
    const candidate = readCandidate(value, at);
    at = candidate.next;
    const url = keptUrl(value, candidate.urlStart, candidate.urlEnd);
    if (url !== undefined) kept.push(`${url} ${candidate.descriptor ?? '1x'}`);
  }
  return kept.length === 0 ? undefined : kept.join(', ');
}

/** One candidate of a source set: where its URL stands, its descriptor, and where the next one may begin. */
interface Candidate {
  urlStart: number;
  urlEnd: number;
  descriptor: string | undefined;
  next: number;
}

/** Reads the candidate whose URL begins at `at`. */
function readCandidate(value: string, at: number): Candidate {
  const urlStart = at;
  let urlEnd = at;
  while (urlEnd < value.length && !isSpace(value.charCodeAt(urlEnd))) urlEnd++;
  const next = urlEnd;
  if (value[urlEnd - 1] === ',') {
    // A URL ending in commas ends its candidate: it has no descriptors.
    while (urlEnd > urlStart && value[urlEnd - 1] === ',') urlEnd--;
    return { urlStart, urlEnd, descriptor: undefined, next };
  }
  const descriptorsEnd = endOfDescriptors(value, next);
  const descriptor = value
    .slice(next, descriptorsEnd)
    .split(/\s+/)
    .find((token) => DESCRIPTOR.test(token));
  return { urlStart, urlEnd, descriptor, next: descriptorsEnd + 1 };
}

/** Where the descriptors that begin at `at` end: at the first comma outside parentheses, or the value's end. */
function endOfDescriptors(value: string, at: number): number {
  let depth = 0;
  let end = at;
  for (; end < value.length; end++) {
    const character = value[end];
    if (character === '(') depth++;
    else if (character === ')') depth = Math.max(0, depth - 1);
    else if (character === ',' && depth === 0) break;
  }
  return end;
}

/**
 * The URL a candidate keeps: itself when it is short enough, an over-long inline image's header;
 * undefined for an empty or over-long other URL.
 */
function keptUrl(value: string, urlStart: number, urlEnd: number): string | undefined {
  if (urlEnd === urlStart) return undefined;
  if (urlEnd - urlStart <= MAX_SRCSET_URL_CHARS) return value.slice(urlStart, urlEnd);
  if (/^data:/i.test(value.slice(urlStart, urlStart + 5))) return dataUrlHeader(value, urlStart, urlEnd);
  return undefined;
}

/** The most characters of an over-long inline image's header (`data:image/png;base64`) kept. */
const MAX_DATA_HEADER_CHARS = 128;

/**
 * What stands for an inline image too long to keep: its header without the data, so that the
 * extractors still see an inline image there (`data:` alone when it has no header of a sane size).
 */
function dataUrlHeader(value: string, start: number, end: number): string {
  const comma = value.indexOf(',', start);
  return comma === -1 || comma >= end || comma - start > MAX_DATA_HEADER_CHARS
    ? 'data:'
    : value.slice(start, comma);
}

/** Whether an attribute of an `<img>` or `<source>` holds a source set. */
function holdsSourceSet(name: string, value: string): boolean {
  if (name.endsWith('srcset')) return true;
  if (name === 'src' || name === 'alt' || name === 'title') return false;
  return LISTS_IMAGE_SOURCES.test(value);
}

/**
 * Rewrites with {@link normalizeSrcset} every source set of the document's images: `srcset`,
 * `data-srcset` and any other attribute of an `<img>` or `<source>` that holds one (lazy loaders
 * name theirs freely; the extractors copy such a value into `srcset`). An attribute with no
 * candidate left is removed.
 */
export function normalizeImageSources(document: Document): void {
  for (const element of Array.from(document.querySelectorAll('img, source, [srcset]'))) {
    for (const { name, value } of Array.from(element.attributes)) {
      if (!holdsSourceSet(name.toLowerCase(), value)) continue;
      const normalized = normalizeSrcset(value);
      if (normalized === undefined) element.removeAttribute(name);
      else if (normalized !== value) element.setAttribute(name, normalized);
    }
  }
}
