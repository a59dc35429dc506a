import { hasName } from './element-names.js';

/**
 * What forum engines add to every post of a thread besides the post itself: the author's signature,
 * reputation and badge counts, and profile details. None of it is the post's text.
 */
/** Elements whose id or class may name a post's signature (checked by {@link SIGNATURE_NAME}). */
const SIGNATURE_CANDIDATES = '[class*="signature" i], [id*="signature" i]';

/**
 * A class or id naming a forum post's signature, as phpBB (`signature`, `postsignature`), XenForo
 * (`message-signature`), vBulletin (`signaturecontainer`), Invision Community 5
 * (`ipsEntry__signature`) and others write it. Only the whole name counts: `member-signature` (a
 * method's signature in Javadoc), `post-signature` (Stack Exchange's author card) and
 * `digital-signature-row` are not a signature to drop; a BEM element is one only in a post's block
 * (`entry__signature`, `post__signature`), not in a method's (`method__signature`).
 */
const SIGNATURE_NAME =
  /^(?:(?:post|message|user|forum|author)[-_]?|(?:ips)?(?:entry|post|comment|message)__)?signatures?(?:[-_]?(?:container|content|wrapper))?$/i;

/** Invision Community's mark of a post's signature, whatever its classes (`data-role="memberSignature"`). */
const MEMBER_SIGNATURE = '[data-role="memberSignature" i]';

/** Stack Exchange's name for the card of a post's author: its name, date and reputation. */
const AUTHOR_CARD = /^post-signature$/i;

/**
 * Removes the signatures of a thread's posts: the lines a forum adds under every post by its
 * author (a motto, a list of their gear, links to their site), the same under each of their posts
 * and never part of the answer. Returns whether it removed any.
 */
export function dropPostSignatures(document: Document): boolean {
  let dropped = false;
  for (const element of Array.from(
    document.querySelectorAll(`${SIGNATURE_CANDIDATES}, ${MEMBER_SIGNATURE}`),
  )) {
    if (!element.isConnected || element === document.body) continue;
    if (
      element.matches(MEMBER_SIGNATURE) ||
      hasName(element, (name) => SIGNATURE_NAME.test(name) && !AUTHOR_CARD.test(name))
    ) {
      element.remove();
      dropped = true;
    }
  }
  return dropped;
}

/**
 * Elements that show how a post's author stands on the site rather than what they wrote: a
 * reputation score (`reputation`, `reputation-score`, `user-reputation`…) and Stack Exchange's
 * `-flair`, which holds the score and the counts of gold, silver and bronze badges.
 */
const REPUTATION_SELECTOR =
  '[class~="-flair"], [class*="reputation" i], [class*="usertitle" i], [class*="userbanner" i], [class*="user-title" i], [class*="profile-rank" i], [class*="entry__group" i]';

/**
 * The rank or title an engine prints under each author's name ("Member", "Senior Member", a title the
 * author chose): XenForo's `userTitle` and `userBanner`, vBulletin's `usertitle`, Discourse's
 * `user-title`, phpBB's `profile-rank`, Invision Community's `ipsEntry__group`. Checked on the whole
 * class name, so that a story's `author-title` and a `usertitle-link` of a menu stay.
 */
const AUTHOR_RANK_NAME = /^(?:message-)?user-?(?:title|banner)$|^profile-rank$|^ipsEntry__group$/i;

/**
 * Removes the reputation scores and badge counts beside a thread's posts ("4,701 18 gold badges 53
 * silver badges") and the rank under each author's name ("Senior Member"): the author's standing,
 * repeated under every post, that reads as part of the answer once the layout is gone; and the
 * count of likes under each post ("6 Likes"), which reads as a line of the post. The author's name
 * and the post's date stay.
 */
export function dropReputationCounts(document: Document): void {
  for (const element of Array.from(document.querySelectorAll(REPUTATION_SELECTOR))) {
    if (!element.isConnected || element === document.body) continue;
    if (isStanding(element)) element.remove();
  }
  for (const element of Array.from(document.querySelectorAll(LIKES_SELECTOR))) {
    if (hasName(element, (name) => LIKES_NAME.test(name)) && LIKES_TEXT.test(element.textContent ?? '')) {
      element.remove();
    }
  }
}

/** Elements that may count a post's likes (checked by {@link LIKES_NAME} and {@link LIKES_TEXT}). */
const LIKES_SELECTOR = '[class*="like" i]';

/** A class named whole for a post's likes: Discourse's `post-likes`, `like-count`, `likes-count`. */
const LIKES_NAME = /^(?:post-)?(?:likes?-count|likes)$/i;

/** A count of likes as it is printed: "6 Likes", "1 Like", "12". */
const LIKES_TEXT = /^\s*\d[\d,.]*\s*(?:likes?)?\s*$/i;

/** Whether an element the reputation selector found shows the author's standing (see {@link AUTHOR_RANK_NAME}). */
function isStanding(element: Element): boolean {
  return hasName(
    element,
    (name) => name === '-flair' || /reputation/i.test(name) || AUTHOR_RANK_NAME.test(name),
  );
}

