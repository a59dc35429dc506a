import { countWords } from './choose-article.js';
import { drawnText } from './drawn-text.js';

/**
 * Who wrote each post of a thread, and when, kept as one line at the head of the post.
 *
 * Forum engines mark their server-rendered posts with schema.org microdata: each post is an item
 * (`Comment`, `DiscussionForumPosting`, `Answer`…) whose `author` is the poster's card and whose
 * `text` is what they wrote. The card (a name beside an avatar, a rank, counts) and the date sit in a
 * column or header of their own, which extractors drop as page furniture: a thread then reads as one
 * voice, and a reader cannot tell the question from its answers or the moderator from a newcomer.
 * Each such post gets `**name** · date` as the first line of its text, and the card it came from
 * goes (its name is now in that line; ranks and counts are not the post).
 */

/** The items forum engines mark a post with. */
const POST_ITEMS = ['Comment', 'DiscussionForumPosting', 'Answer', 'Question', 'SocialMediaPosting']
  .map((type) => `[itemscope][itemtype*="schema.org/${type}" i]`)
  .join(', ');

/** A post item that a Q&A site's comments hang from: its comments are signed at their end instead. */
const QUESTION_OR_ANSWER = /schema\.org\/(?:Question|Answer)\b/i;

/** The properties that hold a post's text. */
const TEXT_PROPERTIES = ['text', 'articleBody'];

/** The properties that date a post, in order of preference. */
const DATE_PROPERTIES = ['datePublished', 'dateCreated'];

/** The fewest posts with an author and a text for a page to be read as a thread of them. */
export const MIN_SIGNED_POSTS = 2;

/**
 * The most post items a page may mark for its posts to be signed: a page of a thread shows tens of
 * posts, and each item's properties are looked for in its own subtree, which nested items make
 * quadratic on hostile markup.
 */
export const MAX_POST_ITEMS = 1000;

/** The longest name kept: a longer "name" is a card's whole text, not a name. */
const MAX_NAME_CHARS = 80;

/** The longest date text kept from the page; a longer one is a sentence around the date. */
const MAX_DATE_CHARS = 40;

/**
 * The most words an author's card may hold to be removed once its name is written: a name, a rank,
 * a join date and a few counts. A longer one holds more than who the author is, and stays.
 */
const MAX_CARD_WORDS = 40;

/**
 * The most words the header around a post's date may hold to go with the date: the date, the post's
 * number ("#2"), a share link.
 */
const MAX_DATE_HEADER_WORDS = 8;

/** Text with its runs of whitespace made single spaces, trimmed. */
const squeeze = (text: string) => text.replace(/\s+/g, ' ').trim();

/** The item an element's property belongs to: the nearest item scope above it. */
function scopeOf(element: Element): Element | null {
  return element.parentElement?.closest('[itemscope]') ?? null;
}

/** The elements of `item` that give one of `names` as a property of `item` itself, in document order. */
function properties(item: Element, names: readonly string[]): Element[] {
  const selector = names.map((name) => `[itemprop~="${name}"]`).join(', ');
  return Array.from(item.querySelectorAll(selector)).filter((element) => scopeOf(element) === item);
}

/** A property's value as written: a `<meta>`'s content, else the element's drawn text. */
function propertyValue(element: Element): string {
  if (element.localName === 'meta') return squeeze(element.getAttribute('content') ?? '');
  return squeeze(drawnText(element));
}

/** The author's name: the card's `name` property when it is an item, else its text. */
function authorName(card: Element): string | undefined {
  const named = card.hasAttribute('itemscope') ? properties(card, ['name'])[0] : undefined;
  const name = propertyValue(named ?? card);
  return name.length > 0 && name.length <= MAX_NAME_CHARS ? name : undefined;
}

/**
 * When the post was written, as the page shows it, with the element that shows it (when one does):
 * a date property's text, else a `<time>`'s text, else the date part of a machine-readable date.
 */
