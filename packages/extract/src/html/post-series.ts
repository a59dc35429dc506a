import { countWords, sharedTrigrams, trigramOverlap, trigramSet, words } from './choose-article.js';

/** Words an element needs to count as one post, answer or item of a series. */
export const SERIES_MEMBER_MIN_WORDS = 8;

/** Share of a series container's words its members must hold: a series, not chrome with a list in it. */
export const SERIES_MIN_SHARE = 0.5;

/** Share of the picked article's word trigrams that must lie inside a series' root. */
export const SERIES_MIN_OVERLAP = 0.8;

/**
 * The picked article is a part of a series when it holds less than this share of the series' words
 * (counted over its members, not over the root, which may hold chrome beside them).
 */
export const SERIES_PART_MAX_SHARE = 0.6;

/** How far above a series' container its root may sit (to take in a question beside its answers). */
const SERIES_ROOT_MAX_LEVELS = 3;

/**
 * The words that open the picked article: the first post, the question. A thread's root rises to
 * hold them when the series below holds most of the picked text but not its opening.
 */
export const SERIES_OPENING_WORDS = 12;

/**
 * The most of a post's word trigrams the picked text may share for the post to be missing from it
 * (a quotation of it in a reply shares some).
 */
export const SERIES_MISSING_MEMBER_OVERLAP = 0.2;

/**
 * The share of a series' words the posts left out of the picked text must hold for it to be a part
 * of the series though it holds most of its words: a short post or a paragraph an extractor dropped
 * leaves the thread whole enough.
 */
export const SERIES_MISSING_MIN_SHARE = 0.25;

/** A root may hold at most this much more than its series and the picked article together. */
const SERIES_ROOT_MAX_GROWTH = 1.5;

/** Elements that hold page chrome; a series inside one is never the content. */
const CHROME = new Set(['nav', 'header', 'footer', 'aside', 'menu', 'dialog']);

/** Roles of chrome: navigation, and dialogs such as a cookie consent's list of purposes. */
const CHROME_ROLES = new Set(['navigation', 'dialog', 'alertdialog']);

const ELEMENT_NODE = 1;
const TEXT_NODE = 3;

/**
 * Sibling elements of the same kind (tag and classes, numbers in class names ignored), each with
 * some text: the posts of a thread, the answers of a question, the items of a listing.
 */
interface Series {
  container: Element;
  memberWords: number;
  /** The members of the series' largest group of like siblings. */
  members: Element[];
}

/**
 * Finds where an extractor that picked one block of a page should have picked the whole series
 * that block belongs to. Extractors score blocks one by one, so on a thread, a Q&A page or a listing
 * the best-scoring block is one post (usually the question) and the answers are lost.
 *
 * `picked` is the text the extractor returned. The answer is the smallest element that holds a
 * series of at least two like siblings (each of {@link SERIES_MEMBER_MIN_WORDS} or more words,
 * together at least {@link SERIES_MIN_SHARE} of the container's words) and the picked text, where
 * the picked text has less than {@link SERIES_PART_MAX_SHARE} of the series' words. On a `thread` page the root may
 * sit up to three levels above the series (a question beside its answers), and when the picked
 * text is in no series the largest series of the page is the answer if it holds clearly more.
 * Undefined when the picked text is not part of such a series.
 */
export function findSeriesRoot(body: Element, picked: string, thread = false): Element | undefined {
  const pickedWords = words(picked);
  if (pickedWords.length === 0 && !thread) return undefined;
  const wordCounts = countElementWords(body);
  const candidates = [...findSeries(body, wordCounts, thread)].sort(
    (left, right) => (wordCounts.get(left.container) ?? 0) - (wordCounts.get(right.container) ?? 0),
  );
  let best: { root: Element; words: number } | undefined;
  for (const series of candidates) {
    if (best !== undefined && (wordCounts.get(series.container) ?? 0) >= best.words) break;
    // The picked text already holds most of this series (a thread with every answer kept), unless,
    // on a thread, it holds some posts of it whole and leaves out others that hold a good part of it
    // (an extractor that stopped after the first answer).
    if (
      pickedWords.length >= SERIES_PART_MAX_SHARE * series.memberWords &&
      !(thread && leavesPostsOut(series, pickedWords, wordCounts))
    )
      continue;
    // Only a thread's root may rise above its series: on other pages the text beside a series
    // (an article above its comments) is not a part of it.
    const levels = thread ? SERIES_ROOT_MAX_LEVELS : 0;
    best = rootHoldingPicked(series, pickedWords, wordCounts, levels, best) ?? best;
  }
  if (best !== undefined || !thread) return best?.root;
  // A thread whose posts the extractor dropped altogether (as a comment section, say): its largest
  // series of posts, when that holds clearly more than what was picked.
  return largestSeries(candidates, pickedWords.length);
}

/**
 * The element from the series' container up to `levels` above it that holds the picked text,
 * when it is smaller than `best` and not grown far past the series and the picked text; undefined
 * when no such element does. Of those, the first that also holds the picked text's opening
 * ({@link SERIES_OPENING_WORDS}): answers hold most of what an extractor picked from a Q&A page,
 * and the question above them is what they answer.
 */
