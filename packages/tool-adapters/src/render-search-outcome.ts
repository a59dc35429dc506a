import type { ProviderReport, SearchOutcome } from '@mono-agent/search-providers';
import { frame, neutralizeMarkers, SEARCH_RESULTS_BEGIN, SEARCH_RESULTS_END } from './untrusted-frame.js';
import { charPrefix, utf8ByteLength, utf8Prefix } from './utf8.js';

/** The longest result title shown, in characters. */
export const MAX_TITLE_CHARS = 500;
/** The longest snippet shown, in characters, the truncation marker included. */
export const MAX_SNIPPET_CHARS = 4_000;
/** Appended to a snippet that was cut. */
export const SNIPPET_TRUNCATED_MARKER = '[snippet truncated; use WebFetch for full source]';
/** The most UTF-8 bytes of the ranked result body (inside the frame, markers excluded). */
export const MAX_SEARCH_BODY_BYTES = 64 * 1024;

interface RenderedResult {
  rank: number;
  title: string;
  url: string;
  snippet: string;
  snippetTruncated: boolean;
}

function cutSnippet(snippet: string, maxChars: number): { text: string; truncated: boolean } {
  if (snippet.length <= maxChars) return { text: snippet, truncated: false };
  const room = Math.max(0, maxChars - SNIPPET_TRUNCATED_MARKER.length - 1);
  const head = charPrefix(snippet, room).trimEnd();
  return {
    text: head === '' ? SNIPPET_TRUNCATED_MARKER : `${head} ${SNIPPET_TRUNCATED_MARKER}`,
    truncated: true,
  };
}

function renderResult(result: RenderedResult): string {
  const lines = [`${result.rank}. ${result.title}`, `   ${result.url}`];
  if (result.snippet !== '') lines.push(`   ${result.snippet.replace(/\s*\n\s*/g, ' ')}`);
  return lines.join('\n');
}

function bodyOf(query: string, results: readonly RenderedResult[], omitted = 0): string {
  const header = `Query: ${query}`;
  // Neutralized as a whole as well, so a marker assembled across two fields is rewritten before the
  // body is measured against its bound.
  if (results.length > 0) return neutralizeMarkers([header, ...results.map(renderResult)].join('\n\n'));
  // Results that exist but do not fit are not "No results.": that would be a false claim about the web.
  return neutralizeMarkers(
    omitted > 0
      ? `${header}\n\n${omitted === 1 ? 'The result' : `All ${omitted} results`} found did not fit the output bound; search with a narrower query.`
      : `${header}\n\nNo results.`,
  );
}

/**
 * Fits the ranked results into {@link MAX_SEARCH_BODY_BYTES}: snippets are shortened from the lowest
 * rank upwards (each keeping the truncation marker) before whole results are dropped from the bottom.
 */
function fitBody(query: string, entries: RenderedResult[]): { body: string; omitted: number } {
  let body = bodyOf(query, entries);
  let excess = utf8ByteLength(body) - MAX_SEARCH_BODY_BYTES;
  for (let index = entries.length - 1; index >= 0 && excess > 0; index -= 1) {
    const entry = entries[index]!;
    const minimal = entry.snippet === '' ? '' : SNIPPET_TRUNCATED_MARKER;
    const reducible = utf8ByteLength(entry.snippet) - utf8ByteLength(minimal);
    if (reducible <= 0) continue;
    const keepBytes = Math.max(
      0,
      utf8ByteLength(entry.snippet) - excess - SNIPPET_TRUNCATED_MARKER.length - 1,
    );
    const source = entry.snippetTruncated
      ? entry.snippet.slice(0, -SNIPPET_TRUNCATED_MARKER.length).trimEnd()
      : entry.snippet;
    const head = utf8Prefix(source, keepBytes).trimEnd();
    entries[index] = {
      ...entry,
      snippet: head === '' ? minimal : `${head} ${SNIPPET_TRUNCATED_MARKER}`,
      snippetTruncated: true,
    };
    body = bodyOf(query, entries);
    excess = utf8ByteLength(body) - MAX_SEARCH_BODY_BYTES;
  }
  let omitted = 0;
  while (excess > 0 && entries.length > 0) {
    entries.pop();
    omitted += 1;
    body = bodyOf(query, entries, omitted);
    excess = utf8ByteLength(body) - MAX_SEARCH_BODY_BYTES;
  }
  // Only a query near its own bound could still overflow; never emit more than the allocation.
  if (excess > 0) body = utf8Prefix(body, MAX_SEARCH_BODY_BYTES);
  return { body, omitted };
}

