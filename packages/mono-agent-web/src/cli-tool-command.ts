import {
  type CliOutput,
  exitCodeFor,
  integerOption,
  loadRuntime,
  oneLine,
  UsageError,
} from './cli-command.js';
import { createProgressLine } from './cli-progress.js';
import type { ParsedCommandLine } from './cli-usage.js';
import type { ExitCode } from './exit-codes.js';
import type { ToolCallResult } from './runtime/runtime-types.js';

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
  parsed: ParsedCommandLine,
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
function toolArguments(
  parsed: ParsedCommandLine,
  rest: string[],
  tool: 'search' | 'fetch',
): Record<string, unknown> {
  if (rest.length !== 1) throw new UsageError(operandCountMessage(tool, rest.length));
  return tool === 'search' ? searchArguments(parsed, rest[0]) : fetchArguments(parsed, rest[0]);
}

/** Why a `search` or `fetch` command line with other than one operand is refused. */
function operandCountMessage(tool: 'search' | 'fetch', count: number): string {
  return tool === 'search'
    ? `search takes one query (quote it), got ${count === 0 ? 'none' : `${count} words`}`
    : `fetch takes one URL, got ${count === 0 ? 'none' : count}`;
}

/** The WebSearch arguments of a `search` command line: only the options it gives. */
function searchArguments(parsed: ParsedCommandLine, query: string | undefined): Record<string, unknown> {
  const values = parsed.values;
  return {
    query,
    ...(values.alternate === undefined ? {} : { alternate_queries: values.alternate }),
    ...(values.limit === undefined ? {} : { limit: integerOption(values.limit, 'limit') }),
    ...(values.domain === undefined ? {} : { domains: values.domain }),
    ...(values['exclude-domain'] === undefined ? {} : { exclude_domains: values['exclude-domain'] }),
    ...(values.language === undefined ? {} : { language: values.language }),
    ...(values['time-range'] === undefined ? {} : { time_range: values['time-range'] }),
  };
}

/** The WebFetch arguments of a `fetch` command line: only the options it gives. */
function fetchArguments(parsed: ParsedCommandLine, url: string | undefined): Record<string, unknown> {
  const values = parsed.values;
  return {
    url,
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

/** Runs `search` or `fetch`: one tool call of a fresh run, printed as text or JSON. */
export async function toolCommand(
  parsed: ParsedCommandLine,
  rest: string[],
  output: CliOutput,
  tool: 'search' | 'fetch',
) {
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
