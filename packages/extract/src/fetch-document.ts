import { WebToolError } from '@mono-agent/budget-policy';
import type {
  AttemptInfo,
  AttemptOutcome,
  HttpRequestOptions,
  HttpResponse,
  NetworkPolicy,
} from '@mono-agent/net';
import { sharedExtractionPool } from './pool/extraction-pool.js';
import type { ExtractionPool } from './pool/pool-options.js';
import type { ExtractedDocument, OutputFormat } from './types.js';

/** The Accept header sent when the caller gives none: the kinds this package can extract. */
export const DEFAULT_ACCEPT =
  'text/html,application/xhtml+xml,application/json;q=0.9,application/xml;q=0.9,application/pdf;q=0.9,text/plain;q=0.8,*/*;q=0.5';

/** The request function fetchDocument uses; `httpRequest` from `@mono-agent/net` by default. */
export type RequestFunction = (url: string, options: HttpRequestOptions) => Promise<HttpResponse>;

/** What a renderer is given for one page. */
export interface RenderRequestOptions {
  /** The resolved network policy; the renderer pins the browser to an address it approves. */
  policy: NetworkPolicy;
  /** Cancels the render (the browser is stopped and cleaned up). */
  signal?: AbortSignal | undefined;
  /** Milliseconds left of the fetch's own deadline; the render never runs past it. */
  deadlineMs?: number | undefined;
}

/** A page as a browser rendered it. */
export interface RenderedPage {
  /** The final URL the browser showed (same origin as the requested one). */
  url: string;
  /** The rendered DOM, serialised. */
  html: string;
  /** Wall time of the render, launch to cleanup. */
  durationMs: number;
}

/**
 * A browser renderer for client-rendered pages (`createAgentBrowserRenderer` is the built-in one).
 * Expected failures are `WebToolError`s: `timeout`, `cancelled`, `policy_denied`,
 * `authentication_required`, `access_challenge`, `backend_unavailable`, `configuration_error`.
 */
export interface DocumentRenderer {
  /** Renders a URL in a browser and returns its HTML and final URL. */
  render(url: string, options: RenderRequestOptions): Promise<RenderedPage>;
}

/**
 * How a fetch may use the renderer, after the configuration's ceiling was applied: `never` stays
 * static, `auto` renders only a successful HTML page that looks like a sparse application shell,
 * `always` renders without a static fetch and fails if the render fails.
 */
export type FetchRenderMode = 'never' | 'auto' | 'always';

/** Why a document was rendered: the call asked for it, or the static page was a sparse shell. */
export type RenderReason = 'requested' | 'sparse_shell';

/** Options of {@link fetchDocument}. */
export interface FetchDocumentOptions {
  /** The resolved network policy, checked at every connection and redirect hop. */
  policy: NetworkPolicy;
  /** Request headers (Accept, Accept-Language, Range, User-Agent only). */
  headers?: Readonly<Record<string, string>> | undefined;
  /** The output format; `markdown` by default. */
  format?: OutputFormat | undefined;
  /** The one deadline for admission, redirects, retries and the body, in milliseconds. */
  deadlineMs?: number | undefined;
  /** Cancels the fetch. */
  signal?: AbortSignal | undefined;
  /** Admission: awaited before every attempt (first try, retry, redirect hop); may wait or throw. */
  beforeAttempt?: ((attempt: AttemptInfo) => Promise<void> | void) | undefined;
  /** Called after every admitted attempt with how it ended (for cooldowns). */
  afterAttempt?: ((attempt: AttemptInfo, outcome: AttemptOutcome) => Promise<void> | void) | undefined;
  /** How the renderer may be used; `never` by default. */
  render?: FetchRenderMode | undefined;
  /** The browser renderer; needed when `render` is `auto` or `always`. */
  renderer?: DocumentRenderer | undefined;
  /** The transport; `httpRequest` from `@mono-agent/net` unless a host or test supplies another. */
  request?: RequestFunction | undefined;
  /**
   * Whether the transport's bodies are fresh arrays that nothing else holds, so that extraction may
   * take them over uncopied (see `ExtractionRun.transferBody`). True by default for the default
   * transport; false for another one unless set (`httpRequest` passed explicitly qualifies).
   */
  handOverBody?: boolean | undefined;
  /**
   * Where extraction runs: the process-wide worker pool by default, so a costly page neither blocks
   * the caller's thread nor takes its memory, and is ended at the deadline.
   */
  extraction?: ExtractionPool | undefined;
}

