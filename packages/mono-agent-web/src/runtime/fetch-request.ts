import type { OutputFormat } from '@mono-agent/extract';
import { DEFAULT_FETCH_OUTPUT_CHARS, parseToolArguments, WebFetchInput } from '@mono-agent/tool-adapters';
import type { Step } from './fetch-failure.js';
import { effectiveRenderMode, type RequestedRender } from './fetch-render.js';
import type { FetchContext } from './run-context.js';

/** The validated arguments of one call, with the defaults filled in. */
export interface FetchRequest {
  /** The URL to fetch. */
  url: string;
  /** The output format. */
  format: OutputFormat;
  /** The call's `render` argument, as given. */
  requestedRender: RequestedRender | undefined;
  /** The mode the call runs with, after the configuration's ceiling. */
  render: 'never' | 'auto' | 'always';
  /** The request headers the call asked for. */
  headers: Record<string, string>;
  /** The first line to return, when the call names one. */
  startLine: number | undefined;
  /** How many lines to return, when the call bounds them. */
  maxLines: number | undefined;
  /** The character budget of the returned slice. */
  maxOutputChars: number;
  /** The key of the page in the run's document cache. */
  cacheKey: string;
}

/** Validates the model's arguments and fills in the defaults. */
export function readArguments(context: FetchContext, args: unknown): Step<FetchRequest> {
  const parsed = parseToolArguments(WebFetchInput, args);
  if (!parsed.ok) {
    return {
      ok: false,
      failure: {
        status: 'error',
        code: 'validation_error',
        message: parsed.message,
        problems: parsed.problems,
      },
    };
  }
  const value = parsed.value;
  const format = value.format ?? 'markdown';
  const headers = { ...(value.headers ?? {}) } as Record<string, string>;
  // Render step: the configuration's ceiling and the call's request decide the mode.
  const render = effectiveRenderMode(context.options.config.fetch.render, value.render, format);
  return {
    ok: true,
    value: {
      url: value.url,
      format,
      requestedRender: value.render,
      render,
      headers,
      startLine: value.start_line,
      maxLines: value.max_lines,
      maxOutputChars: value.max_output_chars ?? DEFAULT_FETCH_OUTPUT_CHARS,
      cacheKey: context.extract.documentCacheKey({
        url: value.url,
        headers,
        format,
        policy: context.policy,
        settings: { render },
      }),
    },
  };
}

/**
 * The render request: raw needs `never` (or no render argument). The configuration's ceiling was
 * applied in {@link readArguments}: under config `never` every call stays static.
 */
export function checkRenderRequest(_context: FetchContext, request: FetchRequest): Step<void> {
  if (
    request.format === 'raw' &&
    request.requestedRender !== undefined &&
    request.requestedRender !== 'never'
  ) {
    return invalid(
      'render',
      `format raw returns the body undecoded by a browser, so it needs render "never" (got "${request.requestedRender}")`,
    );
  }
  return { ok: true, value: undefined };
}

function invalid(field: string, message: string): Step<never> {
  return {
    ok: false,
    failure: {
      status: 'error',
      code: 'validation_error',
      message: `invalid arguments: ${field}: ${message}`,
      problems: [{ field, message }],
    },
  };
}
