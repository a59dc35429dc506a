import { markupPieces } from './markup-pieces.js';

const CDATA_OPENING = '<![CDATA[';

/**
 * Elements whose content is not markup (raw text), and the foreign elements (SVG, MathML) where a
 * CDATA section is one: a `<![CDATA[` inside them is left as it is.
 */
const LEFT_ALONE = new Set(['script', 'style', 'textarea', 'title', 'xmp', 'svg', 'math']);

/**
 * Rewrites each `<![CDATA[` in an HTML page's markup as the comment a browser makes of it. In HTML
 * content a browser reads `<![CDATA[` as the start of a bogus comment that ends at the next `>`, and
 * shows everything after it. The HTML parser the DOM stages use (htmlparser2, under linkedom) reads a
 * CDATA section instead, up to the next `]]>`, as one comment: on a page whose template leaves a
 * stray `<![CDATA[` near the top of its body (a forum theme does, on every thread), the whole body
 * became a comment and extraction found no text. Each such `<![CDATA[…>` becomes `<!--[CDATA[…-->`,
 * which both read alike; the content of scripts, styles and other raw-text elements, and of SVG and
 * MathML, where a CDATA section is one, is left alone. A page without `<![CDATA[` is returned as is.
 */
export function closeStrayCdata(html: string): string {
  if (!html.includes(CDATA_OPENING)) return html;
  const parts: string[] = [];
  let copied = 0;
  for (const piece of markupPieces(html, LEFT_ALONE)) {
    if (piece.kind !== 'tag' || !html.startsWith(CDATA_OPENING, piece.start)) continue;
    // The piece runs from `<!` to the `>` that ends it; its content holds no `>`, so no `-->` either.
    parts.push(html.slice(copied, piece.start), '<!--', html.slice(piece.start + 2, piece.end - 1), '-->');
    copied = piece.end;
  }
  if (copied === 0) return html;
  parts.push(html.slice(copied));
  return parts.join('');
}
