// Every heavy dependency is reached through one of these loaders, so importing the package costs
// nothing until a body of that kind arrives; each promise is shared by later calls.
import { createRequire } from 'node:module';
import type { SelectorCompiler } from './linkedom/compiled-queries.js';
import { installLinkedomSpeedups, type LinkedomModule } from './linkedom/install.js';

// The CommonJS packages (Defuddle, Readability, Turndown) are required, not imported: an ES import
// of a CommonJS file first scans its whole source for export names, which for Defuddle's bundle costs
// more than evaluating it.
const require = createRequire(import.meta.url);

let chardet: Promise<typeof import('chardet')> | undefined;
let linkedom: Promise<typeof import('linkedom')> | undefined;
let defuddle: Promise<Pick<typeof import('defuddle/node'), 'Defuddle'>> | undefined;
let readability: Promise<typeof import('@mozilla/readability')> | undefined;
let turndown: Promise<typeof import('turndown')> | undefined;
let xmlParser: Promise<typeof import('fast-xml-parser')> | undefined;
let unpdf: Promise<typeof import('unpdf')> | undefined;
let htmlparser2: Promise<typeof import('htmlparser2')> | undefined;

/** chardet, for bodies whose charset is undeclared and not UTF-8. */
export function loadChardet(): Promise<typeof import('chardet')> {
  chardet ??= import('chardet');
  return chardet;
}

/**
 * linkedom, the DOM the HTML stages parse into: its single-file build (the same code and types as the
 * package entry), which loads in about half the time of the entry's few hundred modules.
 */
export function loadLinkedom(): Promise<typeof import('linkedom')> {
  linkedom ??= Promise.all([import('linkedom/worker'), import('css-select')]).then(([module, cssSelect]) => {
    // Its selector methods, element accessors and listener maps made faster (see linkedom/README.md).
    installLinkedomSpeedups(module as unknown as LinkedomModule, cssSelect as SelectorCompiler);
    return module;
  });
  return linkedom;
}

/**
 * Defuddle, with the call shape of its Node entry. Built on the core class (the package's main
 * entry) because the Node entry also loads Defuddle's Markdown converter, a second copy of Turndown
 * with its own DOM (domino), on every HTML page, although the package converts with its own Turndown
 * (`markdown: false`). The Node entry's function does exactly this for a Document and that option.
 */
export function loadDefuddle(): Promise<Pick<typeof import('defuddle/node'), 'Defuddle'>> {
  defuddle ??= Promise.resolve().then(() => {
    // A CommonJS module whose declarations are written as ES exports: at run time the exports are the
    // class itself (or carry it as `default`), which the declarations call `default.default`.
    const exported = require('defuddle') as { default?: unknown };
    const DefuddleCore = (exported.default ?? exported) as typeof import('defuddle/node').DefuddleClass;
    return {
      Defuddle: async (document, url, options) =>
        await new DefuddleCore(document as Document, {
          ...options,
          url: url || (document as Document).URL || 'about:blank',
        }).parseAsync(),
    };
  });
  return defuddle;
}

/** Mozilla Readability. */
export function loadReadability(): Promise<typeof import('@mozilla/readability')> {
  readability ??= Promise.resolve().then(
    () => require('@mozilla/readability') as typeof import('@mozilla/readability'),
  );
  return readability;
}

/** Turndown's build without a DOM of its own (same API as the package entry, which types it). */
// A file inside the package, not an entry it exports, so a release may move or change it without
// notice: package.json pins Turndown to one exact version, to be raised only after checking it.
const TURNDOWN_DOM_FREE_BUILD = 'turndown/lib/turndown.browser.cjs.js';

/**
 * Turndown's service class, the HTML → Markdown converter. Its DOM-free build: the Node build parses
 * strings with its own DOM (domino), which would load a second DOM implementation beside linkedom on
 * every HTML page; `htmlToMarkdown` hands it linkedom nodes instead of strings.
 */
export function loadTurndown(): Promise<typeof import('turndown')> {
  turndown ??= Promise.resolve().then(() => require(TURNDOWN_DOM_FREE_BUILD) as typeof import('turndown'));
  return turndown;
}

/** fast-xml-parser and its validator. */
export function loadXmlParser(): Promise<typeof import('fast-xml-parser')> {
  xmlParser ??= import('fast-xml-parser');
  return xmlParser;
}

/** unpdf (PDF.js without a worker). */
export function loadUnpdf(): Promise<typeof import('unpdf')> {
  unpdf ??= import('unpdf');
  return unpdf;
}

/** htmlparser2's streaming parser, for the bounds pre-check and the streamed-text stage. */
export function loadHtmlparser2(): Promise<typeof import('htmlparser2')> {
  htmlparser2 ??= import('htmlparser2');
  return htmlparser2;
}
