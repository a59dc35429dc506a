import type { SearchOutcome } from '@mono-agent/search-providers';
import type { ToolCallResult, WebTools } from '../../src/adapters/web-tools.js';
import { renderFetchOutcome } from '../../src/render-fetch-outcome.js';
import { renderSearchOutcome } from '../../src/render-search-outcome.js';
import { parseToolArguments, TOOL_NAMES, WebFetchInput, WebSearchInput } from '../../src/tool-definitions.js';

/** A host whose URL makes the echo fetch fail with HTTP 404, to exercise the failure path. */
export const FAILING_HOST = 'missing.example';
/** A URL path the echo fetch does not answer until the call is aborted, to exercise cancellation. */
export const HANGING_PATH = '/hang';

/** What `serve-echo-mcp.ts` writes to stderr once `serveMcpOverStdio` has resolved. */
export const SERVER_CLOSED_MARKER = 'echo mcp server: transport closed';

/** One call the echo implementation received. */
export interface RecordedCall {
  /** The tool that was called. */
  tool: (typeof TOOL_NAMES)[keyof typeof TOOL_NAMES];
  /** The arguments exactly as the host passed them. */
  args: unknown;
  /** The abort signal the host passed, if any. */
  signal: AbortSignal | undefined;
}

/** The echo implementation, with the calls it received. */
export interface EchoWebTools extends WebTools {
  /** Every call so far, in order. */
  calls: RecordedCall[];
}

function untilAborted(signal: AbortSignal | undefined): Promise<never> {
  return new Promise((_resolve, reject) => {
    if (signal === undefined) return;
    if (signal.aborted) reject(signal.reason);
    signal.addEventListener('abort', () => reject(signal.reason), { once: true });
  });
}

/**
 * A real WebTools implementation over no network: arguments are validated with `parseToolArguments`,
 * WebFetch renders a document made from its arguments and WebSearch a two-result outcome for its
 * query, both through the package's own renderers.
 */
export function createEchoWebTools(): EchoWebTools {
  const calls: RecordedCall[] = [];
  return {
    calls,
    async webFetch(args, options): Promise<ToolCallResult> {
      calls.push({ tool: TOOL_NAMES.fetch, args, signal: options?.signal });
      const parsed = parseToolArguments(WebFetchInput, args);
      if (!parsed.ok) return { text: parsed.message, isError: true };
      const url = new URL(parsed.value.url);
      if (url.hostname === FAILING_HOST) {
        return {
          text: renderFetchOutcome({ status: 'error', code: 'http_status', httpStatus: 404 }),
          isError: true,
        };
      }
      if (url.pathname === HANGING_PATH) await untilAborted(options?.signal);
      const content = [`Echo of ${parsed.value.url}`, `format: ${parsed.value.format ?? 'markdown'}`].join(
        '\n',
      );
      const text = renderFetchOutcome({
        status: 'ok',
        url: parsed.value.url,
        httpStatus: 200,
        redirects: 0,
        document: {
          kind: 'text',
          format: parsed.value.format ?? 'markdown',
          title: `Echo ${url.hostname}`,
          charset: 'utf-8',
          stage: 'text',
          replacementCount: 0,
        },
        slice: {
          content,
          startLine: 1,
          endLine: 2,
          totalLines: 2,
          nextLine: undefined,
          truncatedByChars: false,
          hint: 'Lines 1-2 of 2. End of document.',
        },
        cacheHit: false,
      });
      return { text, isError: false };
    },
    async webSearch(args, options): Promise<ToolCallResult> {
      calls.push({ tool: TOOL_NAMES.search, args, signal: options?.signal });
      const parsed = parseToolArguments(WebSearchInput, args);
      if (!parsed.ok) return { text: parsed.message, isError: true };
      const { query } = parsed.value;
      const slug = encodeURIComponent(query.toLowerCase().replace(/\s+/g, '-'));
      const outcome: SearchOutcome = {
        status: 'results',
        query,
        backend: 'searxng',
        results: [1, 2].slice(0, parsed.value.limit ?? 2).map((rank) => ({
          url: `https://echo.example/${slug}/${rank}`,
          title: `Result ${rank} for ${query}`,
          snippet: `Snippet ${rank} about ${query}.`,
          score: 1 / rank,
          sources: [`searxng:${rank}`],
        })),
        providers: [{ backend: 'searxng', disposition: 'accepted', requests: 1, queries: 1 }],
        filterSupport: { language: 'supported', timeRange: 'supported' },
        rateLimited: false,
        cooldownBackends: [],
        retryInRun: true,
        nextAction: 'fetch_results',
        requestsUsed: 1,
        requestsRemaining: 9,
        cacheHit: false,
        sharedInFlight: false,
        filtered: { outsideDomains: 0, excluded: 0, irrelevant: 0 },
        warnings: [],
      };
      return { text: renderSearchOutcome(outcome), isError: false };
    },
  };
}
