import { readFile } from 'node:fs/promises';
import {
  CHARSET_SAMPLES,
  type CharsetDocument,
  FIXTURE_CHARSETS,
  type FixtureCharset,
  renderCharsetDocument,
} from './charset-documents.js';

/** The ways a page can (or fails to) tell its charset. */
export const CHARSET_VARIANTS = [
  'header',
  'meta',
  'http-equiv',
  'xml',
  'none',
  'bogus',
  'bom',
  'bom-conflict',
] as const;

/** One of `CHARSET_VARIANTS`. */
export type CharsetVariant = (typeof CHARSET_VARIANTS)[number];

/** A charset a header names that no decoder knows, for testing the fallback. */
export const BOGUS_CHARSET = 'x-no-such-charset';

// A byte order mark only identifies Unicode encodings.
const UTF8_ONLY_VARIANTS: ReadonlySet<CharsetVariant> = new Set(['bom', 'bom-conflict']);
const UTF8_BOM = Buffer.from([0xef, 0xbb, 0xbf]);

/** How one charset page is served. */
export interface CharsetPage {
  /** The charset the bytes are really in. */
  readonly charset: FixtureCharset;
  /** How the charset is declared. */
  readonly variant: CharsetVariant;
  /** The Content-Type header sent with it. */
  readonly contentType: string;
  /** Which document of the charset carries the body. */
  readonly document: CharsetDocument;
  /** Whether a UTF-8 byte order mark precedes the body. */
  readonly bom: boolean;
  /** The body decoded correctly (without the BOM), for comparison in tests. */
  readonly expectedText: string;
}

/** The page for `charset` and `variant`, or undefined for a combination that does not exist. */
export function describeCharsetPage(charset: string, variant: string): CharsetPage | undefined {
  if (!(FIXTURE_CHARSETS as readonly string[]).includes(charset)) return undefined;
  if (!(CHARSET_VARIANTS as readonly string[]).includes(variant)) return undefined;
  const knownCharset = charset as FixtureCharset;
  const knownVariant = variant as CharsetVariant;
  if (UTF8_ONLY_VARIANTS.has(knownVariant) && knownCharset !== 'utf-8') return undefined;

  const label = CHARSET_SAMPLES[knownCharset].label;
  const [document, contentType] = ((): [CharsetDocument, string] => {
    switch (knownVariant) {
      case 'header':
        return ['plain.html', `text/html; charset=${label}`];
      case 'meta':
        return ['meta.html', 'text/html'];
      case 'http-equiv':
        return ['http-equiv.html', 'text/html'];
      case 'xml':
        return ['feed.xml', 'application/xml'];
      case 'none':
      case 'bom':
        return ['plain.html', 'text/html'];
      case 'bogus':
        return ['plain.html', `text/html; charset=${BOGUS_CHARSET}`];
      case 'bom-conflict':
        // The BOM is right and the header is wrong; the WHATWG sniffing rules let the BOM win.
        return ['plain.html', 'text/html; charset=windows-1251'];
    }
  })();
  return {
    charset: knownCharset,
    variant: knownVariant,
    contentType,
    document,
    bom: UTF8_ONLY_VARIANTS.has(knownVariant),
    expectedText: renderCharsetDocument(knownCharset, document),
  };
}

/** Every charset page that exists. */
export function allCharsetPages(): CharsetPage[] {
  return FIXTURE_CHARSETS.flatMap((charset) =>
    CHARSET_VARIANTS.flatMap((variant) => describeCharsetPage(charset, variant) ?? []),
  );
}

const FIXTURE_DIRECTORY = new URL('../__fixtures__/charsets/', import.meta.url);

/** The bytes of a charset page as served. */
export async function loadCharsetPage(page: CharsetPage): Promise<Buffer> {
  const body =
    page.charset === 'utf-8'
      ? Buffer.from(new TextEncoder().encode(page.expectedText))
      : await readFile(new URL(`${page.charset}/${page.document}`, FIXTURE_DIRECTORY));
  return page.bom ? Buffer.concat([UTF8_BOM, body]) : body;
}
