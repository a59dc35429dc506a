/**
 * One piece of HTML markup as {@link markupPieces} cuts it: text between tags, a tag (`<` to the next
 * `>`), a comment, or a block (an opening tag of one of the asked-for names, its content and its end
 * tag).
 */
export type MarkupPiece =
  | { kind: 'text'; start: number; end: number }
  | { kind: 'tag'; start: number; end: number; name: string }
  | { kind: 'comment'; start: number; end: number }
  | {
      kind: 'block';
      start: number;
      end: number;
      name: string;
      /** Where the opening tag ends (just past its `>`) and the content begins. */
      contentStart: number;
      /** Where the end tag begins. */
      contentEnd: number;
    };

const TAG_NAME = /[a-zA-Z][a-zA-Z0-9:-]*/y;
const TAG_START = /^[a-zA-Z/!?]$/;

/**
 * Cuts markup into pieces in one pass whose time is linear in its length, whatever it holds. The
 * regular expressions this replaces (`<script\b[^>]*>[\s\S]*?<\/script>` and the like) scan to the end
 * of the page again from every opening tag that has no end tag, which is quadratic: a page of 50,000
 * unclosed `<head>` tags took seconds. Here each search (the next `>`, the next `-->`, the next end tag
 * of a name) remembers where it stopped, and later searches start there, since the scan only moves
 * forward. A `<` with no `>` after it, an unclosed comment and an opening tag of a block name with no
 * end tag are read as the expressions did: the first as text, the others as a plain tag; a `<` that
 * cannot start a tag is text, as in a browser.
 */
export function* markupPieces(html: string, blockNames: ReadonlySet<string>): Generator<MarkupPiece> {
  let nextTagEnd: number | undefined;
  const tagEndFrom = (from: number): number => {
    if (nextTagEnd === undefined || (nextTagEnd !== -1 && nextTagEnd < from)) {
      nextTagEnd = html.indexOf('>', from);
    }
    return nextTagEnd;
  };
  let nextCommentEnd: number | undefined;
  const commentEndFrom = (from: number): number => {
    if (nextCommentEnd === undefined || (nextCommentEnd !== -1 && nextCommentEnd < from)) {
      nextCommentEnd = html.indexOf('-->', from);
    }
    return nextCommentEnd;
  };
  // Per name, the next end tag found (`start` of `</name`, `end` past its `>`), or none at all. The
  // search is case-blind through the expression's flag: a lowercased copy of the page could differ in
  // length (some characters lowercase to two), and its offsets would not be the page's.
  const endTags = new Map<string, { start: number; end: number } | null>();
  const endTagFrom = (name: string, from: number): { start: number; end: number } | null => {
    const known = endTags.get(name);
    if (known === null) return null;
    if (known !== undefined && known.start >= from) return known;
    const pattern = new RegExp(`</${name}\\s*>`, 'gi');
    pattern.lastIndex = from;
    const match = pattern.exec(html);
    const found = match === null ? null : { start: match.index, end: match.index + match[0].length };
    endTags.set(name, found);
    return found;
  };

  let position = 0;
  while (position < html.length) {
    const open = html.indexOf('<', position);
    if (open === -1) {
      yield { kind: 'text', start: position, end: html.length };
      return;
    }
    // A `<` that cannot start a tag (before a space, a digit, `=`…) is text, as a browser reads it.
    if (!TAG_START.test(html[open + 1] ?? '')) {
      yield { kind: 'text', start: position, end: open + 1 };
      position = open + 1;
      continue;
    }
    if (open > position) yield { kind: 'text', start: position, end: open };
    if (html.startsWith('<!--', open)) {
      const close = commentEndFrom(open + 4);
      if (close !== -1) {
        yield { kind: 'comment', start: open, end: close + 3 };
        position = close + 3;
        continue;
      }
    }
    const tagEnd = tagEndFrom(open + 1);
    if (tagEnd === -1) {
      yield { kind: 'text', start: open, end: html.length };
      return;
    }
    TAG_NAME.lastIndex = open + 1;
    const name = TAG_NAME.exec(html)?.[0].toLowerCase() ?? '';
    if (name !== '' && blockNames.has(name)) {
      const endTag = endTagFrom(name, tagEnd + 1);
      if (endTag !== null) {
        yield {
          kind: 'block',
          start: open,
          end: endTag.end,
          name,
          contentStart: tagEnd + 1,
          contentEnd: endTag.start,
        };
        position = endTag.end;
        continue;
      }
    }
    yield { kind: 'tag', start: open, end: tagEnd + 1, name };
    position = tagEnd + 1;
  }
}

/**
 * Markup with the given blocks and every comment taken out, each leaving a space; with `keepTags`
 * the other tags stay, otherwise they go too and only the text is left.
 */
export function markupWithout(html: string, blockNames: ReadonlySet<string>, keepTags = false): string {
  const parts: string[] = [];
  for (const piece of markupPieces(html, blockNames)) {
    const kept = piece.kind === 'text' || (keepTags && piece.kind === 'tag');
    parts.push(kept ? html.slice(piece.start, piece.end) : ' ');
  }
  return parts.join('');
}
