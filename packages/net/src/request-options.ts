// What a caller asks of {@link httpRequest} and what it gets back.
import type { FailureCode } from '@mono-agent/budget-policy';
import type { LookupFunction } from './guarded-connector.js';
import type { NetworkPolicy } from './network-policy.js';

/** What to do with a 3xx response that has a Location: follow it, fail, or return it. */
export type RedirectMode = 'follow' | 'error' | 'manual';

/** Waits `ms`, rejecting when `signal` fires. */
export type SleepFunction = (ms: number, signal: AbortSignal) => Promise<void>;

/** One attempt about to be made, as an admission hook sees it. */
export interface AttemptInfo {
  /** The origin the attempt goes to (`https://example.com`), the admission scope. */
  readonly origin: string;
  /** The attempt number within this request, from 1, counting retries and redirect hops. */
  readonly attempt: number;
  /** Fires at the request's deadline or cancellation; a waiting hook should give up then. */
  readonly signal: AbortSignal;
}

/** How an attempt ended, for an admission hook (cooldowns read `status` and `retryAfterMs`). */
export interface AttemptOutcome {
  /** The HTTP status, when a response arrived. */
  readonly status?: number;
  /** The server's Retry-After in milliseconds, when it sent one. */
  readonly retryAfterMs?: number;
  /** The failure category, when no response arrived or its body failed. */
  readonly error?: FailureCode;
}

/** Options of {@link httpRequest}. */
export interface HttpRequestOptions {
  /** The network policy; checked on the connected address of every attempt and hop. */
  readonly policy: NetworkPolicy;
  /** The method; a body needs POST. Default GET. */
  readonly method?: 'GET' | 'POST';
  /** Request headers; only Accept, Accept-Language, Range and User-Agent are allowed. */
  readonly headers?: Readonly<Record<string, string>>;
  /** The request body (POST only). */
  readonly body?: string | Uint8Array;
  /** The body's Content-Type; settable only here, never through `headers`. */
  readonly contentType?: string;
  /**
   * The page the request comes from, sent as `Referer`: an absolute http(s) URL without credentials.
   * Settable only here by the calling code (a search engine's own form page), never through `headers`.
   */
  readonly referer?: string;
  /** A bearer token sent as `Authorization: Bearer …` to the request's origin only; redirects are then refused. */
  readonly authorization?: string;
  /** Redirect handling; default `follow` (at most {@link MAX_REDIRECTS}), or `error` when `authorization` is set. */
  readonly redirect?: RedirectMode;
  /** The one deadline for everything: DNS, connects, redirects, retries, waits, bodies. Default 45 s. */
  readonly deadlineMs?: number;
  /** Cancels the request at any point; sockets are closed. */
  readonly signal?: AbortSignal;
  /** Cap on response body bytes on the wire; default and maximum {@link MAX_WIRE_BYTES}. */
  readonly maxWireBytes?: number;
  /** Cap on decoded response body bytes; default and maximum {@link MAX_DECODED_BYTES}. */
  readonly maxDecodedBytes?: number;
  /** Retries after transient failures and 408/425/429/5xx; default and maximum {@link MAX_RETRIES}. */
  readonly retries?: number;
  /** Called before every attempt (first try, retry, redirect hop); may wait for admission or throw. */
  readonly beforeAttempt?: (attempt: AttemptInfo) => Promise<void> | void;
  /** Called after every attempt whose `beforeAttempt` returned, with how it ended. */
  readonly afterAttempt?: (attempt: AttemptInfo, outcome: AttemptOutcome) => Promise<void> | void;
  /** Epoch milliseconds; injectable for tests. Default `Date.now`. */
  readonly clock?: () => number;
  /** Waits between retries; injectable for tests. */
  readonly sleep?: SleepFunction;
  /**
   * Called as a response body's bytes arrive on the wire, with the total so far and the declared
   * Content-Length when there is one; for progress displays, never for decisions.
   */
  readonly onBodyBytes?: (received: number, declared: number | undefined) => void;
  /** The DNS resolver; injectable for tests. */
  readonly lookup?: LookupFunction;
  /** Extra trusted certificate authorities for HTTPS (a private CA, a test certificate). */
  readonly ca?: string | Uint8Array | readonly (string | Uint8Array)[];
}

/** A response that arrived; any status, after the retry policy ran. */
export interface HttpResponse {
  /** The final URL, after redirects. */
  readonly url: string;
  /** The HTTP status. */
  readonly status: number;
  /** The standard reason phrase of the status. */
  readonly statusText: string;
  /** Response headers with lower-case names; repeated headers joined with `, `. */
  readonly headers: Readonly<Record<string, string>>;
  /** The decoded body. */
  readonly body: Uint8Array;
  /** Redirect hops followed. */
  readonly redirects: number;
  /** Attempts made, counting retries and redirect hops. */
  readonly attempts: number;
  /** Bytes of the final response's body as they came over the wire. */
  readonly wireBytes: number;
  /** For a non-2xx response with Retry-After: how long to wait before trying again. */
  readonly retryAfterMs?: number;
  /** For a non-2xx response with Retry-After: the epoch milliseconds after which trying again can help. */
  readonly retryAt?: number;
}
