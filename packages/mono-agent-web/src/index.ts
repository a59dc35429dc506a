export { EXIT_CODES, type ExitCode } from './exit-codes.js';
export { type CliOutput, runCli } from './run-cli.js';
