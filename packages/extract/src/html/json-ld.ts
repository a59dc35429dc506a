/** The script type Defuddle reads schema.org data from. */
const JSON_LD_TYPE = 'application/ld+json';

/** The type an unreadable JSON-LD script carries while Defuddle runs, so that it is passed over. */
const SET_ASIDE_TYPE = 'application/x-mono-agent-unreadable-ld+json';

/**
 * Hides the JSON-LD scripts of `document` that Defuddle could not parse, and returns a function that
 * puts them back. Defuddle reports each such script with `console.error` and a stack trace, whoever
 * calls it: a library user's terminal fills with them on the many pages that ship JSON-LD with a
 * trailing comma or a stray comment. The text is cleaned as Defuddle cleans it (comments and a CDATA
 * wrapper removed) before the check, so a script it can read is never hidden. The page's declared
 * kind is read before this, from the scripts as they were.
 */
export function setAsideUnreadableJsonLd(document: ParentNode): () => void {
  const hidden: Element[] = [];
  for (const script of Array.from(document.querySelectorAll(`script[type="${JSON_LD_TYPE}"]`))) {
    if (readable(script.textContent ?? '')) continue;
    script.setAttribute('type', SET_ASIDE_TYPE);
    hidden.push(script);
  }
  return () => {
    for (const script of hidden) script.setAttribute('type', JSON_LD_TYPE);
  };
}

function readable(text: string): boolean {
  return parseJsonLd(text) !== undefined;
}

/**
 * A JSON-LD script's value, read as Defuddle reads it (comments and a CDATA wrapper removed);
 * undefined when it does not parse.
 */
export function parseJsonLd(text: string): unknown {
  const cleaned = text
    .replace(/\/\*[\s\S]*?\*\/|^\s*\/\/.*$/gm, '')
    .replace(/^\s*<!\[CDATA\[([\s\S]*?)\]\]>\s*$/, '$1')
    .replace(/^\s*(\*\/|\/\*)\s*|\s*(\*\/|\/\*)\s*$/g, '')
    .trim();
  try {
    return JSON.parse(cleaned);
  } catch {
    return undefined;
  }
}
