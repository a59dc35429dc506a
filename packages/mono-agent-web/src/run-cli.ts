import { type FailureCode, WebToolError } from '@mono-agent/budget-policy';
import { helpOrVersion, parseCliArguments } from './cli-usage.js';
import { EXIT_CODES, type ExitCode } from './exit-codes.js';
import { packageVersion } from './package-version.js';
import {
  createIdleRunRotation,
  MAX_RUN_IDLE_SECONDS,
  MIN_RUN_IDLE_SECONDS,
} from './runtime/idle-run-rotation.js';
import type { ToolCallResult, WebRuntimeOptions } from './runtime/web-runtime.js';

/** Where the CLI writes and what it reads; injected so tests and embedding hosts capture output. */
export interface CliOutput {
  /** Writes to standard output. */
  stdout: (text: string) => void;
  /** Writes to standard error. */
  stderr: (text: string) => void;
  /** Standard input, for `extract -`. */
  stdin?: AsyncIterable<Uint8Array | string>;
  /** The environment configuration is read from (default `process.env`). */
  env?: Readonly<Record<string, string | undefined>>;
  /** Extra runtime options (tests point the keyless engines at a local replay). */
  runtime?: Partial<Omit<WebRuntimeOptions, 'config'>>;
}

type Parsed = ReturnType<typeof parseCliArguments>;

class UsageError extends Error {}

function integerOption(value: string | undefined, name: string): number | undefined {
  if (value === undefined) return undefined;
  if (!/^\d+$/.test(value)) throw new UsageError(`--${name} must be a whole number, got '${value}'`);
  return Number(value);
}

function exitCodeFor(code: FailureCode | undefined): ExitCode {
  switch (code) {
    case undefined:
      return EXIT_CODES.success;
    case 'validation_error':
    case 'configuration_error':
      return EXIT_CODES.invalidInput;
    case 'policy_denied':
      return EXIT_CODES.policyDenied;
    case 'internal_error':
      return EXIT_CODES.internalError;
    default:
      return EXIT_CODES.backendFailure;
  }
}

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
  let parsed: Parsed;
  try {
    parsed = parseCliArguments(argv);
  } catch (error) {
    return usageFailure((error as Error).message, argv.includes('--json'), output);
  }
  const [command, ...rest] = parsed.positionals as [string, ...string[]];
  try {
    if (parsed.values['run-idle-seconds'] !== undefined && command !== 'mcp')
      throw new UsageError('--run-idle-seconds belongs to the mcp command');
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
        throw new UsageError(`unknown command '${command}'`);
    }
  } catch (error) {
    if (error instanceof UsageError) return usageFailure(error.message, parsed.values.json === true, output);
    if (WebToolError.isInstance(error)) {
      if (parsed.values.json) {
        output.stdout(
          `${JSON.stringify({ status: 'error', code: error.code, message: error.message, details: error.details }, null, 2)}\n`,
        );
      }
      output.stderr(`mono-agent-web: ${error.code}: ${error.message}\n`);
      return exitCodeFor(error.code);
    }
    output.stderr(`mono-agent-web: internal error: ${(error as Error)?.stack ?? String(error)}\n`);
    return EXIT_CODES.internalError;
  }
}

/** A command line that cannot run: the reason on stderr, and under `--json` a JSON error object too. */
function usageFailure(message: string, json: boolean, output: CliOutput): ExitCode {
  if (json)
    output.stdout(`${JSON.stringify({ status: 'error', code: 'validation_error', message }, null, 2)}\n`);
  output.stderr(`mono-agent-web: ${message}\nRun 'mono-agent-web --help' for usage.\n`);
  return EXIT_CODES.invalidInput;
}

// The configuration loader (and the network and provider modules it checks values with) loads only
// for a command that needs it, so `--help` and `--version` start as fast as Node itself.
async function loadConfig(parsed: Parsed, output: CliOutput) {
  const { loadWebConfig } = await import('./config/load-web-config.js');
  return await loadWebConfig({
    env: output.env ?? process.env,
    ...(parsed.values.config === undefined ? {} : { file: parsed.values.config }),
  });
}

