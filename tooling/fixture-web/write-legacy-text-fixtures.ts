// One-off generator of the undeclared legacy-charset pages in src/__fixtures__/legacy-text/. The bytes
// come from the system's iconv (glibc); the server only reads them. Run again after changing
// src/legacy-text/legacy-texts.ts:
//   pnpm exec tsx write-legacy-text-fixtures.ts
import { execFileSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import {
  LEGACY_CHARSETS,
  LEGACY_FORMS,
  type LegacyCharset,
  renderLegacyText,
} from './src/legacy-text/legacy-texts.js';

const ICONV_TARGETS: Readonly<Record<LegacyCharset, string>> = {
  'windows-1252': 'WINDOWS-1252',
  'iso-8859-2': 'ISO-8859-2',
  'windows-1251': 'WINDOWS-1251',
  'koi8-r': 'KOI8-R',
  shift_jis: 'SHIFT_JIS',
  gbk: 'GBK',
  'euc-kr': 'EUC-KR',
  'windows-1250': 'WINDOWS-1250',
  'windows-1253': 'WINDOWS-1253',
  'iso-8859-5': 'ISO-8859-5',
  'iso-8859-7': 'ISO-8859-7',
  'koi8-u': 'KOI8-U',
  'euc-jp': 'EUC-JP',
  big5: 'BIG5',
  // The LE and BE names write no byte order mark (plain UTF-16 would).
  'utf-16le': 'UTF-16LE',
  'utf-16be': 'UTF-16BE',
};

const directory = fileURLToPath(new URL('./src/__fixtures__/legacy-text/', import.meta.url));
mkdirSync(directory, { recursive: true });
for (const charset of LEGACY_CHARSETS) {
  for (const form of LEGACY_FORMS) {
    // Without //TRANSLIT or -c, iconv fails on any character the charset lacks instead of guessing.
    const bytes = execFileSync('iconv', ['-f', 'UTF-8', '-t', ICONV_TARGETS[charset]], {
      input: renderLegacyText(charset, form),
    });
    const file = `${charset}.${form === 'html' ? 'html' : 'txt'}`;
    writeFileSync(`${directory}${file}`, bytes);
    console.log(`${file}: ${bytes.length} bytes`);
  }
}
