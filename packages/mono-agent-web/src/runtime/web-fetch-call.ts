import { WebToolError } from '@mono-agent/budget-policy';
import type { DocumentSlice } from '@mono-agent/extract';
import {
  type FetchOutcome,
  MAX_FETCH_OUTPUT_CHARS,
  neutralizeBidiControls,
  pageMetadataFields,
  renderFetchOutcome,
  TOOL_NAMES,
} from '@mono-agent/tool-adapters';
import type { CallOptions } from './call-progress.js';
import { type FetchFailureData, failureFrom, type Step } from './fetch-failure.js';
import { fetchFailureReason } from './fetch-failure-reason.js';
import { type LoadedPage, loadPage } from './fetch-page.js';
import { renderReport } from './fetch-render.js';
import { checkRenderRequest, type FetchRequest, readArguments } from './fetch-request.js';
import type { FetchContext, RunContext, SavedArtifact } from './run-context.js';
import type { ToolCallResult } from './runtime-types.js';

/**
 * One WebFetch call of a run, as a row of small steps: read the arguments, check the render request,
 * load the page (document cache or fetch), slice it within the character budget, render and report.
 */
export async function webFetchCall(
  runContext: RunContext,
  args: unknown,
  callOptions: CallOptions = {},
): Promise<ToolCallResult> {
  runContext.ensureOpen();
  const startedAt = performance.now();
  const context = await runContext.fetchContext();
  const fail = (failure: FetchFailureData, cacheHit = false) => failed(context, failure, startedAt, cacheHit);

  try {
    const request = readArguments(context, args);
    if (!request.ok) return fail(request.failure);
    const render = checkRenderRequest(context, request.value);
    if (!render.ok) return fail(render.failure);
    const page = await loadPage(context, request.value, callOptions.signal, callOptions.onProgress);
    if (!page.ok) return fail(page.failure);
    const slice = await sliceForOutput(context, request.value, page.value);
    if (!slice.ok) return fail(slice.failure, page.value.cacheHit);
    return await succeeded(context, page.value, slice.value, startedAt);
  } catch (error) {
    // An expected failure thrown rather than returned is still an answer with its reason line.
    if (!WebToolError.isInstance(error)) throw error;
    return fail(failureFrom(context, error));
  }
}

/**
 * The requested lines within the character budget. A line too long for the budget is never skipped:
 * the whole document is saved as an artifact and the answer names a cap the schema accepts (or the
 * artifact) to read it; with no slice arguments the capped start of the document comes back instead.
 */
async function sliceForOutput(
  context: FetchContext,
  request: FetchRequest,
  page: LoadedPage,
): Promise<Step<{ slice: DocumentSlice; artifact?: string }>> {
  let slice: DocumentSlice;
  try {
    slice = context.extract.sliceDocument(page.document.content, {
      startLine: request.startLine,
      maxLines: request.maxLines,
      maxOutputChars: request.maxOutputChars,
    });
  } catch (error) {
    if (!WebToolError.isInstance(error)) throw error;
    if (error.code !== 'too_large') return { ok: false, failure: failureFrom(context, error) };
    const { line, lineChars } = error.details as { line: number; lineChars: number };
    const saved = await context.saveArtifact(TOOL_NAMES.fetch, page.document.content);
    return {
      ok: false,
      failure: {
        status: 'error',
        code: 'too_large',
        message: `line ${line} alone is ${lineChars} characters, over max_output_chars ${request.maxOutputChars}; ${waysToReadLine(line, lineChars, saved)}`,
        ...('path' in saved ? { artifact: saved.path } : {}),
      },
    };
  }
  if (slice.cutLine === undefined) return { ok: true, value: { slice } };
  const saved = await context.saveArtifact(TOOL_NAMES.fetch, page.document.content);
  const hint = `${slice.hint} ${capitalized(waysToReadLine(slice.cutLine.line, slice.cutLine.lineChars, saved))}.`;
  return {
    ok: true,
    value: { slice: { ...slice, hint }, ...('path' in saved ? { artifact: saved.path } : {}) },
  };
}

/** The two ways to read an over-long line: a cap the schema accepts, and the saved artifact. */
function waysToReadLine(line: number, lineChars: number, saved: SavedArtifact): string {
  const cap =
    lineChars <= MAX_FETCH_OUTPUT_CHARS
      ? `read line ${line} whole with start_line=${line}, max_lines=1 and max_output_chars=${lineChars}`
      : `line ${line} is longer than the largest max_output_chars (${MAX_FETCH_OUTPUT_CHARS})`;
  const artifact =
    'path' in saved
      ? `the whole document was saved to ${saved.path}`
      : `the document could not be saved: ${saved.unavailable}`;
  return `${cap}; ${artifact}`;
}

