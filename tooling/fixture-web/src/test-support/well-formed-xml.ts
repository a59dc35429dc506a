// Just enough of an XML well-formedness check for the fixture's own documents, since the package has
// no XML parser: one prolog, balanced and properly nested tags, one root, entities from the fixed set.

const TOKEN = /<\?[\s\S]*?\?>|<!--[\s\S]*?-->|<!\[CDATA\[[\s\S]*?\]\]>|<\/?[^>]*>|[^<]+/g;
const NAME = /^[A-Za-z_][\w.:-]*/;

/** Throws on the first structural error; returns the name of the root element. */
export function checkWellFormedXml(text: string): string {
  const open: string[] = [];
  let root: string | undefined;
  for (const [token] of text.matchAll(TOKEN)) {
    if (token.startsWith('<?') || token.startsWith('<!--') || token.startsWith('<![CDATA[')) continue;
    if (token.startsWith('</')) {
      const name = token.slice(2, -1).trim();
      const expected = open.pop();
      if (name !== expected) throw new Error(`</${name}> closes <${expected ?? 'nothing'}>`);
    } else if (token.startsWith('<')) {
      const name = NAME.exec(token.slice(1))?.[0];
      if (!name) throw new Error(`bad tag ${token}`);
      if (open.length === 0) {
        if (root !== undefined) throw new Error(`second root element <${name}>`);
        root = name;
      }
      if (!token.endsWith('/>')) open.push(name);
    } else {
      if (open.length === 0 && token.trim() !== '') throw new Error(`text outside the root: ${token.trim()}`);
      for (const [entity] of token.matchAll(/&[^;\s]*;?/g)) {
        if (!/^&(amp|lt|gt|quot|apos|#\d+|#x[0-9a-fA-F]+);$/.test(entity))
          throw new Error(`bad entity ${entity}`);
      }
    }
  }
  if (open.length > 0) throw new Error(`unclosed <${open.at(-1)}>`);
  if (root === undefined) throw new Error('no root element');
  return root;
}
