#!/usr/bin/env node
// The `mono-agent-web` bin, built as CommonJS (dist/bin/cli.cjs). It answers `--help` and `--version`
// itself, so they cost little more than starting Node; every other command line goes to the bundled
// CLI (dist/bin/cli-main.cjs, from cli-main.ts), run from beside this file with its code cache
// (code-cache.ts).
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { helpOrVersion } from './cli-usage.js';
import { runCommonJsBundle } from './code-cache.js';
import { exitWithInternalError } from './exit-codes.js';

const argv = process.argv.slice(2);
// The installed manifest, read at run time by the package's own name, like the bundled CLI does.
const version = () =>
  (createRequire(__filename)('@mono-agent/web/package.json') as { version: string }).version;
const answer = helpOrVersion(argv, version);
if (answer !== undefined) {
  process.stdout.write(answer);
} else {
  // The bundled CLI runs the command line when it loads.
  try {
    runCommonJsBundle(join(__dirname, 'cli-main.cjs'));
  } catch (error) {
    let installed: string | undefined;
    try {
      installed = version();
    } catch {
      // A broken install may lack its manifest too; the report says unknown.
    }
    exitWithInternalError(error, { command: argv[0], version: installed });
  }
}
