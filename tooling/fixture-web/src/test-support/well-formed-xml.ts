// Just enough of an XML well-formedness check for the fixture's own documents, since the package has
// no XML parser: one prolog, balanced and properly nested tags, one root, entities from the fixed set.

const TOKEN = /<\?[\s\S]*?\?>|<!--[\s\S]*?-->|<!\[CDATA\[[\s\S]*?\]\]>|<\/?[^>]*>|[^<]+/g;
const NAME = /^[A-Za-z_][\w.:-]*/;

/** The elements open at the current token, innermost last, and the root element once one began. */
interface XmlState {
  open: string[];
  root: string | undefined;
}

// Processing instructions (the prolog among them), comments and CDATA sections are passed over whole:
// the check looks only at tags, text and entity references.
function isOpaque(token: string): boolean {
  return token.startsWith('<?') || token.startsWith('<!--') || token.startsWith('<![CDATA[');
}

function closeElement(token: string, state: XmlState): void {
  const name = token.slice(2, -1).trim();
  const expected = state.open.pop();
  if (name !== expected) throw new Error(`</${name}> closes <${expected ?? 'nothing'}>`);
}

function openElement(token: string, state: XmlState): void {
  const name = NAME.exec(token.slice(1))?.[0];
  if (!name) throw new Error(`bad tag ${token}`);
  if (state.open.length === 0) {
    if (state.root !== undefined) throw new Error(`second root element <${name}>`);
    state.root = name;
  }
  if (!token.endsWith('/>')) state.open.push(name);
}

function checkText(token: string, state: XmlState): void {
  if (state.open.length === 0 && token.trim() !== '')
    throw new Error(`text outside the root: ${token.trim()}`);
  for (const [entity] of token.matchAll(/&[^;\s]*;?/g)) {
    if (!/^&(amp|lt|gt|quot|apos|#\d+|#x[0-9a-fA-F]+);$/.test(entity))
      throw new Error(`bad entity ${entity}`);
  }
}

/** Throws on the first structural error; returns the name of the root element. */
export function checkWellFormedXml(text: string): string {
  const state: XmlState = { open: [], root: undefined };
  for (const [token] of text.matchAll(TOKEN)) {
    if (isOpaque(token)) continue;
    if (token.startsWith('</')) closeElement(token, state);
    else if (token.startsWith('<')) openElement(token, state);
    else checkText(token, state);
  }
  if (state.open.length > 0) throw new Error(`unclosed <${state.open.at(-1)}>`);
  if (state.root === undefined) throw new Error('no root element');
  return state.root;
}
