// Finishes the CLI bundle after `tsup` has built it (see src/code-cache.ts for why):
// 1. each `import("…")` of dist/bin/cli-main.cjs becomes `esmImp("…")`, a call of the same length to
//    the import function the bin passes in, so that columns and the source map stay as they were;
//    an `import(` left that this cannot rewrite (no string literal after it) fails the build;
// 2. dist/bin/cli-main.cjs.cache, the code cache, is written by one command of the built bin: a
//    search refused under network policy none, which reaches no network and keeps no state, run
//    with a home folder of its own so that no configuration of the building machine takes part.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const BUNDLE_IMPORT = 'esmImp';
const bin = fileURLToPath(new URL('../dist/bin/cli.cjs', import.meta.url));
const bundle = fileURLToPath(new URL('../dist/bin/cli-main.cjs', import.meta.url));
const cache = `${bundle}.cache`;

const source = readFileSync(bundle, 'utf8');
if (new RegExp(`(?<![\\w$])${BUNDLE_IMPORT}\\b`).test(source)) {
  throw new Error(
    `${bundle} already uses the name ${BUNDLE_IMPORT}: it was finished before, or a source uses it`,
  );
}
let rewritten = 0;
const finished = source.replace(/(?<![\w$.])import\((?=["'`])/g, () => {
  rewritten++;
  return `${BUNDLE_IMPORT}(`;
});
const left = finished
  .split('\n')
  .map((line, index) => [index + 1, line])
  .filter(([, line]) => /(?<![\w$.])import\s*\(/.test(line));
if (left.length > 0) {
  throw new Error(
    `import() the bin cannot route, in ${bundle}:\n${left.map(([at, line]) => `  ${at}: ${line.trim()}`).join('\n')}`,
  );
}
writeFileSync(bundle, finished);

rmSync(cache, { force: true });
const home = mkdtempSync(join(tmpdir(), 'mono-agent-web-code-cache-'));
try {
  const run = spawnSync(process.execPath, [bin, 'search', 'code cache'], {
    env: {
      PATH: process.env.PATH ?? '',
      HOME: home,
      MONO_AGENT_NETWORK_MODE: 'none',
      MONO_AGENT_WEB_WRITE_CODE_CACHE: cache,
    },
    encoding: 'utf8',
    timeout: 60_000,
  });
  // Exit 3: the policy refused every destination, as it should under mode none.
  if (run.status !== 3 || !run.stdout.startsWith('WebSearch status: error | error: policy_denied')) {
    throw new Error(
      `the built bin did not answer the code-cache run as expected (exit ${run.status}):\n${run.stdout}${run.stderr}`,
    );
  }
  if (!existsSync(cache)) throw new Error(`the code-cache run wrote no ${cache}`);
  console.log(`CLI bundle: ${rewritten} import() routed; code cache ${statSync(cache).size} bytes`);
} finally {
  rmSync(home, { recursive: true, force: true });
}
