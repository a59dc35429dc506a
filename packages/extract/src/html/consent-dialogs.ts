/**
 * A modal dialog: the `<dialog>` element, the dialog roles, or any element a page marks modal. A
 * page's own text is never in one at load; what a consent manager opens there is its preference
 * centre, pages of purposes and legal prose.
 */
const MODAL_SELECTOR = 'dialog, [role="dialog"], [role="alertdialog"], [aria-modal="true"]';

/** What a consent manager's dialog speaks of. */
const COOKIE_WORDS = /\bcookies?\b/i;

/**
 * …and what it asks for, in the languages consent managers write "cookies" in: a shop's quick view
 * of a box of cookies is no consent dialog.
 */
const CONSENT_WORDS =
  /consent|privacy|personal (?:data|information)|partners|opt[- ]?out|accept|akzept|aceptar|accett|datenschutz|einwillig|zustimm|confidentialit|consentement|privacidad|consentimiento|riservatezza|toestemming/i;

/** Markup that holds a page's own content, which a modal wrapped around the whole page would hold. */
const PAGE_CONTENT_SELECTOR = 'main, article, [role="main"], h1';

/**
 * Removes the consent managers' modal dialogs: a modal that speaks of cookies and of consent or
 * privacy, and holds none of the page's own content (no `main`, `article` or `h1`). A preference centre's hundreds of words of
 * purposes and rights are the longest prose block of many a page whose story is short, and
 * Readability took them for the story. A page's `cookie` mention in its footer is no dialog and
 * stays.
 */
export function dropConsentDialogs(document: Document): void {
  for (const dialog of Array.from(document.querySelectorAll(MODAL_SELECTOR))) {
    // A dialog inside one already removed is gone with it.
    if (!dialog.isConnected) continue;
    if (dialog.querySelector(PAGE_CONTENT_SELECTOR) !== null) continue;
    const text = dialog.textContent ?? '';
    if (COOKIE_WORDS.test(text) && CONSENT_WORDS.test(text)) dialog.remove();
  }
}

/** Markup without which a page holds no consent dialog: it speaks of cookies nowhere. */
export const CONSENT_DIALOG_MARKUP = COOKIE_WORDS;
