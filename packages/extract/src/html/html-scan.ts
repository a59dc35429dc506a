import { loadHtmlparser2 } from '../lazy-modules.js';

/** What {@link scanHtml} reports, in document order. */
export interface HtmlVisitor {
  /** An element opened (void elements included); `depth` counts it. */
  open?(name: string, attributes: Readonly<Record<string, string>>, depth: number): void;
  /** An element closed, explicitly or implied by what came next. */
  close?(name: string): void;
  /** Decoded text. */
  text?(text: string): void;
  /**
   * `false` when `open` never reads the attributes: they are then not collected (an empty object is
   * passed), which saves slicing and decoding every attribute of the page.
   */
  readsAttributes?: boolean;
}

const NO_ATTRIBUTES: Readonly<Record<string, string>> = Object.freeze({});

/** Elements that never have content or an end tag. */
const VOID_ELEMENTS = new Set([
  'area',
  'base',
  'br',
  'col',
  'embed',
  'hr',
  'img',
  'input',
  'keygen',
  'link',
  'meta',
  'param',
  'source',
  'track',
  'wbr',
]);

/** Elements whose start tag closes an open `<p>` directly above. */
const CLOSES_PARAGRAPH = new Set([
  'address',
  'article',
  'aside',
  'blockquote',
  'details',
  'dialog',
  'div',
  'dl',
  'fieldset',
  'figcaption',
  'figure',
  'footer',
  'form',
  'h1',
  'h2',
  'h3',
  'h4',
  'h5',
  'h6',
  'header',
  'hgroup',
  'hr',
  'li',
  'main',
  'menu',
  'nav',
  'ol',
  'p',
  'pre',
  'section',
  'table',
  'ul',
]);

/**
 * Elements with optional end tags: the start tag of a key closes an open element of one of the
 * listed names, searched from the top of the stack down to the nearest element of `stopAt`.
 */
const IMPLIED_CLOSE: ReadonlyMap<string, { closes: ReadonlySet<string>; stopAt: ReadonlySet<string> }> =
  new Map(
    Object.entries({
      li: { closes: new Set(['li']), stopAt: new Set(['ul', 'ol', 'menu']) },
      dt: { closes: new Set(['dt', 'dd']), stopAt: new Set(['dl']) },
      dd: { closes: new Set(['dt', 'dd']), stopAt: new Set(['dl']) },
      tr: { closes: new Set(['tr', 'td', 'th']), stopAt: new Set(['table', 'thead', 'tbody', 'tfoot']) },
      td: { closes: new Set(['td', 'th']), stopAt: new Set(['tr', 'table']) },
      th: { closes: new Set(['td', 'th']), stopAt: new Set(['tr', 'table']) },
      thead: { closes: new Set(['thead', 'tbody', 'tfoot', 'tr', 'td', 'th']), stopAt: new Set(['table']) },
      tbody: { closes: new Set(['thead', 'tbody', 'tfoot', 'tr', 'td', 'th']), stopAt: new Set(['table']) },
      tfoot: { closes: new Set(['thead', 'tbody', 'tfoot', 'tr', 'td', 'th']), stopAt: new Set(['table']) },
      option: { closes: new Set(['option']), stopAt: new Set(['select', 'datalist']) },
      optgroup: { closes: new Set(['option', 'optgroup']), stopAt: new Set(['select']) },
    }),
  );

/** How far down the stack an implied close looks; the elements it closes sit near the top. */
const IMPLIED_CLOSE_REACH = 8;

/**
 * Walks an HTML page's tags in one pass with a tokenizer and a stack of its own, in time linear in
 * the page whatever its nesting (htmlparser2's own parser and the DOMs built on it scan their stack
 * from the bottom, which costs time quadratic in the depth). End tags a browser would imply (`<p>`,
 * `<li>`, table cells, void elements) are implied here too, closely enough to measure depth.
 */
export async function scanHtml(html: string, visitor: HtmlVisitor): Promise<void> {
  const { Tokenizer } = await loadHtmlparser2();
  const collects = visitor.readsAttributes !== false;
  const stack: string[] = [];
  const openCounts = new Map<string, number>();
  let foreign = 0;
  let tagName = '';
  let attributeName = '';
  let attributeValue = '';
  let attributes: Record<string, string> = collects ? {} : (NO_ATTRIBUTES as Record<string, string>);

  const push = (name: string) => {
    stack.push(name);
    openCounts.set(name, (openCounts.get(name) ?? 0) + 1);
    if (name === 'svg' || name === 'math') foreign++;
  };
  const pop = () => {
    const name = stack.pop() as string;
    openCounts.set(name, (openCounts.get(name) ?? 1) - 1);
    if (name === 'svg' || name === 'math') foreign--;
    visitor.close?.(name);
  };
  const closeDownTo = (names: ReadonlySet<string>, stopAt: ReadonlySet<string>) => {
    for (let index = stack.length - 1; index >= Math.max(0, stack.length - IMPLIED_CLOSE_REACH); index--) {
      const name = stack[index] as string;
      if (stopAt.has(name)) return;
      if (names.has(name)) {
        while (stack.length > index) pop();
        return;
      }
    }
  };
  const openTag = (selfClosing: boolean) => {
    const name = tagName;
    if (foreign === 0) {
      if (CLOSES_PARAGRAPH.has(name) && stack[stack.length - 1] === 'p') pop();
      const implied = IMPLIED_CLOSE.get(name);
      if (implied !== undefined) closeDownTo(implied.closes, implied.stopAt);
    }
    visitor.open?.(name, attributes, stack.length + 1);
    if (VOID_ELEMENTS.has(name) || (selfClosing && foreign > 0)) visitor.close?.(name);
    else push(name);
    if (collects) attributes = {};
  };

  const tokenizer = new Tokenizer(
    // Entities matter only to the text and the attributes a visitor reads; a visitor that reads
    // neither (one that measures the page) is spared decoding every `&` of it.
    { decodeEntities: collects || visitor.text !== undefined, xmlMode: false },
    {
      onopentagname(start, end) {
        tagName = html.slice(start, end).toLowerCase();
      },
      onopentagend() {
        openTag(false);
      },
      onselfclosingtag() {
        openTag(true);
      },
      onattribname(start, end) {
        if (!collects) return;
        attributeName = html.slice(start, end).toLowerCase();
        attributeValue = '';
      },
      onattribdata(start, end) {
        if (collects) attributeValue += html.slice(start, end);
      },
      onattribentity(codepoint) {
        if (collects) attributeValue += String.fromCodePoint(codepoint);
      },
      onattribend() {
        if (collects && !(attributeName in attributes)) attributes[attributeName] = attributeValue;
      },
      onclosetag(start, end) {
        const name = html.slice(start, end).toLowerCase();
        if ((openCounts.get(name) ?? 0) === 0) return;
        while (stack.length > 0 && stack[stack.length - 1] !== name) pop();
        pop();
      },
      ontext(start, end) {
        visitor.text?.(html.slice(start, end));
      },
      ontextentity(codepoint) {
        visitor.text?.(String.fromCodePoint(codepoint));
      },
      oncdata() {},
      oncomment() {},
      ondeclaration() {},
      onprocessinginstruction() {},
      onend() {},
    },
  );
  tokenizer.write(html);
  tokenizer.end();
  while (stack.length > 0) pop();
}