/** The most failed engines named per backend; the rest are counted. */
export const MAX_RENDERED_ENGINES = 24;

/** `duckduckgo: CAPTCHA; brave: too many requests`, from the provider's stable reasons. */
function describeEngines(report: ProviderReport): string {
  const engines = report.engines ?? [];
  const named = engines
    .slice(0, MAX_RENDERED_ENGINES)
    .map((failure) => `${failure.engine}: ${failure.reason}${failure.suspended ? ' (suspended)' : ''}`);
  const rest = engines.length - named.length;
  return neutralizeMarkers(rest > 0 ? `${named.join('; ')}; and ${rest} more` : named.join('; '));
}

/** One line per backend that reported failed engines: the reason it failed, or a warning beside results. */
function engineLines(outcome: SearchOutcome): string[] {
  const lines: string[] = [];
  for (const report of outcome.providers) {
    if (report.engines === undefined || report.engines.length === 0) continue;
    const failed = report.disposition === 'failed' || report.disposition === 'rate_limited';
    lines.push(
      failed
        ? `${report.backend} engines failed: ${describeEngines(report)}`
        : `warning: some ${report.backend} engines failed: ${describeEngines(report)}`,
    );
  }
  return lines;
}

/** How the renderer learns about the run a search belongs to. */
export interface RenderSearchOptions {
  /** Set on the first search of a run that began because the previous one sat idle this long. */
  freshRunAfterIdleSeconds?: number;
}

function describeProvider(report: ProviderReport): string {
  const retry = report.retryAt === undefined ? '' : ` until ${new Date(report.retryAt).toISOString()}`;
  const category = report.code === undefined ? report.disposition : `${report.disposition}:${report.code}`;
  return `${report.backend}=${category}${retry}`;
}

/** The soonest retry time among `reports`, as an ISO string, when any is known. */
function soonestRetry(reports: readonly ProviderReport[]): string | undefined {
  const times = reports.flatMap((report) => (report.retryAt === undefined ? [] : [report.retryAt]));
  return times.length === 0 ? undefined : new Date(Math.min(...times)).toISOString();
}

/**
 * What the backends' state and the run's budget mean for the model, each by its own cause: throttling
 * (a rate limit now, earlier in the run, or its cooldown), backends skipped because they failed
 * repeatedly (down, not throttling), requests the budget withheld, and cancellation.
 */
function stateLines(outcome: SearchOutcome): string[] {
  const lines: string[] = [];
  const throttled = outcome.providers.filter((report) => report.code === 'rate_limited');
  const throttleCooling = throttled.filter((report) => report.disposition === 'cooldown');
  if (outcome.rateLimited || throttled.length > 0) {
    const retry = soonestRetry(throttled);
    lines.push(
      `throttling: ${[
        'a backend reported a rate limit',
        throttleCooling.length > 0
          ? `cooling down: ${throttleCooling.map((report) => report.backend).join(', ')}`
          : undefined,
        retry === undefined ? undefined : `earliest retry ${retry}`,
      ]
        .filter(Boolean)
        .join('; ')}. Do not wait or retry for it; use the results you have.`,
    );
  }
  const down = outcome.providers.filter(
    (report) => report.disposition === 'cooldown' && report.code === 'backend_unavailable',
  );
  if (down.length > 0) {
    lines.push(
      `unavailable: ${down
        .map(
          (report) =>
            `${report.backend} failed repeatedly and is skipped${report.retryAt === undefined ? '' : ` until ${new Date(report.retryAt).toISOString()}`}`,
        )
        .join('; ')}. It is not throttling; another search in this run will not reach it.`,
    );
  }
  const unknown = outcome.providers.filter(
    (report) => report.disposition === 'cooldown' && report.code === 'cooldown',
  );
  if (unknown.length > 0) {
    const retry = soonestRetry(unknown);
    lines.push(
      `cooling down: ${unknown.map((report) => report.backend).join(', ')}${retry === undefined ? '' : ` until ${retry}`}; no request was sent.`,
    );
  }
  const withheld = outcome.providers.filter((report) => report.disposition === 'budget_exhausted');
  if (withheld.length > 0) {
    const named = withheld.map((report) =>
      report.requests > 0 ? `${report.backend} (after ${report.requests} sent)` : report.backend,
    );
    lines.push(`budget: the run's search budget is spent; a request was withheld from ${named.join(', ')}.`);
  }
  if (outcome.error?.code === 'cancelled')
    lines.push('cancelled: the search was stopped before an answer arrived; nothing was found or ruled out.');
  return lines;
}