/** How many of a page's definition lists must carry a label for it to be a label of every post. */
export const AUTHOR_DETAIL_MIN_LISTS = 3;

/**
 * Attributes that name what an icon stands for, read as a term's label when the term has no text:
 * XenForo labels "Joined" and "Messages" with an icon and a tooltip.
 */
const LABEL_ATTRIBUTES = [
  'aria-label',
  'title',
  'data-original-title',
  'data-bs-original-title',
  'data-title',
];

/** The label of a term without text: the first tooltip or accessible name on it or inside it. */
function iconLabel(term: Element): string {
  for (const element of [term, ...Array.from(term.querySelectorAll('*'))]) {
    for (const name of LABEL_ATTRIBUTES) {
      const value = element.getAttribute(name)?.trim();
      if (value) return value.toLowerCase();
    }
  }
  return '';
}

/** The labels (`<dt>` texts, else their icons' tooltips, lower-cased) of a definition list's own terms. */
function termLabels(list: Element): string[] {
  const labels: string[] = [];
  for (const child of Array.from(list.children)) {
    if (child.localName !== 'dt') continue;
    const label = (child.textContent ?? '').trim().toLowerCase() || iconLabel(child);
    if (label !== '') labels.push(label);
  }
  return labels;
}

/** The longest label an item of an author's details may have, in characters and in words. */
const ITEM_LABEL_MAX_CHARS = 30;
const ITEM_LABEL_MAX_WORDS = 3;

/** A count as engines print it: `563`, `18,902`, `3.4k`. */
const COUNT = /\d[\d.,]*\s*[km]?(?![\p{L}\d])/giu;

/**
 * The label of one item of an author's details: the words before a colon ("Location: Lisbon"),
 * the words beside the item's one count ("563 posts", "Reputation 426"), or an icon's tooltip when
 * the item has no text; lower-cased. Undefined for anything else: a date (a `<time>`, or two
 * numbers as in "Mar 27, 2025"), a post's number ("#7"), a link's address, an item of prose.
 */
function itemLabel(item: Element): string | undefined {
  const text = (item.textContent ?? '').replace(/\s+/g, ' ').trim();
  if (text === '') return iconLabel(item) || undefined;
  if (item.querySelector('time') !== null) return undefined;
  const colon = text.indexOf(':');
  let label: string;
  if (colon > 0) {
    if (text.startsWith('//', colon + 1)) return undefined;
    label = text.slice(0, colon);
  } else {
    if ((text.match(COUNT) ?? []).length !== 1) return undefined;
    label = text.replace(COUNT, ' ');
  }
  label = label.replace(/\s+/g, ' ').trim().toLowerCase();
  const words = label.split(' ').length;
  if (!/^[\p{L} ]+$/u.test(label) || label.length > ITEM_LABEL_MAX_CHARS || words > ITEM_LABEL_MAX_WORDS)
    return undefined;
  return label;
}

/** The labels of a list's own items when every item is a labelled detail (see {@link itemLabel}). */
function itemLabels(list: Element): string[] | undefined {
  const labels: string[] = [];
  for (const item of Array.from(list.children)) {
    if (item.localName !== 'li') continue;
    const label = itemLabel(item);
    if (label === undefined) return undefined;
    labels.push(label);
  }
  return labels;
}

/**
 * Removes the author details forum engines print beside every post ("Joined", "Messages",
 * "Location", "Reaction score"), as definition lists (XenForo, phpBB) or as lists of labelled items
 * ("563 posts", "426 Reputation", "Location: Lisbon": Invision Community): a `<dl>`, or a `<ul>` or
 * `<ol>` of labelled items (see {@link itemLabels}), all of whose labels stand in
 * {@link AUTHOR_DETAIL_MIN_LISTS} or more of the page's lists of its kind. A list inside a post,
 * whose labels are its own, stays.
 */
export function dropAuthorDetails(document: Document): void {
  dropRepeatedLabels(Array.from(document.querySelectorAll('dl')), termLabels);
  dropRepeatedLabels(Array.from(document.querySelectorAll('ul, ol')), itemLabels);
}

/** Removes each of `lists` whose labels (as `read` gives them) all stand in enough of them. */
function dropRepeatedLabels(lists: Element[], read: (list: Element) => string[] | undefined): void {
  if (lists.length < AUTHOR_DETAIL_MIN_LISTS) return;
  const labelsOf = new Map<Element, string[]>();
  const counts = new Map<string, number>();
  for (const list of lists) {
    const labels = read(list);
    if (labels === undefined || labels.length === 0) continue;
    labelsOf.set(list, labels);
    for (const label of new Set(labels)) counts.set(label, (counts.get(label) ?? 0) + 1);
  }
  for (const [list, labels] of labelsOf) {
    if (labels.every((label) => (counts.get(label) ?? 0) >= AUTHOR_DETAIL_MIN_LISTS)) list.remove();
  }
}