async function loadRuntime(parsed: Parsed, output: CliOutput) {
  const config = await loadConfig(parsed, output);
  const { createWebRuntime } = await import('./runtime/web-runtime.js');
  // The CLI and the MCP server own their artifact folder: a bounded sweep runs as they start.
  return await createWebRuntime({
    artifactSweep: true,
    ...output.runtime,
    config,
    ...(output.env ? { env: output.env } : {}),
  });
}

function print(result: ToolCallResult, parsed: Parsed, output: CliOutput): ExitCode {
  if (parsed.values.json) {
    const data = result.data ?? {
      status: 'error',
      code: result.code ?? 'internal_error',
      message: result.text,
    };
    output.stdout(`${JSON.stringify(data, null, 2)}\n`);
  } else output.stdout(`${result.text}\n`);
  return exitCodeFor(result.isError ? (result.code ?? 'internal_error') : undefined);
}

async function toolCommand(parsed: Parsed, rest: string[], output: CliOutput, tool: 'search' | 'fetch') {
  if (rest.length !== 1) {
    throw new UsageError(tool === 'search' ? 'search takes one query (quote it)' : 'fetch takes one URL');
  }
  const values = parsed.values;
  // A fetch extracts in a worker thread, whose start-up (Node's own, then the HTML parsers) takes
  // longer than the request to a nearby page: started now, it overlaps the configuration, the
  // runtime and the request instead of following them. A started worker never keeps the process.
  if (tool === 'fetch' && values.render !== 'always') {
    void import('@mono-agent/extract').then(
      ({ sharedExtractionPool }) => sharedExtractionPool().prepare?.(),
      () => {},
    );
  }
  const runtime = await loadRuntime(parsed, output);
  const run = runtime.startRun();
  // Ctrl-C or a TERM cancels the call, so a browser it started is stopped and cleaned up before exit.
  const interrupt = new AbortController();
  const stop = () => interrupt.abort();
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
  try {
    const result =
      tool === 'search'
        ? await run.webSearch({
            query: rest[0],
            ...(values.alternate === undefined ? {} : { alternate_queries: values.alternate }),
            ...(values.limit === undefined ? {} : { limit: integerOption(values.limit, 'limit') }),
            ...(values.domain === undefined ? {} : { domains: values.domain }),
            ...(values['exclude-domain'] === undefined ? {} : { exclude_domains: values['exclude-domain'] }),
            ...(values.language === undefined ? {} : { language: values.language }),
            ...(values['time-range'] === undefined ? {} : { time_range: values['time-range'] }),
          })
        : await run.webFetch(
            {
              url: rest[0],
              ...(values.format === undefined ? {} : { format: values.format }),
              ...(values.render === undefined ? {} : { render: values.render }),
              ...(values['start-line'] === undefined
                ? {}
                : { start_line: integerOption(values['start-line'], 'start-line') }),
              ...(values['max-lines'] === undefined
                ? {}
                : { max_lines: integerOption(values['max-lines'], 'max-lines') }),
              ...(values['max-output-chars'] === undefined
                ? {}
                : { max_output_chars: integerOption(values['max-output-chars'], 'max-output-chars') }),
            },
            { signal: interrupt.signal },
          );
    return print(result, parsed, output);
  } finally {
    process.removeListener('SIGINT', stop);
    process.removeListener('SIGTERM', stop);
    await run.close();
    await runtime.close();
  }
}

async function readInput(source: string | undefined, output: CliOutput): Promise<Uint8Array> {
  if (source !== undefined && source !== '-')
    return new Uint8Array(await process.getBuiltinModule('node:fs/promises').readFile(source));
  const chunks: Buffer[] = [];
  for await (const chunk of output.stdin ?? process.stdin) {
    chunks.push(typeof chunk === 'string' ? Buffer.from(chunk) : Buffer.from(chunk));
  }
  return new Uint8Array(Buffer.concat(chunks));
}

