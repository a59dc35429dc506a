import type { ExtractedDocument, FetchRenderMode, RenderReason } from '@mono-agent/extract';
import type { BrowserRecommendation } from '@mono-agent/tool-adapters';
import type { RenderMode } from '../config/index.js';

/** The `render` argument of a WebFetch call. */
export type RequestedRender = 'never' | 'auto' | 'always';

/**
 * The render mode a call runs with. The configuration is the authority: its `never` is a ceiling
 * that keeps every call static whatever the call asks. Under `auto` the call decides, and a call
 * that says nothing gets `auto` (static first, a browser only for a sparse shell), except with
 * format `raw`, which is always static.
 */
export function effectiveRenderMode(
  ceiling: RenderMode,
  requested: RequestedRender | undefined,
  format: 'markdown' | 'text' | 'raw',
): FetchRenderMode {
  if (ceiling === 'never') return 'never';
  return requested ?? (format === 'raw' ? 'never' : 'auto');
}

/**
 * Whether to tell the model that a browser would likely show more: the static page was a sparse
 * application shell and no browser ran, either because the ceiling forbids it or because the call
 * asked for `never`.
 */
export function browserRecommendationFor(
  ceiling: RenderMode,
  rendered: boolean,
  document: Pick<ExtractedDocument, 'sparseShell'>,
): BrowserRecommendation | undefined {
  if (rendered || document.sparseShell?.sparse !== true) return undefined;
  return ceiling === 'never' ? 'enable_rendering' : 'request_rendering';
}

/** How a document was produced, so a cache hit on it still reports whether it was rendered. */
interface RenderRecord {
  rendered: boolean;
  renderReason?: RenderReason;
  renderMs?: number;
}

const renderRecords = new WeakMap<object, RenderRecord>();

/** Remembers how a freshly fetched document was produced. */
export function rememberRender(document: object, record: RenderRecord): void {
  renderRecords.set(document, {
    rendered: record.rendered,
    ...(record.renderReason === undefined ? {} : { renderReason: record.renderReason }),
    ...(record.renderMs === undefined ? {} : { renderMs: record.renderMs }),
  });
}

/**
 * The render fields of a WebFetch result (status line, data and timing event): whether the document
 * was rendered and why, a browser recommendation when a shell was left static, and the render's wall
 * time when this call (not the cache) paid for it.
 */
export function renderReport(
  ceiling: RenderMode,
  document: Pick<ExtractedDocument, 'sparseShell'> & object,
  cacheHit: boolean,
): {
  renderInfo: {
    rendered: boolean;
    renderReason?: RenderReason;
    browserRecommendation?: BrowserRecommendation;
  };
  renderMs: number | undefined;
} {
  const record = renderRecords.get(document) ?? { rendered: false };
  const browserRecommendation = browserRecommendationFor(ceiling, record.rendered, document);
  return {
    renderInfo: {
      rendered: record.rendered,
      ...(record.renderReason === undefined ? {} : { renderReason: record.renderReason }),
      ...(browserRecommendation === undefined ? {} : { browserRecommendation }),
    },
    renderMs: cacheHit || record.renderMs === undefined ? undefined : Math.round(record.renderMs),
  };
}
