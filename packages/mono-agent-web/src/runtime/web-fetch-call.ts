import { type FailureCode, WebToolError } from '@mono-agent/budget-policy';
import type { DocumentSlice, ExtractedDocument, OutputFormat } from '@mono-agent/extract';
import { type AttemptInfo, httpRequest } from '@mono-agent/net';
import {
  type ArgumentProblem,
  DEFAULT_FETCH_OUTPUT_CHARS,
  type FetchOutcome,
  MAX_FETCH_OUTPUT_CHARS,
  neutralizeBidiControls,
  pageMetadataFields,
  parseToolArguments,
  renderFetchOutcome,
  TOOL_NAMES,
  WebFetchInput,
} from '@mono-agent/tool-adapters';
import type { CallOptions, CallProgress } from './call-progress.js';
import { createFetchAdmission, type OriginCooldown } from './fetch-admission.js';
import { fetchFailureReason } from './fetch-failure-reason.js';
import { effectiveRenderMode, type RequestedRender, rememberRender, renderReport } from './fetch-render.js';
import { explainPolicyDenial, type PolicyDenial } from './policy-denial.js';
import type { FetchContext, RunContext, SavedArtifact } from './run-context.js';
import type { ToolCallResult } from './runtime-types.js';

/** The one deadline of a WebFetch call: admission, redirects, retry waits and the body. */
export const FETCH_DEADLINE_MS = 45_000;

/** A failed WebFetch call as `--json` and hosts see it: the rendered outcome's fields plus details. */
export interface FetchFailureData {
  /** Always `error`. */
  status: 'error';
  /** The failure category. */
  code: FailureCode;
  /** What went wrong, in words an operator can act on. */
  message?: string;
  /** For `validation_error`: each rejected argument. */
  problems?: ArgumentProblem[];
  /** The HTTP status, when an answer arrived. */
  httpStatus?: number;
  /** Attempts sent, counting retries and redirect hops. */
  attempts?: number;
  /** Epoch milliseconds after which trying again can help. */
  retryAt?: number;
  /** The origin cooldown behind the failure (host mode). */
  cooldown?: OriginCooldown;
  /** For `policy_denied`: what was refused and why. */
  policy?: PolicyDenial;
  /** For `policy_denied`: the settings that would admit the destination. */
  allowWith?: string[];
  /** Where the whole document was saved, for a line too long to return. */
  artifact?: string;
}

/** The validated arguments of one call, with the defaults filled in. */
interface FetchRequest {
  url: string;
  format: OutputFormat;
  /** The call's `render` argument, as given. */
  requestedRender: RequestedRender | undefined;
  /** The mode the call runs with, after the configuration's ceiling. */
  render: 'never' | 'auto' | 'always';
  headers: Record<string, string>;
  startLine: number | undefined;
  maxLines: number | undefined;
  maxOutputChars: number;
  cacheKey: string;
}

/** The extracted page a call slices, fresh or from the run's document cache. */
interface LoadedPage {
  document: ExtractedDocument;
  url: string;
  status: number;
  redirects: number;
  attempts: number;
  cacheHit: boolean;
}

type Step<Value> = { ok: true; value: Value } | { ok: false; failure: FetchFailureData };

/** How each cached document was answered, so a cache hit reports the first answer's status and hops. */
const answers = new WeakMap<ExtractedDocument, { status: number; redirects: number }>();

/** Failure codes whose message is written by this project (never server text) and says what to do. */
const EXPLAINED_CODES = new Set<FailureCode>([
  'validation_error',
  // A missing or wrong browser, or no temporary folder: the operator's setup, named with its remedy.
  'configuration_error',
  'too_large',
  'policy_denied',
  'cooldown',
  'backend_unavailable',
  'timeout',
  'charset_error',
]);

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

