import { WebToolError } from '@mono-agent/budget-policy';
import type {
  AttemptInfo,
  AttemptOutcome,
  HttpRequestOptions,
  HttpResponse,
  NetworkPolicy,
} from '@mono-agent/net';
import { type ExtractionPool, sharedExtractionPool } from './extraction-pool.js';
import type { ExtractedDocument, OutputFormat } from './types.js';

/** The Accept header sent when the caller gives none: the kinds this package can extract. */
export const DEFAULT_ACCEPT =
  'text/html,application/xhtml+xml,application/json;q=0.9,application/xml;q=0.9,application/pdf;q=0.9,text/plain;q=0.8,*/*;q=0.5';

/** The request function fetchDocument uses; `httpRequest` from `@mono-agent/net` by default. */
export type RequestFunction = (url: string, options: HttpRequestOptions) => Promise<HttpResponse>;

/**
 * A browser renderer for client-rendered pages. Reserved for a later release: fetchDocument accepts
 * one but never calls it yet, so hosts can wire it in now.
 */
export interface DocumentRenderer {
  /** Renders a URL in a browser and returns its HTML and final URL. */
  render(url: string, options: { signal: AbortSignal | undefined }): Promise<{ url: string; html: string }>;
}

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
  /** Reserved for browser rendering; never called by this version. */
  renderer?: DocumentRenderer | undefined;
  /** The transport; `httpRequest` from `@mono-agent/net` unless a host or test supplies another. */
  request?: RequestFunction | undefined;
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
  /** Attempts made, counting retries and hops. */
  attempts: number;
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
      },
    );
    if (options.signal?.aborted) {
      throw new WebToolError({
        code: 'cancelled',
        message: 'The fetch was cancelled.',
        cause: options.signal.reason,
      });
    }
    return {
      ok: true,
      document,
      url: response.url,
      status: response.status,
      redirects: response.redirects,
      attempts: response.attempts,
    };
  } catch (error) {
    if (WebToolError.isInstance(error)) return { ok: false, error };
    throw error;
  }
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