function rootHoldingPicked(
  series: Series,
  pickedWords: string[],
  wordCounts: Map<Element, number>,
  levels: number,
  best: { root: Element; words: number } | undefined,
): { root: Element; words: number } | undefined {
  const opening = pickedWords.slice(0, SERIES_OPENING_WORDS);
  let holding: { root: Element; words: number } | undefined;
  let root: Element | null = series.container;
  for (let level = 0; root !== null && level <= levels; level++) {
    const rootWords = wordCounts.get(root) ?? 0;
    if (rootWords > SERIES_ROOT_MAX_GROWTH * (series.memberWords + pickedWords.length)) break;
    if (best !== undefined && rootWords >= best.words) break;
    const rootText = words(root.textContent ?? '');
    if (holding !== undefined || trigramOverlap(pickedWords, rootText) >= SERIES_MIN_OVERLAP) {
      holding ??= { root, words: rootWords };
      if (trigramOverlap(opening, rootText) >= SERIES_MIN_OVERLAP) return { root, words: rootWords };
    }
    root = root.parentElement;
  }
  return holding;
}

/**
 * Whether the picked text holds some members of the series (at least {@link SERIES_MIN_OVERLAP} of
 * a member's word trigrams) and leaves others out (at most {@link SERIES_MISSING_MEMBER_OVERLAP}),
 * those left out holding at least {@link SERIES_MISSING_MIN_SHARE} of the series' words.
 */
function leavesPostsOut(series: Series, pickedWords: string[], wordCounts: Map<Element, number>): boolean {
  const picked = trigramSet(pickedWords);
  let holds = false;
  let missingWords = 0;
  for (const member of series.members) {
    const { shared, total } = sharedTrigrams(words(member.textContent ?? ''), picked);
    if (total === 0) continue;
    if (shared >= SERIES_MIN_OVERLAP * total) holds = true;
    else if (shared <= SERIES_MISSING_MEMBER_OVERLAP * total) missingWords += wordCounts.get(member) ?? 0;
  }
  return holds && missingWords >= SERIES_MISSING_MIN_SHARE * series.memberWords;
}

/** The container of the series with the most member words, when it holds clearly more than was picked. */
function largestSeries(candidates: readonly Series[], pickedWords: number): Element | undefined {
  let largest: Series | undefined;
  for (const series of candidates) {
    if (largest === undefined || series.memberWords > largest.memberWords) largest = series;
  }
  return largest !== undefined && largest.memberWords > pickedWords / SERIES_PART_MAX_SHARE
    ? largest.container
    : undefined;
}

/** Words of every element under `body`, counted once, bottom up. */
function countElementWords(body: Element): Map<Element, number> {
  const counts = new Map<Element, number>();
  const visit = (element: Element): number => {
    let total = 0;
    for (const node of Array.from(element.childNodes)) {
      if (node.nodeType === TEXT_NODE) total += countWords(node.textContent ?? '');
      else if (node.nodeType === ELEMENT_NODE) total += visit(node as Element);
    }
    counts.set(element, total);
    return total;
  };
  // Deep pages are bounded before extraction runs (html-bounds), so recursion depth is safe here.
  visit(body);
  return counts;
}

/** Tag, id and classes, digits left out: `post-118` and `post-119` are alike, `#main` and `#side` not. */
function signature(element: Element): string {
  const classes = (element.getAttribute('class') ?? '')
    .split(/\s+/)
    .filter((name) => name !== '' && !/\d/.test(name))
    .sort();
  const id = (element.getAttribute('id') ?? '').replace(/\d+/g, '');
  return `${element.localName}#${id}.${classes.join('.')}`;
}

function insideChrome(element: Element): boolean {
  for (let node: Element | null = element; node !== null; node = node.parentElement) {
    if (CHROME.has(node.localName) || CHROME_ROLES.has(node.getAttribute('role') ?? '')) return true;
    if (node.getAttribute('aria-modal') === 'true') return true;
  }
  return false;
}

/**
 * Elements that are never a post of a thread, only a part of one: the paragraphs of a post form a
 * series of like siblings too, and one post's body would pass for the thread.
 */
const POST_PARTS = new Set(['p']);

/** The members and words of a group of like siblings (see {@link signature}). */
interface SiblingGroup {
  members: Element[];
  words: number;
}

/**
 * The largest group of two or more like children of `container` with
 * {@link SERIES_MEMBER_MIN_WORDS} words each (on a thread, not {@link POST_PARTS}).
 */
function largestSiblingGroup(
  container: Element,
  wordCounts: Map<Element, number>,
  thread: boolean,
): SiblingGroup | undefined {
  const groups = new Map<string, SiblingGroup>();
  for (const child of Array.from(container.children)) {
    const childWords = wordCounts.get(child) ?? 0;
    if (childWords < SERIES_MEMBER_MIN_WORDS || (thread && POST_PARTS.has(child.localName))) continue;
    const key = signature(child);
    const group = groups.get(key) ?? { members: [], words: 0 };
    group.members.push(child);
    group.words += childWords;
    groups.set(key, group);
  }
  let largest: SiblingGroup | undefined;
  for (const group of groups.values()) {
    if (group.members.length >= 2 && group.words > (largest?.words ?? 0)) largest = group;
  }
  return largest;
}

function* findSeries(body: Element, wordCounts: Map<Element, number>, thread: boolean): Generator<Series> {
  for (const [container, containerWords] of wordCounts) {
    if (container.children.length < 2 || containerWords < 2 * SERIES_MEMBER_MIN_WORDS) continue;
    const largest = largestSiblingGroup(container, wordCounts, thread);
    if (largest === undefined || largest.words < SERIES_MIN_SHARE * containerWords) continue;
    if (container !== body && insideChrome(container)) continue;
    yield { container, memberWords: largest.words, members: largest.members };
  }
}