/** A fetched and extracted document. */
export interface FetchedDocument {
  /** Always true. */
  ok: true;
  /** The extracted document; its `url` is the final URL. */
  document: ExtractedDocument;
  /** The final URL after redirects. */
  url: string;
  /** The HTTP status (2xx). */
  status: number;
  /** Redirect hops followed. */
  redirects: number;
  /** Attempts made, counting retries and hops (a render counts as one). */
  attempts: number;
  /** Whether a browser rendered the document. */
  rendered: boolean;
  /** Why it was rendered, when it was. */
  renderReason?: RenderReason;
  /** Wall time of the render, when there was one. */
  renderMs?: number;
}

/** A fetch that failed, as data: the error's `code` says why (`http_status`, `rate_limited`, `policy_denied`, …). */
export interface FetchFailure {
  /** Always false. */
  ok: false;
  /** The failure, with retry hints when the server gave any. */
  error: WebToolError;
}

/**
 * Fetches a URL through `@mono-agent/net` and extracts it. Non-success statuses are failures and are
 * never extracted: 429 is `rate_limited` with retry hints, other statuses `http_status` with the
 * status. Extraction runs in a worker thread (see {@link ExtractionPool}) within the same deadline. Expected failures (policy, size, timeout, content, charset, parse) come back as
 * `{ ok: false, error }`; only bugs throw.
 */
export async function fetchDocument(
  url: string,
  options: FetchDocumentOptions,
): Promise<FetchedDocument | FetchFailure> {
  const startedAt = Date.now();
  const pool = options.extraction ?? sharedExtractionPool();
  pool.prepare?.();
  try {
    const mode = options.render ?? 'never';
    if (mode === 'always') {
      return await renderDocument(url, options, 'requested', 0, startedAt, pool);
    }
    const request = options.request ?? (await import('@mono-agent/net')).httpRequest;
    const hasAccept = Object.keys(options.headers ?? {}).some((name) => name.toLowerCase() === 'accept');
    const response = await request(url, {
      policy: options.policy,
      headers: hasAccept ? { ...options.headers } : { ...options.headers, accept: DEFAULT_ACCEPT },
      ...(options.deadlineMs === undefined ? {} : { deadlineMs: options.deadlineMs }),
      ...(options.signal === undefined ? {} : { signal: options.signal }),
      ...(options.beforeAttempt === undefined ? {} : { beforeAttempt: options.beforeAttempt }),
      ...(options.afterAttempt === undefined ? {} : { afterAttempt: options.afterAttempt }),
    });
    if (response.status < 200 || response.status > 299) return { ok: false, error: statusFailure(response) };
    // The one deadline covers extraction too: whatever the transport left of it.
    const document = await pool.extract(
      {
        body: response.body,
        url: response.url,
        contentType: response.headers['content-type'],
        format: options.format,
      },
      {
        ...(options.deadlineMs === undefined ? {} : { deadlineAt: startedAt + options.deadlineMs }),
        signal: options.signal,
        // Nothing reads the body after this, so a body nothing else holds moves to the worker
        // uncopied; a host's transport may keep what it returns.
        transferBody: options.handOverBody ?? options.request === undefined,
      },
    );
    throwIfCancelled(options.signal);
    // Only successful HTML that looks like an application shell escalates; JSON, feeds, PDF, text and
    // HTTP errors never reach this point with a shell signal.
    if (mode === 'auto' && document.kind === 'html' && document.sparseShell?.sparse === true) {
      return await renderDocument(response.url, options, 'sparse_shell', response.attempts, startedAt, pool);
    }
    return {
      ok: true,
      document,
      url: response.url,
      status: response.status,
      redirects: response.redirects,
      attempts: response.attempts,
      rendered: false,
    };
  } catch (error) {
    if (WebToolError.isInstance(error)) return { ok: false, error };
    throw error;
  }
}

