/**
 * Page text that a Markdown reader would take for a link. Turndown already escapes brackets, so
 * `[x](javascript:…)` and `[x]: javascript:…` written as text stay text; what it leaves is:
 * an angle bracket opening an autolink or raw HTML (`<javascript:…>`, `<a href=…>`, a `<` that a
 * following element's text completes), which CommonMark turns into a link of any scheme; and the
 * bare addresses that GitHub-flavoured Markdown links by itself besides http(s): `ftp://` and e-mail.
 */
const ANGLE_OPENER = /<(\s*)([A-Za-z][A-Za-z0-9+.-]{0,31})(\s*):|<(?=[A-Za-z/!?]|$)/g;
const BARE_FTP = /\b(ftp):(?=\/\/)/gi;
/** Schemes that run code or read local data, written with a target: escaped wherever they stand. */
const ACTIVE_SCHEME = /\b(javascript|vbscript|livescript|data|file)(\s*):(?=[^\s\\])/gi;
const BARE_EMAIL = /([A-Za-z0-9._+-])@(?=[A-Za-z0-9-]+\.[A-Za-z0-9.-]*[A-Za-z0-9])/g;

/**
 * Escapes, in page text bound for Markdown, every sequence a Markdown reader would turn into a link
 * whose target was not checked: the `<` of an autolink or an HTML tag, and the colon of its scheme
 * (so `<JAVASCRIPT:…>` reads as text even to a reader that forgives the bracket), the `:` of
 * `ftp://` and the `@` of an e-mail address, and the colon of a script, data or file scheme with a
 * target wherever it stands (its `<` may be in the text of another element). Escaped punctuation reads as itself in Markdown, and
 * {@link markdownToText} turns it back into plain characters.
 */
export function escapeLinkLikeText(text: string): string {
  if (!text.includes('<') && !text.includes('@') && !text.includes(':')) return text;
  return text
    .replace(ANGLE_OPENER, (_match, space: string | undefined, scheme: string | undefined, gap: string) =>
      scheme === undefined ? '\\<' : `\\<${space}${scheme}${gap}\\:`,
    )
    .replace(BARE_FTP, '$1\\:')
    .replace(ACTIVE_SCHEME, '$1$2\\:')
    .replace(BARE_EMAIL, '$1\\@');
}