async function extractCommand(parsed: Parsed, rest: string[], output: CliOutput) {
  if (rest.length > 1) throw new UsageError('extract takes at most one file (or - for standard input)');
  const url = parsed.values.url;
  if (url === undefined)
    throw new UsageError('extract needs --url: the address the bytes came from (links resolve against it)');
  const format = parsed.values.format;
  if (format !== undefined && !['markdown', 'text', 'raw'].includes(format)) {
    throw new UsageError(`--format must be markdown, text or raw, got '${format}'`);
  }
  const body = await readInput(rest[0], output);
  const { extract } = await import('@mono-agent/extract');
  const document = await extract({
    body,
    url,
    ...(parsed.values['content-type'] === undefined ? {} : { contentType: parsed.values['content-type'] }),
    ...(format === undefined ? {} : { format: format as 'markdown' | 'text' | 'raw' }),
  });
  if (parsed.values.json) output.stdout(`${JSON.stringify(document, null, 2)}\n`);
  else output.stdout(`${document.content}\n`);
  return EXIT_CODES.success;
}

async function webControlCommand(parsed: Parsed, rest: string[], output: CliOutput) {
  const [action] = rest;
  if ((action !== 'status' && action !== 'reset') || rest.length !== 1) {
    throw new UsageError("web-control takes 'status' or 'reset'");
  }
  if (!parsed.values.json) throw new UsageError(`web-control ${action} prints JSON only: add --json`);
  const runtime = await loadRuntime(parsed, output);
  let report: Awaited<ReturnType<typeof runtime.coordinator.status | typeof runtime.coordinator.reset>>;
  try {
    report = action === 'status' ? await runtime.coordinator.status() : await runtime.coordinator.reset();
  } catch (error) {
    // Unsafe host state or an unreachable Redis: the refusal is JSON too, naming the problem.
    if (!WebToolError.isInstance(error)) throw error;
    output.stdout(
      `${JSON.stringify({ mode: runtime.coordinator.mode, error: { code: error.code, message: error.message, details: error.details } }, null, 2)}\n`,
    );
    output.stderr(`mono-agent-web: ${error.code}: ${error.message}\n`);
    return exitCodeFor(error.code);
  } finally {
    // Closes a Redis connection, so the command ends as soon as it has answered.
    await runtime.close();
  }
  output.stdout(`${JSON.stringify(report, null, 2)}\n`);
  return action === 'reset' && 'reset' in report && report.reset === false
    ? EXIT_CODES.backendFailure
    : EXIT_CODES.success;
}

async function mcpCommand(parsed: Parsed, output: CliOutput) {
  const flag = integerOption(parsed.values['run-idle-seconds'], 'run-idle-seconds');
  if (flag !== undefined && (flag < MIN_RUN_IDLE_SECONDS || flag > MAX_RUN_IDLE_SECONDS)) {
    throw new UsageError(
      `--run-idle-seconds must be from ${MIN_RUN_IDLE_SECONDS} through ${MAX_RUN_IDLE_SECONDS}, got ${flag}`,
    );
  }
  const runtime = await loadRuntime(parsed, output);
  // One server serves many model runs: each burst of calls gets its own run and request budget.
  const runs = createIdleRunRotation({
    idleSeconds: flag ?? runtime.config.mcp.runIdleSeconds,
    startRun: (notice) => runtime.startRun(notice),
  });
  const { serveMcpOverStdio } = await import('@mono-agent/tool-adapters');
  try {
    await serveMcpOverStdio({
      webSearch: (args, options) => runs.use((run) => run.webSearch(args, options)),
      webFetch: (args, options) => runs.use((run) => run.webFetch(args, options)),
    });
  } finally {
    await runs.close();
    await runtime.close();
  }
  return EXIT_CODES.success;
}

async function validateCommand(parsed: Parsed, rest: string[], output: CliOutput) {
  if (rest.length > 0) throw new UsageError('validate takes no arguments');
  const config = await loadConfig(parsed, output);
  const { validateWebConfig } = await import('./validate/validate-web-config.js');
  const report = await validateWebConfig(config, { liveness: !parsed.values['no-liveness'] });
  if (parsed.values.json) {
    output.stdout(`${JSON.stringify(report, null, 2)}\n`);
  } else {
    output.stdout(`${report.section}${report.liveness ? '' : ' (liveness off)'}\n`);
    for (const check of report.checks) output.stdout(`  [${check.status}] ${check.name}: ${check.detail}\n`);
  }
  if (report.ok) return EXIT_CODES.success;
  const structural = report.checks.some(
    (check) => check.status === 'fail' && !check.name.startsWith('liveness.'),
  );
  return structural ? EXIT_CODES.invalidInput : EXIT_CODES.backendFailure;
}