function throwIfCancelled(signal: AbortSignal | undefined): void {
  if (signal?.aborted) {
    throw new WebToolError({ code: 'cancelled', message: 'The fetch was cancelled.', cause: signal.reason });
  }
}

/**
 * Renders a page in the browser, admitted like a request to its origin, and extracts the rendered
 * HTML with the same pipeline as a static page. Every failure is a failure: a render that did not
 * work never falls back to the static shell.
 */
async function renderDocument(
  url: string,
  options: FetchDocumentOptions,
  reason: RenderReason,
  attemptsSoFar: number,
  startedAt: number,
  pool: ExtractionPool,
): Promise<FetchedDocument> {
  const renderer = options.renderer;
  if (renderer === undefined) {
    throw new WebToolError({
      code: 'configuration_error',
      message: 'browser rendering was requested but no renderer is configured',
      details: { reason: 'no_renderer' },
    });
  }
  const deadlineMs =
    options.deadlineMs === undefined ? undefined : options.deadlineMs - (Date.now() - startedAt);
  if (deadlineMs !== undefined && deadlineMs <= 0) {
    throw new WebToolError({
      code: 'timeout',
      message: 'the fetch deadline ran out before rendering',
      details: {},
    });
  }
  throwIfCancelled(options.signal);
  const origin = new URL(url).origin;
  const attempt = {
    origin,
    attempt: attemptsSoFar + 1,
    signal: options.signal ?? new AbortController().signal,
  };
  await options.beforeAttempt?.(attempt);
  let page: RenderedPage;
  try {
    page = await renderer.render(url, {
      policy: options.policy,
      signal: options.signal,
      ...(deadlineMs === undefined ? {} : { deadlineMs }),
    });
  } catch (error) {
    await options.afterAttempt?.(attempt, {
      error: WebToolError.isInstance(error) ? error.code : 'internal_error',
    });
    throw error;
  }
  await options.afterAttempt?.(attempt, { status: 200 });
  throwIfCancelled(options.signal);
  // Rendered HTML goes through the same bounded pool as a static page.
  const document = await pool.extract(
    { body: page.html, url: page.url, contentType: 'text/html', format: options.format },
    {
      ...(options.deadlineMs === undefined ? {} : { deadlineAt: startedAt + options.deadlineMs }),
      signal: options.signal,
    },
  );
  throwIfCancelled(options.signal);
  if (document.sparseShell?.sparse === true) {
    throw new WebToolError({
      code: 'backend_unavailable',
      message: 'the page still showed only its application shell after rendering',
      details: { reason: 'render_shell' },
    });
  }
  return {
    ok: true,
    document,
    url: page.url,
    status: 200,
    redirects: 0,
    attempts: attemptsSoFar + 1,
    rendered: true,
    renderReason: reason,
    renderMs: page.durationMs,
  };
}

function statusFailure(response: HttpResponse): WebToolError {
  const hints = {
    ...(response.retryAfterMs === undefined ? {} : { retryAfterMs: response.retryAfterMs }),
    ...(response.retryAt === undefined ? {} : { retryAt: response.retryAt }),
  };
  if (response.status === 429) {
    return new WebToolError({
      code: 'rate_limited',
      message: 'The server is rate limiting requests (HTTP 429); do not retry before the hinted time.',
      details: { status: 429, attempts: response.attempts },
      ...hints,
    });
  }
  return new WebToolError({
    code: 'http_status',
    message: `The server answered HTTP ${response.status} ${response.statusText}.`.trim(),
    details: { status: response.status, statusText: response.statusText, attempts: response.attempts },
    ...hints,
  });
}
