// Preloaded (`node --import`) by the import-cost checks: records every module the process loads,
// ES modules through a resolve hook and CommonJS ones from the require cache, and prints them as one
// JSON array line on stdout when the process exits. Worker threads inherit the preload: each appends
// what it loads to the same log as it loads it (a terminated worker gets no exit event), so the list
// the main thread prints includes what extraction workers loaded.
import { appendFileSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createRequire, register } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { isMainThread } from 'node:worker_threads';

const LOG_VARIABLE = 'MONO_AGENT_LOADED_MODULES_LOG';
const require = createRequire(import.meta.url);

if (isMainThread) {
  const directory = mkdtempSync(join(tmpdir(), 'loaded-modules-'));
  const logPath = join(directory, 'resolved.log');
  appendFileSync(logPath, '');
  // Workers copy the environment when they are created, so they find the log here.
  process.env[LOG_VARIABLE] = logPath;
  register('./record-resolutions.mjs', import.meta.url, { data: { logPath } });
  process.on('exit', () => {
    const loaded = readFileSync(logPath, 'utf8').split('\n').filter(Boolean);
    const commonjs = Object.keys(require.cache);
    rmSync(directory, { recursive: true, force: true });
    process.stdout.write(`${JSON.stringify([...new Set([...loaded, ...commonjs])])}\n`);
  });
} else if (process.env[LOG_VARIABLE] !== undefined) {
  const logPath = process.env[LOG_VARIABLE];
  register('./record-resolutions.mjs', import.meta.url, { data: { logPath } });
  // CommonJS loads inside the worker bypass the resolve hook: record each one's file as it loads.
  const Module = require('node:module');
  const load = Module._load;
  Module._load = function recordLoad(request, parent, isMain) {
    const exported = load.call(this, request, parent, isMain);
    try {
      const file = Module._resolveFilename(request, parent, isMain);
      if (file.startsWith('/')) appendFileSync(logPath, `${file}\n`);
    } catch {
      // A built-in or an unresolvable request: nothing on disk to record.
    }
    return exported;
  };
}
