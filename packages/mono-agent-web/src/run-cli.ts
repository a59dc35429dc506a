import { WebToolError } from '@mono-agent/budget-policy';
import { type CliOutput, exitCodeFor, InputError, oneLine, UsageError } from './cli-command.js';
import { extractCommand } from './cli-extract-command.js';
import { mcpCommand } from './cli-mcp-command.js';
import { toolCommand } from './cli-tool-command.js';
import {
  CommandLineError,
  type CommandName,
  helpOrVersion,
  type ParsedCommandLine,
  parseCommandLine,
} from './cli-usage.js';
import { validateCommand } from './cli-validate-command.js';
import { webControlCommand } from './cli-web-control-command.js';
import { EXIT_CODES, type ExitCode, reportInternalError } from './exit-codes.js';
import { packageVersion } from './package-version.js';

/**
 * Runs the CLI with the given arguments (without `node` and the script path) and returns the exit
 * code instead of exiting, so it can be embedded and tested in-process.
 */
export async function runCli(argv: readonly string[], output: CliOutput): Promise<ExitCode> {
  const answer = helpOrVersion(argv, packageVersion);
  if (answer !== undefined) {
    output.stdout(answer);
    return EXIT_CODES.success;
  }
  let parsed: ParsedCommandLine;
  try {
    parsed = parseCommandLine(argv);
  } catch (error) {
    if (!(error instanceof CommandLineError)) throw error;
    return usageFailure(error.message, argv.includes('--json'), output);
  }
  const command = parsed.command!;
  const rest = parsed.positionals;
  try {
    switch (command) {
      case 'search':
        return await toolCommand(parsed, rest, output, 'search');
      case 'fetch':
        return await toolCommand(parsed, rest, output, 'fetch');
      case 'extract':
        return await extractCommand(parsed, rest, output);
      case 'web-control':
        return await webControlCommand(parsed, rest, output);
      case 'mcp':
        return await mcpCommand(parsed, output);
      case 'validate':
        return await validateCommand(parsed, rest, output);
      default:
        throw new UsageError(`unknown command '${command satisfies never}'`);
    }
  } catch (error) {
    if (error instanceof UsageError)
      return usageFailure(
        error.message,
        parsed.values.json === true,
        output,
        command,
        !(error instanceof InputError),
      );
    if (WebToolError.isInstance(error)) {
      if (parsed.values.json) {
        output.stdout(
          `${JSON.stringify({ status: 'error', code: error.code, message: error.message, details: error.details }, null, 2)}\n`,
        );
      }
      output.stderr(`mono-agent-web: ${error.code}: ${oneLine(error.message)}\n`);
      return exitCodeFor(error.code);
    }
    // A bug: one line on stderr naming the report file, which holds the stack; stdout stays clean
    // but for the JSON error object a script parses.
    const report = reportInternalError(error, { command, version: packageVersion() });
    if (parsed.values.json) {
      output.stdout(
        `${JSON.stringify({ status: 'error', code: 'internal_error', message: report.line, ...(report.file === undefined ? {} : { report: report.file }) }, null, 2)}\n`,
      );
    }
    output.stderr(`${report.line}\n`);
    return EXIT_CODES.internalError;
  }
}

/** A command line that cannot run: the reason on stderr, and under `--json` a JSON error object too. */
function usageFailure(
  message: string,
  json: boolean,
  output: CliOutput,
  command?: CommandName,
  pointsAtHelp = true,
): ExitCode {
  if (json)
    output.stdout(`${JSON.stringify({ status: 'error', code: 'validation_error', message }, null, 2)}\n`);
  const where = command === undefined || message.startsWith(`${command} `) ? '' : `${command}: `;
  const hint =
    command === undefined || !pointsAtHelp || message.includes("see 'mono-agent-web")
      ? ''
      : `; see 'mono-agent-web help ${command}'`;
  output.stderr(`mono-agent-web: ${where}${oneLine(message)}${hint}\n`);
  return EXIT_CODES.invalidInput;
}
