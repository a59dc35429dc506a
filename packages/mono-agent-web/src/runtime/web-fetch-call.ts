import { WebToolError } from '@mono-agent/budget-policy';
import {
  DEFAULT_FETCH_OUTPUT_CHARS,
  type FetchOutcome,
  parseToolArguments,
  renderFetchOutcome,
  WebFetchInput,
} from '@mono-agent/tool-adapters';
import { createFetchAdmission } from './fetch-admission.js';
import type { RunContext } from './run-context.js';
import type { ToolCallResult } from './web-runtime.js';

/** The one deadline of a WebFetch call: admission, redirects, retry waits and the body. */
export const FETCH_DEADLINE_MS = 45_000;

/** One WebFetch call of a run: validate, reuse or fetch the document, slice, render, report. */
export async function webFetchCall(
  context: RunContext,
  args: unknown,
  callOptions: { signal?: AbortSignal } = {},
): Promise<ToolCallResult> {
  const { options, coordinator, policy, documents, extract } = context;
  context.ensureOpen();
  const startedAt = performance.now();
  const parsed = parseToolArguments(WebFetchInput, args);
  if (!parsed.ok)
    return { text: `WebFetch status: error | error: validation_error\n${parsed.message}`, isError: true };
  const value = parsed.value;
  const format = value.format ?? 'markdown';
  const requestedRender = value.render ?? 'never';
  if (format === 'raw' && requestedRender !== 'never') {
    return {
      text: 'WebFetch status: error | error: validation_error\nformat raw requires render never',
      isError: true,
    };
  }
  // Config `never` is a ceiling: every call stays static. Rendering is not built yet, so a call
  // that insists on a browser under a config that allows one fails clearly instead of degrading.
  if (requestedRender === 'always' && options.config.fetch.render !== 'never') {
    return {
      text: 'WebFetch status: error | error: unsupported_content\nbrowser rendering is not available in this version',
      isError: true,
    };
  }
  const headers = { ...(value.headers ?? {}) } as Record<string, string>;
  const key = extract.documentCacheKey({
    url: value.url,
    headers,
    format,
    policy,
    settings: { render: 'never' },
  });
  const fail = (outcome: Extract<FetchOutcome, { status: 'error' }>, truncated = false): ToolCallResult => {
    context.emit({
      tool: 'WebFetch',
      status: 'error',
      errorCode: outcome.code,
      durationMs: performance.now() - startedAt,
      ...(outcome.httpStatus === undefined ? {} : { httpStatus: outcome.httpStatus }),
      ...(outcome.retryAt === undefined ? {} : { retryAt: outcome.retryAt }),
      cacheHit: false,
      truncated,
    });
    return { text: renderFetchOutcome(outcome), isError: true, code: outcome.code, data: outcome };
  };

  let fetched: {
    document: import('@mono-agent/extract').ExtractedDocument;
    url: string;
    status: number;
    redirects: number;
    cacheHit: boolean;
  };
  const cached = documents.get(key);
  if (cached !== undefined) {
    fetched = { document: cached, url: cached.url, status: 200, redirects: 0, cacheHit: true };
  } else {
    const result = await context.share(`fetch:${key}`, async () => {
      const admission = createFetchAdmission(coordinator);
      try {
        return await extract.fetchDocument(value.url, {
          policy,
          headers,
          format,
          deadlineMs: FETCH_DEADLINE_MS,
          signal: context.signalFor(callOptions.signal),
          beforeAttempt: admission.beforeAttempt,
          afterAttempt: admission.afterAttempt,
        });
      } finally {
        await admission.releaseAll();
      }
    });
    if (!result.ok) {
      const status = result.error.details.status;
      return fail({
        status: 'error',
        code: result.error.code,
        ...(typeof status === 'number' ? { httpStatus: status } : {}),
        ...(result.error.retryAt === undefined ? {} : { retryAt: result.error.retryAt }),
      });
    }
    documents.set(key, result.document);
    fetched = {
      document: result.document,
      url: result.url,
      status: result.status,
      redirects: result.redirects,
      cacheHit: false,
    };
  }

  let slice: import('@mono-agent/extract').DocumentSlice;
  try {
    slice = extract.sliceDocument(fetched.document.content, {
      startLine: value.start_line,
      maxLines: value.max_lines,
      maxOutputChars: value.max_output_chars ?? DEFAULT_FETCH_OUTPUT_CHARS,
    });
  } catch (error) {
    if (!WebToolError.isInstance(error)) throw error;
    const code = error.code;
    const text = `WebFetch status: error | error: ${code}\n${error.message}`;
    context.emit({
      tool: 'WebFetch',
      status: 'error',
      errorCode: code,
      durationMs: performance.now() - startedAt,
      cacheHit: fetched.cacheHit,
      truncated: false,
    });
    return { text, isError: true, code };
  }
  const rendered = renderFetchOutcome({
    status: 'ok',
    url: fetched.url,
    httpStatus: fetched.status,
    redirects: fetched.redirects,
    document: fetched.document,
    slice,
    cacheHit: fetched.cacheHit,
  });
  const result = await context.guarded('WebFetch', rendered, false);
  context.emit({
    tool: 'WebFetch',
    status: 'ok',
    durationMs: performance.now() - startedAt,
    httpStatus: fetched.status,
    contentKind: fetched.document.kind,
    charset: fetched.document.charset,
    extractionStage: fetched.document.stage,
    parserFailures: fetched.document.parserFailures.length,
    byteCount: Buffer.byteLength(slice.content),
    cacheHit: fetched.cacheHit,
    truncated: result.truncated || slice.truncatedByChars,
    rendered: false,
  });
  return {
    text: result.text,
    isError: false,
    data: {
      status: 'ok',
      url: fetched.url,
      httpStatus: fetched.status,
      redirects: fetched.redirects,
      cacheHit: fetched.cacheHit,
      document: {
        kind: fetched.document.kind,
        format: fetched.document.format,
        title: fetched.document.title,
        charset: fetched.document.charset,
        charsetSource: fetched.document.charsetSource,
        stage: fetched.document.stage,
        replacementCount: fetched.document.replacementCount,
        parserFailures: fetched.document.parserFailures,
      },
      slice,
    },
  };
}
