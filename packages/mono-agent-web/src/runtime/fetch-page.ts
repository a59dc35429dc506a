import { WebToolError } from '@mono-agent/budget-policy';
import type { ExtractedDocument } from '@mono-agent/extract';
import { type AttemptInfo, httpRequest } from '@mono-agent/net';
import type { CallProgress } from './call-progress.js';
import { createFetchAdmission } from './fetch-admission.js';
import { failureFrom, type Step } from './fetch-failure.js';
import { rememberRender } from './fetch-render.js';
import type { FetchRequest } from './fetch-request.js';
import type { FetchContext } from './run-context.js';

/** The one deadline of a WebFetch call: admission, redirects, retry waits and the body. */
export const FETCH_DEADLINE_MS = 45_000;

/** The extracted page a call slices, fresh or from the run's document cache. */
export interface LoadedPage {
  /** The extracted document. */
  document: ExtractedDocument;
  /** The URL the page was answered from, after redirects. */
  url: string;
  /** The HTTP status of the answer. */
  status: number;
  /** The redirect hops followed. */
  redirects: number;
  /** Attempts the fetch sent, counting retries and redirect hops (none for a cache hit). */
  attempts: number;
  /** Whether the run's document cache answered. */
  cacheHit: boolean;
}

/** How each cached document was answered, so a cache hit reports the first answer's status and hops. */
const answers = new WeakMap<ExtractedDocument, { status: number; redirects: number }>();

/** The page from the run's document cache, or fetched (identical concurrent calls share one fetch). */
export async function loadPage(
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
