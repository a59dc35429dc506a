import type { FailureCode } from '@mono-agent/budget-policy';
import type { DocumentSlice, ExtractedDocument } from '@mono-agent/extract';
import { charsetNote } from './charset-note.js';
import { type PageMetadataFields, pageMetadataLines } from './page-metadata-lines.js';
import { frame, neutralizeMarkers, WEB_CONTENT_BEGIN, WEB_CONTENT_END } from './untrusted-frame.js';
import { charPrefix } from './utf8.js';

/** The longest document title shown, in characters. */
export const MAX_DOCUMENT_TITLE_CHARS = 500;

/** Why a browser rendered the page: the call asked for it, or the static page was a sparse shell. */
export type FetchRenderReason = 'requested' | 'sparse_shell';

/**
 * A browser would likely show more than the static page did, but none ran: `enable_rendering` when
 * the configuration forbids rendering (only the operator can change that), `request_rendering` when
 * the call asked for `render: "never"` under a configuration that allows it.
 */
export type BrowserRecommendation = 'enable_rendering' | 'request_rendering';

/** The sentence after the content that tells the model what a browser recommendation means for it. */
export const BROWSER_RECOMMENDATION_HINTS: Readonly<Record<BrowserRecommendation, string>> = {
  enable_rendering:
    "This page looks like a client-rendered application shell: static extraction found almost no text, and browser rendering is off in this agent's configuration (tools.web.fetch.render is never). Do not treat the page as empty; tell the operator that reading it needs rendering enabled.",
  request_rendering:
    'This page looks like a client-rendered application shell: static extraction found almost no text. Call WebFetch again with render "auto" to read it in a browser.',
};

/** The outcome of one WebFetch call, as data. */
export type FetchOutcome =
  | {
      /** The fetch worked. */
      status: 'ok';
      /** The final URL, after redirects. */
      url: string;
      /** The HTTP status. */
      httpStatus: number;
      /** Redirect hops followed. */
      redirects: number;
      /** What was extracted (the content itself is in `slice`), with the metadata the page states. */
      document: Pick<
        ExtractedDocument,
        'kind' | 'format' | 'title' | 'charset' | 'stage' | 'replacementCount'
      > &
        PageMetadataFields &
        Partial<Pick<ExtractedDocument, 'charsetSource' | 'charsetHint' | 'declaredCharset'>>;
      /** The returned part of the document. */
      slice: DocumentSlice;
      /** Whether the document came from the run's document cache. */
      cacheHit: boolean;
      /** Whether a browser rendered the page; omitted by hosts that never render. */
      rendered?: boolean;
      /** Why it was rendered, when it was. */
      renderReason?: FetchRenderReason;
      /** Set when the static page looks like an application shell and no browser ran. */
      browserRecommendation?: BrowserRecommendation;
    }
  | {
      /** The fetch failed. */
      status: 'error';
      /** The failure category. */
      code: FailureCode;
      /** The HTTP status, for `http_status` and `rate_limited` failures. */
      httpStatus?: number;
      /** Epoch milliseconds after which trying again can help, when known. */
      retryAt?: number;
      /** Attempts sent (first try, retries, redirect hops), when any were. */
      attempts?: number;
      /** The origin cooldown behind the failure (host mode): what opened it and when it ends. */
      cooldown?: { cause: string; until: number };
      /** One plain sentence saying what was refused or went wrong, written by the tool, never by the server. */
      reason?: string;
      /** Settings that would admit a refused destination (`network.mode`, `network.allow`). */
      allowWith?: readonly string[];
      /** Where the whole output was saved, when it was. */
      artifact?: string;
    };

/**
 * Renders a fetch outcome: a control line with kind, format, charset, stage and slice position, the
 * content inside `[BEGIN UNTRUSTED WEB CONTENT]`, and the continuation hint after the frame. A failure
 * is a control line naming its category (HTTP status, attempts, cooldown, retry time), then the
 * tool's own reason, the settings that would allow a refused destination, and a saved artifact.
 */
export function renderFetchOutcome(outcome: FetchOutcome): string {
  if (outcome.status === 'error') return renderFailure(outcome);
  const { document, slice } = outcome;
  const control = [
    'WebFetch status: ok',
    `kind: ${document.kind}`,
    `format: ${document.format}`,
    `charset: ${document.charset}`,
    `stage: ${document.stage}`,
    `lines: ${slice.endLine >= slice.startLine ? `${slice.startLine}-${slice.endLine}` : 'none'} of ${slice.totalLines}`,
    slice.nextLine === undefined ? 'next line: none' : `next line: ${slice.nextLine}`,
    document.replacementCount > 0 ? `replacement characters: ${document.replacementCount}` : undefined,
    outcome.cacheHit ? 'cached: yes' : undefined,
    outcome.rendered === undefined
      ? undefined
      : outcome.rendered
        ? `rendered: yes (${outcome.renderReason ?? 'requested'})`
        : 'rendered: no',
    outcome.browserRecommendation === undefined
      ? undefined
      : `browser recommended: ${outcome.browserRecommendation}`,
  ]
    .filter((part) => part !== undefined)
    .join(' | ');
  // The charset is read from the page (a header or a meta tag): untrusted like the rest of it.
  const safeControl = neutralizeMarkers(control);
  const header = [
    `URL: ${neutralizeMarkers(outcome.url)}`,
    document.title === undefined
      ? undefined
      : `Title: ${charPrefix(neutralizeMarkers(document.title.replace(/\s+/g, ' ').trim()), MAX_DOCUMENT_TITLE_CHARS)}`,
    ...pageMetadataLines(document),
  ].filter((line) => line !== undefined);
  const body = [...header, '', neutralizeMarkers(slice.content)].join('\n');
  const recommendation =
    outcome.browserRecommendation === undefined
      ? undefined
      : BROWSER_RECOMMENDATION_HINTS[outcome.browserRecommendation];
  const note = charsetNote(document);
  const parts = [
    safeControl,
    ...(note === undefined ? [] : [neutralizeMarkers(note)]),
    frame(WEB_CONTENT_BEGIN, WEB_CONTENT_END, body),
    slice.hint,
  ];
  if (recommendation !== undefined) parts.push(recommendation);
  return parts.join('\n');
}

function renderFailure(outcome: Extract<FetchOutcome, { status: 'error' }>): string {
  const control = [
    'WebFetch status: error',
    `error: ${outcome.code}`,
    outcome.httpStatus === undefined ? undefined : `http status: ${outcome.httpStatus}`,
    outcome.attempts === undefined ? undefined : `attempts: ${outcome.attempts}`,
    outcome.cooldown === undefined
      ? undefined
      : `cooldown: ${outcome.cooldown.cause} until ${new Date(outcome.cooldown.until).toISOString()}`,
    outcome.retryAt === undefined ? undefined : `retry after: ${new Date(outcome.retryAt).toISOString()}`,
  ]
    .filter((part) => part !== undefined)
    .join(' | ');
  const lines = [neutralizeMarkers(control)];
  if (outcome.reason !== undefined) lines.push(`reason: ${neutralizeMarkers(outcome.reason)}`);
  if (outcome.allowWith !== undefined && outcome.allowWith.length > 0) {
    lines.push(`allowed by: ${outcome.allowWith.map((setting) => neutralizeMarkers(setting)).join('; or ')}`);
  }
  if (outcome.artifact !== undefined) lines.push(`saved output: ${outcome.artifact}`);
  return lines.join('\n');
}
