import { type FailureCode, WebToolError } from '@mono-agent/budget-policy';
import { createProgressLine, type ProgressClock, type ProgressStream } from './cli-progress.js';
import {
  CommandLineError,
  type CommandName,
  helpOrVersion,
  type ParsedCommandLine,
  parseCommandLine,
} from './cli-usage.js';
import { EXIT_CODES, type ExitCode, reportInternalError } from './exit-codes.js';
import { packageVersion } from './package-version.js';
import {
  createIdleRunRotation,
  MAX_RUN_IDLE_SECONDS,
  MIN_RUN_IDLE_SECONDS,
} from './runtime/idle-run-rotation.js';
import type { ToolCallResult, WebRuntimeOptions } from './runtime/runtime-types.js';

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
  /**
   * Where a long search or fetch shows what it waits for (the bin passes stderr): drawn only when it
   * is a terminal, never under `--json`. Left out, no progress is shown.
   */
  progress?: ProgressStream;
  /** The progress line's clock (default the process's). */
  progressClock?: ProgressClock;
}

type Parsed = ParsedCommandLine;

/** A command line that cannot run: exit 2, its message on one line with a pointer to the command's help. */
class UsageError extends Error {}

/** An input the command cannot use (an unreadable file): exit 2, its message on one line. */
class InputError extends UsageError {}

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

