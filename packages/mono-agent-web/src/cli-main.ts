// Every command but --help and --version: the whole CLI as one CommonJS bundle (dist/bin/cli-main.cjs),
// which cli-entry.ts requires. One CommonJS file starts faster than the same code as a graph of ES
// modules; the extraction package, the agent SDKs and the Redis client still load only when a command
// needs them.
import { exitWithInternalError } from './exit-codes.js';
import { runCli } from './run-cli.js';

runCli(process.argv.slice(2), {
  stdout: (text) => process.stdout.write(text),
  stderr: (text) => process.stderr.write(text),
  progress: process.stderr,
}).then(
  (code) => {
    process.exitCode = code;
  },
  (error: unknown) => exitWithInternalError(error, { command: process.argv[2] }),
);
