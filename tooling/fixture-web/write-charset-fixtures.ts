// One-off generator of the legacy-charset fixtures in src/__fixtures__/charsets/. The bytes come from
// the system's iconv (glibc), a real encoder independent of this package, and are committed as binary
// files; the server only reads them. Run again after changing charset-documents.ts:
//   pnpm exec tsx write-charset-fixtures.ts
import { execFileSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import {
  CHARSET_DOCUMENTS,
  type FixtureCharset,
  renderCharsetDocument,
} from './src/charset-pages/charset-documents.js';

const ICONV_TARGETS: Readonly<Record<Exclude<FixtureCharset, 'utf-8'>, string>> = {
  shift_jis: 'SHIFT_JIS',
  'windows-1251': 'WINDOWS-1251',
  'iso-8859-1': 'ISO-8859-1',
};

for (const [charset, target] of Object.entries(ICONV_TARGETS) as [
  Exclude<FixtureCharset, 'utf-8'>,
  string,
][]) {
  const directory = fileURLToPath(new URL(`./src/__fixtures__/charsets/${charset}/`, import.meta.url));
  mkdirSync(directory, { recursive: true });
  for (const document of CHARSET_DOCUMENTS) {
    // Without //TRANSLIT or -c, iconv fails on any character the charset lacks instead of guessing.
    const bytes = execFileSync('iconv', ['-f', 'UTF-8', '-t', target], {
      input: renderCharsetDocument(charset, document),
    });
    writeFileSync(`${directory}${document}`, bytes);
    console.log(`${charset}/${document}: ${bytes.length} bytes`);
  }
}