/** Validates the model's arguments and fills in the defaults. */
function readArguments(context: FetchContext, args: unknown): Step<FetchRequest> {
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
function checkRenderRequest(_context: FetchContext, request: FetchRequest): Step<void> {
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

/** The page from the run's document cache, or fetched (identical concurrent calls share one fetch). */
async function loadPage(
  context: FetchContext,
  request: FetchRequest,
  signal: AbortSignal | undefined,
  onProgress?: (progress: CallProgress) => void,
): Promise<Step<LoadedPage>> {
  const cached = context.documents.get(request.cacheKey);
  if (cached !== undefined) {
    const answer = answers.get(cached) ?? { status: 200, redirects: 0 };
    return {
      ok: true,
      value: { document: cached, url: cached.url, ...answer, attempts: 0, cacheHit: true },
    };
  }
  let result: Awaited<ReturnType<typeof fetchPage>>;
  try {
    // Shared with identical calls in flight; this caller's cancel ends only this caller's wait.
    result = await context.shareCall(
      `fetch:${request.cacheKey}`,
      (sharedSignal) => fetchPage(context, request, sharedSignal, onProgress),
      signal,
    );
  } catch (error) {
    if (!WebToolError.isInstance(error)) throw error;
    return { ok: false, failure: failureFrom(context, error) };
  }
  if (!result.ok) return { ok: false, failure: failureFrom(context, result.error) };
  // A follower of a shared fetch finds the document already stored and keeps the same object.
  if (context.documents.get(request.cacheKey) !== result.document) {
    answers.set(result.document, { status: result.status, redirects: result.redirects });
    rememberRender(result.document, result);
    context.documents.set(request.cacheKey, result.document);
  }
  return {
    ok: true,
    value: {
      document: result.document,
      url: result.url,
      status: result.status,
      redirects: result.redirects,
      attempts: result.attempts,
      cacheHit: false,
    },
  };
}

/** One guarded fetch and extraction, every attempt admitted for its origin; `signal` already holds the run's. */
async function fetchPage(
  context: FetchContext,
  request: FetchRequest,
  signal: AbortSignal,
  onProgress?: (progress: CallProgress) => void,
) {
  const admission = createFetchAdmission(context.coordinator);
  const watched = onProgress === undefined ? undefined : watchFetch(admission, context.renderer, onProgress);
  try {
    return await context.extract.fetchDocument(request.url, {
      // This package's transport: the extraction package then never loads a second copy of it.
      request: watched?.request ?? httpRequest,
      // Its bodies are fresh arrays nothing else holds: extraction takes them over uncopied.
      handOverBody: true,
      policy: context.policy,
      headers: request.headers,
      format: request.format,
      deadlineMs: FETCH_DEADLINE_MS,
      signal,
      beforeAttempt: watched?.beforeAttempt ?? admission.beforeAttempt,
      afterAttempt: admission.afterAttempt,
      render: request.render,
      renderer: watched?.renderer ?? context.renderer,
    });
  } finally {
    await admission.releaseAll();
  }
}

/**
 * The fetch's hooks with progress reported around them: the admission wait, each admitted attempt,
 * the body's bytes, a retry wait and a render. What is reported never changes what runs.
 */
function watchFetch(
  admission: ReturnType<typeof createFetchAdmission>,
  renderer: FetchContext['renderer'],
  onProgress: (progress: CallProgress) => void,
) {
  const sleep = process.getBuiltinModule('node:timers/promises').setTimeout;
  return {
    async beforeAttempt(attempt: AttemptInfo) {
      onProgress({ stage: 'admission', origin: attempt.origin });
      await admission.beforeAttempt(attempt);
      onProgress({ stage: 'connecting', origin: attempt.origin, attempt: attempt.attempt });
    },
    request: ((url, options) =>
      httpRequest(url, {
        ...options,
        onBodyBytes: (bytes, totalBytes) =>
          onProgress({ stage: 'downloading', bytes, ...(totalBytes === undefined ? {} : { totalBytes }) }),
        sleep: async (ms, waitSignal) => {
          onProgress({ stage: 'retry_wait', delayMs: ms });
          await sleep(ms, undefined, { signal: waitSignal });
        },
      })) satisfies typeof httpRequest,
    renderer:
      renderer === undefined
        ? undefined
        : {
            render(url: string, options: Parameters<NonNullable<FetchContext['renderer']>['render']>[1]) {
              onProgress({ stage: 'rendering' });
              return renderer.render(url, options);
            },
          },
  };
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

/** A failure as data: the code, its HTTP status and retry hints, and for refusals why and what would allow them. */
function failureFrom(context: FetchContext, error: WebToolError): FetchFailureData {
  const details = error.details as Record<string, unknown>;
  const status = details.status;
  const attempts = details.attempts;
  const cooldown = details.cooldown as OriginCooldown | undefined;
  const policy = error.code === 'policy_denied' ? explainPolicyDenial(error, context.policy) : undefined;
  const explained = EXPLAINED_CODES.has(error.code) || cooldown !== undefined;
  return {
    status: 'error',
    code: error.code,
    ...(policy !== undefined
      ? { message: policy.reason, policy, allowWith: policy.allowWith }
      : {
          message: explained
            ? error.message
            : fetchFailureReason(error.code, {
                ...(typeof status === 'number' ? { status } : {}),
                ...(typeof attempts === 'number' ? { attempts } : {}),
                details,
              }),
        }),
    ...(typeof status === 'number' ? { httpStatus: status } : {}),
    ...(typeof attempts === 'number' ? { attempts } : {}),
    ...(error.retryAt === undefined ? {} : { retryAt: error.retryAt }),
    ...(cooldown === undefined ? {} : { cooldown }),
  };
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
        parserFailures: document.parserFailures,
      },
      slice: { ...slice, content: neutralizeBidiControls(slice.content) },
      truncated: guarded.truncated || slice.truncatedByChars,
      ...(artifact === undefined ? {} : { artifact }),
    },
  };
}