function capitalized(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1);
}

function failed(
  context: FetchContext,
  failure: FetchFailureData,
  startedAt: number,
  cacheHit: boolean,
): ToolCallResult {
  context.emit({
    tool: 'WebFetch',
    status: 'error',
    errorCode: failure.code,
    durationMs: performance.now() - startedAt,
    ...(failure.httpStatus === undefined ? {} : { httpStatus: failure.httpStatus }),
    ...(failure.attempts === undefined ? {} : { attempts: failure.attempts }),
    ...(failure.retryAt === undefined ? {} : { retryAt: failure.retryAt }),
    cacheHit,
    truncated: false,
  });
  const outcome: FetchOutcome = {
    status: 'error',
    code: failure.code,
    ...(failure.httpStatus === undefined ? {} : { httpStatus: failure.httpStatus }),
    ...(failure.attempts === undefined ? {} : { attempts: failure.attempts }),
    ...(failure.retryAt === undefined ? {} : { retryAt: failure.retryAt }),
    ...(failure.cooldown === undefined ? {} : { cooldown: failure.cooldown }),
    // Every failure says why: one without a message of its own gets its code's reason.
    reason: failure.message ?? fetchFailureReason(failure.code, { details: {} }),
    ...(failure.allowWith === undefined ? {} : { allowWith: failure.allowWith }),
    ...(failure.artifact === undefined ? {} : { artifact: failure.artifact }),
  };
  return { text: renderFetchOutcome(outcome), isError: true, code: failure.code, data: failure };
}

async function succeeded(
  context: FetchContext,
  page: LoadedPage,
  output: { slice: DocumentSlice; artifact?: string },
  startedAt: number,
): Promise<ToolCallResult> {
  const { document } = page;
  const { slice } = output;
  // Render step: how the document was made, and whether a browser would have shown more.
  const { renderInfo, renderMs } = renderReport(context.options.config.fetch.render, document, page.cacheHit);
  const rendered = renderFetchOutcome({
    status: 'ok',
    url: page.url,
    httpStatus: page.status,
    redirects: page.redirects,
    // In Markdown output the title line is Markdown too: the page's title spells no link there.
    document:
      document.format === 'markdown' && document.title !== undefined
        ? { ...document, title: context.extract.escapeLinkLikeText(document.title) }
        : document,
    slice,
    cacheHit: page.cacheHit,
    ...renderInfo,
  });
  const guarded = await context.guarded(TOOL_NAMES.fetch, rendered, false);
  const artifact = output.artifact ?? guarded.artifact;
  context.emit({
    tool: 'WebFetch',
    status: 'ok',
    durationMs: performance.now() - startedAt,
    httpStatus: page.status,
    attempts: page.attempts,
    contentKind: document.kind,
    charset: document.charset,
    extractionStage: document.stage,
    parserFailures: document.parserFailures.length,
    byteCount: Buffer.byteLength(slice.content),
    cacheHit: page.cacheHit,
    truncated: guarded.truncated || slice.truncatedByChars,
    ...renderInfo,
    ...(renderMs === undefined ? {} : { renderMs }),
  });
  return {
    text: guarded.text,
    isError: false,
    data: {
      status: 'ok',
      url: page.url,
      httpStatus: page.status,
      redirects: page.redirects,
      attempts: page.attempts,
      cacheHit: page.cacheHit,
      ...renderInfo,
      document: {
        kind: document.kind,
        format: document.format,
        // Hosts show the title too: no viewer of it may be made to reorder it into a marker.
        ...(document.title === undefined ? {} : { title: neutralizeBidiControls(document.title) }),
        ...pageMetadataFields(document),
        charset: document.charset,
        charsetSource: document.charsetSource,
        stage: document.stage,
        replacementCount: document.replacementCount,
        ...(document.charsetHint === undefined ? {} : { charsetHint: document.charsetHint }),
        ...(document.declaredCharset === undefined ? {} : { declaredCharset: document.declaredCharset }),
        parserFailures: document.parserFailures,
      },
      slice: { ...slice, content: neutralizeBidiControls(slice.content) },
      truncated: guarded.truncated || slice.truncatedByChars,
      ...(artifact === undefined ? {} : { artifact }),
    },
  };
}