/**
 * Renders a search outcome as the text the model reads: a control line, metadata and filter support
 * outside the frame, and the bounded ranked results inside `[BEGIN UNTRUSTED WEB SEARCH RESULTS]`.
 * Failures name only backends and stable categories, never backend messages.
 */
export function renderSearchOutcome(outcome: SearchOutcome, options: RenderSearchOptions = {}): string {
  const fresh = options.freshRunAfterIdleSeconds;
  const control = [
    `WebSearch status: ${outcome.status}`,
    outcome.backend === undefined ? undefined : `backend: ${outcome.backend}`,
    outcome.error === undefined ? undefined : `error: ${outcome.error.code}`,
    `results: ${outcome.results.length}`,
    `requests: ${outcome.requestsUsed} used, ${outcome.requestsRemaining} left`,
    `retry in this run: ${outcome.retryInRun ? 'may help' : 'will not help'}`,
    `next: ${outcome.nextAction}`,
    fresh === undefined ? undefined : `run: fresh run began after ${fresh} s idle, budget reset`,
  ]
    .filter((part) => part !== undefined)
    .join(' | ');
  const metadata: string[] = [];
  if (outcome.providers.length > 0)
    metadata.push(`providers: ${outcome.providers.map(describeProvider).join(', ')}`);
  metadata.push(...engineLines(outcome));
  // The refusal is this project's own wording (destination, rule, remedy), never a backend's text.
  for (const report of outcome.providers) {
    if (report.disposition === 'policy_denied' && report.message !== undefined)
      metadata.push(`network policy: ${neutralizeMarkers(report.message.replace(/\s+/g, ' '))}`);
  }
  metadata.push(...stateLines(outcome));
  if (outcome.filterSupport !== undefined) {
    metadata.push(
      `filter support: language ${outcome.filterSupport.language}, time range ${outcome.filterSupport.timeRange}`,
    );
  }
  const { outsideDomains, excluded, irrelevant } = outcome.filtered;
  if (outsideDomains + excluded + irrelevant > 0) {
    metadata.push(
      `filtered out: ${outsideDomains} outside domains, ${excluded} excluded, ${irrelevant} irrelevant`,
    );
  }
  if (outcome.cacheHit || outcome.sharedInFlight)
    metadata.push(`reused: ${outcome.cacheHit ? 'cache' : 'in-flight'}`);
  if (outcome.status === 'error') return [control, ...metadata].join('\n');

  const entries: RenderedResult[] = outcome.results.map((result, index) => {
    const snippet = cutSnippet(neutralizeMarkers(result.snippet.trim()), MAX_SNIPPET_CHARS);
    return {
      rank: index + 1,
      title: charPrefix(neutralizeMarkers(result.title.replace(/\s+/g, ' ').trim()), MAX_TITLE_CHARS),
      url: neutralizeMarkers(result.url),
      snippet: snippet.text,
      snippetTruncated: snippet.truncated,
    };
  });
  const { body, omitted } = fitBody(neutralizeMarkers(outcome.query.replace(/\s+/g, ' ')), entries);
  if (omitted > 0) metadata.push(`omitted: ${omitted} lower-ranked results to stay within the output bound`);
  return [control, ...metadata, frame(SEARCH_RESULTS_BEGIN, SEARCH_RESULTS_END, body)].join('\n');
}
