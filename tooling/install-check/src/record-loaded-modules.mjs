// Preloaded (`node --import`) by the import-cost checks: records every module the process loads,
// ES modules through a resolve hook and CommonJS ones from the require cache, and prints them as one
// JSON array line on stdout when the process exits.
import { appendFileSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createRequire, register } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const directory = mkdtempSync(join(tmpdir(), 'loaded-modules-'));
const logPath = join(directory, 'resolved.log');
appendFileSync(logPath, '');
register('./record-resolutions.mjs', import.meta.url, { data: { logPath } });

process.on('exit', () => {
  const esm = readFileSync(logPath, 'utf8').split('\n').filter(Boolean);
  const commonjs = Object.keys(createRequire(import.meta.url).cache);
  rmSync(directory, { recursive: true, force: true });
  process.stdout.write(`${JSON.stringify([...new Set([...esm, ...commonjs])])}\n`);
});
