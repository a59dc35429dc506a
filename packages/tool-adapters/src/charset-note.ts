import type { ExtractedDocument } from '@mono-agent/extract';

/** The decoding facts the charset note is written from. */
export type DecodingFacts = Pick<ExtractedDocument, 'charset' | 'replacementCount'> &
  Partial<Pick<ExtractedDocument, 'charsetSource' | 'charsetHint' | 'declaredCharset'>>;

/** Who named the charset the body was decoded with, as the note says it (unknown: undefined). */
function declaredBy(facts: DecodingFacts): string | undefined {
  switch (facts.charsetSource) {
    case 'bom':
      return `a byte order mark said ${facts.charset}`;
    case 'header':
      return `the server declared ${facts.charset}`;
    case 'meta':
      return `the page's <meta> declared ${facts.charset}`;
    case 'xml-declaration':
      return `the XML declaration named ${facts.charset}`;
    case 'bytes':
      return `the page declared ${facts.declaredCharset ?? 'another charset'}, but its bytes are valid UTF-8 throughout`;
    case 'default':
      return 'neither the server nor the page declared a charset';
    default:
      return undefined;
  }
}

/**
 * The `reason:` line after a successful fetch whose bytes did not decode cleanly: how many
 * replacement characters the text holds, who named the charset it was decoded with, and what a
 * detector reads the bytes as. The detector's reading is only reported (the text was not decoded
 * with it), so the model knows the text is damaged rather than taking it as the page's words.
 * A body read as UTF-8 against the page's own declaration always gets the line, naming the
 * declaration it overrode. `undefined` when the body decoded cleanly as declared.
 */
export function charsetNote(facts: DecodingFacts): string | undefined {
  const { charset, charsetHint, replacementCount } = facts;
  if (facts.charsetSource === 'bytes')
    return `reason: ${declaredBy(facts)}, so the body was decoded as ${charset}.`;
  if (replacementCount === 0 && charsetHint === undefined) return undefined;
  const decoded =
    replacementCount === 0
      ? `decoded as ${charset}`
      : `decoded as ${charset} with ${replacementCount} replacement character${replacementCount === 1 ? '' : 's'} where bytes were not valid ${charset}`;
  const declared = declaredBy(facts);
  const why = declared === undefined ? '' : `; ${declared}`;
  if (charsetHint === undefined) return `reason: the body was ${decoded}${why}.`;
  return `reason: the bytes look like ${charsetHint}${why}, so the body was ${decoded} (the detector's reading is only a hint and was not used).`;
}
