// Rewrites the expected files of the golden pages (test/pages/<name>/expected.md and
// expected-metadata.json) from what extraction gives today, so that a change to extraction shows as
// a diff of those files to review. Run from the repository root:
//   pnpm tsx packages/extract/scripts/update-golden-pages.ts [name…]
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import {
  extractGoldenPage,
  GOLDEN_FILES,
  GOLDEN_PAGES_DIRECTORY,
  goldenPageNames,
} from '../test/golden-pages.js';

const wanted = process.argv.slice(2);
for (const name of goldenPageNames()) {
  if (wanted.length > 0 && !wanted.includes(name)) continue;
  const { markdown, metadata } = await extractGoldenPage(name);
  writeFileSync(join(GOLDEN_PAGES_DIRECTORY, name, GOLDEN_FILES.markdown), markdown);
  writeFileSync(join(GOLDEN_PAGES_DIRECTORY, name, GOLDEN_FILES.metadata), metadata);
  console.log(`updated ${name}`);
}