function postDate(item: Element, text: Element): { words: string; shown?: Element } | undefined {
  const outside = (element: Element) => !text.contains(element);
  const dated = properties(item, DATE_PROPERTIES).filter(outside);
  const times = Array.from(item.querySelectorAll('time')).filter(
    (time) => outside(time) && time.closest('[itemscope]') === item,
  );
  for (const element of [...dated, ...times]) {
    if (element.localName === 'meta') continue;
    const words = squeeze(drawnText(element));
    if (words.length > 0 && words.length <= MAX_DATE_CHARS) return { words, shown: element };
  }
  for (const element of [...dated, ...times]) {
    const machine =
      element.getAttribute('datetime') ?? element.getAttribute('content') ?? squeeze(drawnText(element));
    const day = /^\d{4}-\d{2}-\d{2}/.exec(machine.trim());
    if (day !== null) return { words: day[0] };
  }
  return undefined;
}

/** How many words an element draws. */
const drawnWords = (element: Element) => countWords(drawnText(element));

/**
 * What goes with a part of a post's header once the post's line holds it (the author's card, the
 * date): the largest element around `part` that stays outside the post's text and draws at most
 * `maxWords` words — the header or column with the avatar, rank and groups, the post's number and
 * its menu.
 */
function blockAround(part: Element, text: Element, maxWords: number): Element {
  let block = part;
  for (let parent = block.parentElement; parent !== null; parent = parent.parentElement) {
    if (parent.contains(text) || drawnWords(parent) > maxWords) break;
    block = parent;
  }
  return block;
}

/** A post to sign: its text, the author's card (and its words) and name, and its date. */
interface SignedPost {
  readonly text: Element;
  readonly card: Element;
  readonly cardWords: number;
  readonly name: string;
  readonly date?: { words: string; shown?: Element };
}

/** What {@link signPosts} reads of one post item, or `undefined` when it has no author or text to sign. */
function readPost(item: Element): SignedPost | undefined {
  const text = properties(item, TEXT_PROPERTIES).find((element) => element.localName !== 'meta');
  const card = properties(item, ['author', 'creator'])[0];
  if (text === undefined || card === undefined) return undefined;
  if (text.contains(card) || card.contains(text)) return undefined;
  // A post quoted inside another post's text is signed by the quote itself.
  const outer = scopeOf(item);
  if (outer !== null && properties(outer, TEXT_PROPERTIES).some((element) => element.contains(item))) {
    return undefined;
  }
  // A remark under a question or an answer: Q&A sites sign it after its words.
  if (outer !== null && QUESTION_OR_ANSWER.test(outer.closest(POST_ITEMS)?.getAttribute('itemtype') ?? '')) {
    return undefined;
  }
  const name = authorName(card);
  if (name === undefined) return undefined;
  return { text, card, cardWords: drawnWords(card), name, date: postDate(item, text) };
}

/**
 * Writes `**name** · date` at the head of each post's text on a page with at least
 * {@link MIN_SIGNED_POSTS} signed posts (and at most {@link MAX_POST_ITEMS} post items), and removes
 * the author's card with the header or column around it when the card is short (see
 * {@link blockAround}; a long card alone when most of the page's cards are short), and the date
 * element the line took its words from with the short header around it. Returns how many posts it
 * signed.
 */
export function signPosts(document: Document): number {
  const items = document.querySelectorAll(POST_ITEMS);
  if (items.length > MAX_POST_ITEMS) return 0;
  const posts = Array.from(items).flatMap((item) => {
    const post = readPost(item);
    return post === undefined ? [] : [post];
  });
  if (posts.length < MIN_SIGNED_POSTS) return 0;
  // The cards of one page are one engine's: when most are short, a long one (a longer profile) is
  // the same card, and goes too, alone.
  const shortCards = posts.filter(({ cardWords }) => cardWords <= MAX_CARD_WORDS).length;
  const dropLongCards = 2 * shortCards >= posts.length;
  for (const { text, card, cardWords, name, date } of posts) {
    const line = document.createElement('address');
    const strong = document.createElement('strong');
    strong.textContent = name;
    line.append(strong);
    if (date !== undefined) line.append(` · ${date.words}`);
    text.prepend(line);
    const short = cardWords <= MAX_CARD_WORDS;
    const block = short ? blockAround(card, text, MAX_CARD_WORDS) : dropLongCards ? card : undefined;
    if (date?.shown !== undefined && !block?.contains(date.shown)) {
      blockAround(date.shown, text, MAX_DATE_HEADER_WORDS).remove();
    }
    block?.remove();
  }
  return posts.length;
}