function oneLine(text: string): string {
  return text.replace(/\s*\n\s*/g, ' ');
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

/** The command-line spelling of each tool argument, so a refusal names what the operator typed. */
const ARGUMENT_OPTIONS: Readonly<Record<string, string>> = {
  query: '<query>',
  url: '<url>',
  alternate_queries: '--alternate',
  limit: '--limit',
  domains: '--domain',
  exclude_domains: '--exclude-domain',
  language: '--language',
  time_range: '--time-range',
  format: '--format',
  render: '--render',
  start_line: '--start-line',
  max_lines: '--max-lines',
  max_output_chars: '--max-output-chars',
};

interface ArgumentProblemLike {
  field: string;
  message: string;
}

/**
 * The operator's view of a refused call, on stderr: one line per rejected argument, named as it was
 * typed. The model-facing text on stdout stays as the contract renders it.
 */
async function explainRefusal(
  tool: 'search' | 'fetch',
  args: Record<string, unknown>,
  result: ToolCallResult,
  output: CliOutput,
): Promise<void> {
  let problems = (result.data as { problems?: ArgumentProblemLike[] } | undefined)?.problems;
  if (problems === undefined) {
    const { parseToolArguments, WebFetchInput, WebSearchInput } = await import('@mono-agent/tool-adapters');
    const parsed =
      tool === 'search' ? parseToolArguments(WebSearchInput, args) : parseToolArguments(WebFetchInput, args);
    problems = parsed.ok ? [] : parsed.problems;
  }
  if (problems.length === 0) {
    const reason = result.text
      .split('\n')
      .slice(1)
      .join(' ')
      .replace(/^reason: /, '');
    output.stderr(`mono-agent-web: ${tool}: ${oneLine(reason || 'invalid arguments')}\n`);
    return;
  }
  for (const problem of problems) {
    const name = problem.field.split('.')[0]!;
    output.stderr(
      `mono-agent-web: ${tool}: ${ARGUMENT_OPTIONS[name] ?? name}: ${oneLine(problem.message)}\n`,
    );
  }
}

/** One engine failure of a SearXNG answer, as the provider report carries it. */
interface EngineFailureLike {
  engine?: string;
  reason?: string;
}

/** One provider's part in a search, as the outcome data carries it. */
interface ProviderReportLike {
  backend: string;
  disposition: string;
  code?: string;
  message?: string;
  engines?: EngineFailureLike[];
}

/**
 * Why each provider did not answer, on stderr, when a search found nothing: the model reads only the
 * sanitized backend and category, the operator needs the provider's own reason (a DNS failure, a
 * missing CLI, the engine's answer) to fix it.
 */
function explainSearchFailure(result: ToolCallResult, output: CliOutput): void {
  const outcome = result.data as { status?: string; providers?: ProviderReportLike[] } | undefined;
  if (outcome?.providers === undefined || outcome.status === 'results') return;
  for (const report of outcome.providers) {
    if (report.disposition === 'accepted') continue;
    const code = report.code === undefined ? '' : ` (${report.code})`;
    const reason = report.message === undefined ? '' : `: ${oneLine(report.message)}`;
    const engines =
      report.engines === undefined || report.engines.length === 0
        ? ''
        : `; engines: ${report.engines.map((engine) => `${engine.engine ?? '?'} ${engine.reason ?? ''}`.trim()).join(', ')}`;
    output.stderr(
      `mono-agent-web: search: ${report.backend} ${report.disposition}${code}${reason}${engines}\n`,
    );
  }
}

async function print(
  tool: 'search' | 'fetch',
  args: Record<string, unknown>,
  result: ToolCallResult,
  parsed: Parsed,
  output: CliOutput,
): Promise<ExitCode> {
  if (parsed.values.json) {
    const data = result.data ?? {
      status: 'error',
      code: result.code ?? 'internal_error',
      message: result.text,
    };
    output.stdout(`${JSON.stringify(data, null, 2)}\n`);
  } else {
    output.stdout(`${result.text}\n`);
    if (result.isError && result.code === 'validation_error')
      await explainRefusal(tool, args, result, output);
    if (tool === 'search') explainSearchFailure(result, output);
  }
  return exitCodeFor(result.isError ? (result.code ?? 'internal_error') : undefined);
}

/** The tool arguments a `search` or `fetch` command line asks for. */
function toolArguments(parsed: Parsed, rest: string[], tool: 'search' | 'fetch'): Record<string, unknown> {
  if (rest.length !== 1) {
    throw new UsageError(
      tool === 'search'
        ? `search takes one query (quote it), got ${rest.length === 0 ? 'none' : `${rest.length} words`}`
        : `fetch takes one URL, got ${rest.length === 0 ? 'none' : rest.length}`,
    );
  }
  const values = parsed.values;
  if (tool === 'search') {
    return {
      query: rest[0],
      ...(values.alternate === undefined ? {} : { alternate_queries: values.alternate }),
      ...(values.limit === undefined ? {} : { limit: integerOption(values.limit, 'limit') }),
      ...(values.domain === undefined ? {} : { domains: values.domain }),
      ...(values['exclude-domain'] === undefined ? {} : { exclude_domains: values['exclude-domain'] }),
      ...(values.language === undefined ? {} : { language: values.language }),
      ...(values['time-range'] === undefined ? {} : { time_range: values['time-range'] }),
    };
  }
  return {
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
  };
}

async function toolCommand(parsed: Parsed, rest: string[], output: CliOutput, tool: 'search' | 'fetch') {
  const args = toolArguments(parsed, rest, tool);
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
  const progress = parsed.values.json
    ? undefined
    : createProgressLine(tool, output.progress, output.progressClock);
  try {
    const callOptions = {
      signal: interrupt.signal,
      ...(progress === undefined ? {} : { onProgress: progress.onProgress }),
    };
    let result: ToolCallResult;
    try {
      result =
        tool === 'search' ? await run.webSearch(args, callOptions) : await run.webFetch(args, callOptions);
    } finally {
      // The line is erased before the answer is printed, and when the call fails.
      progress?.stop();
    }
    return await print(tool, args, result, parsed, output);
  } finally {
    process.removeListener('SIGINT', stop);
    process.removeListener('SIGTERM', stop);
    await run.close();
    await runtime.close();
  }
}

/** Why a file could not be read, in words an operator acts on (from Node's error code). */
export function unreadableFileReason(error: unknown): string {
  const code = (error as NodeJS.ErrnoException | undefined)?.code;
  switch (code) {
    case 'ENOENT':
      return 'it does not exist';
    case 'EISDIR':
      return 'it is a directory, not a file';
    case 'EACCES':
    case 'EPERM':
      return 'permission denied';
    case 'ENOTDIR':
      return 'a part of its path is not a directory';
    case 'ELOOP':
      return 'its path has a symbolic link loop';
    default:
      return code === undefined ? String((error as Error)?.message ?? error) : `it cannot be read (${code})`;
  }
}

async function readInput(source: string | undefined, output: CliOutput): Promise<Uint8Array> {
  if (source !== undefined && source !== '-') {
    try {
      return new Uint8Array(await process.getBuiltinModule('node:fs/promises').readFile(source));
    } catch (error) {
      throw new InputError(`cannot read the input file ${source}: ${unreadableFileReason(error)}`);
    }
  }
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
  if (!/^https?:\/\//i.test(url) || !URL.canParse(url))
    throw new UsageError(`--url must be an absolute http:// or https:// URL, got '${url}'`);
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
  const runtime = await loadRuntime(parsed, output);
  let report: Awaited<ReturnType<typeof runtime.coordinator.status | typeof runtime.coordinator.reset>>;
  try {
    report = action === 'status' ? await runtime.coordinator.status() : await runtime.coordinator.reset();
  } catch (error) {
    // Unsafe host state or an unreachable Redis: the refusal is JSON too, naming the problem.
    if (!WebToolError.isInstance(error)) throw error;
    if (parsed.values.json)
      output.stdout(
        `${JSON.stringify({ mode: runtime.coordinator.mode, error: { code: error.code, message: error.message, details: error.details } }, null, 2)}\n`,
      );
    output.stderr(`mono-agent-web: ${error.code}: ${error.message}\n`);
    return exitCodeFor(error.code);
  } finally {
    // Closes a Redis connection, so the command ends as soon as it has answered.
    await runtime.close();
  }
  if (parsed.values.json) output.stdout(`${JSON.stringify(report, null, 2)}\n`);
  else {
    const { formatCoordinatorStatus, formatResetReport } = await import(
      './web-control/format-web-control.js'
    );
    output.stdout('reset' in report ? formatResetReport(report) : formatCoordinatorStatus(report));
  }
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
    const { formatValidationReport } = await import('./validate/format-validation.js');
    output.stdout(formatValidationReport(report));
  }
  if (report.ok) return EXIT_CODES.success;
  const structural = report.checks.some(
    (check) => check.status === 'fail' && !check.name.startsWith('liveness.'),
  );
  return structural ? EXIT_CODES.invalidInput : EXIT_CODES.backendFailure;
}
