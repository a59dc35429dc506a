export { META_PRESCAN_BYTES } from './decode/decode-body.js';
export { SNIFF_BYTES } from './decode/detect-kind.js';
export {
  createDocumentCache,
  type DocumentCache,
  type DocumentCacheKeyParts,
  type DocumentCacheOptions,
  documentCacheKey,
  MAX_CACHED_DOCUMENTS,
  MAX_CACHED_TEXT_BYTES,
} from './document-cache.js';
export { type ExtractOptions, extract } from './extract.js';
export { MAX_FAILURE_REASON_CHARS } from './failure-reason.js';
export {
  DEFAULT_ACCEPT,
  type DocumentRenderer,
  type FetchDocumentOptions,
  type FetchedDocument,
  type FetchFailure,
  type FetchRenderMode,
  fetchDocument,
  type RenderedPage,
  type RenderReason,
  type RenderRequestOptions,
  type RequestFunction,
} from './fetch-document.js';
export { MAX_JSON_INDENTED_DEPTH } from './formats/extract-json.js';
export { pageMarker, pagesOmittedMarker } from './formats/extract-pdf.js';
export { MAX_XML_ENTITY_EXPANDED_CHARS } from './formats/extract-xml.js';
export {
  DEFUDDLE_MIN_OVERLAP,
  DEFUDDLE_MIN_WORD_SHARE,
  LOADING_SHELL_MAX_WORDS,
} from './html/choose-article.js';
export { MIN_LINK_LIST_ITEMS } from './html/drop-link-lists.js';
export { escapeLinkLikeText } from './html/markdown-safety.js';
export { markdownToText } from './html/markdown-to-text.js';
export {
  cleanMetadataText,
  MAX_BYLINE_CHARS,
  MAX_DESCRIPTION_CHARS,
  MAX_METADATA_FIELD_CHARS,
} from './html/metadata-text.js';
export { type PageMetadata, readPageMetadata } from './html/page-metadata.js';
export { safeAbsoluteUrl } from './html/safe-link.js';
export {
  detectSparseShell,
  inspectShellMarkup,
  SCRIPT_HEAVY_RATIO,
  SHELL_VISIBLE_TEXT_MAX_CHARS,
  type ShellMarker,
  type ShellMarkup,
  SPARSE_TEXT_MAX_CHARS,
  type SparseShellSignal,
} from './html/sparse-shell.js';
export { MAX_STATED_ELEMENTS, MAX_STATED_JSON_LD_CHARS } from './html/stated-markup.js';
export { MAX_HTML_DEPTH, MAX_HTML_ELEMENTS } from './html-bounds.js';
export { MAX_PDF_DECODED_BYTES, MAX_PDF_PAGES } from './pdf-bounds.js';
export { createExtractionPool, inlineExtraction, sharedExtractionPool } from './pool/extraction-pool.js';
export {
  DEFAULT_EXTRACTION_DEADLINE_MS,
  DOM_STAGES_BUDGET_MS,
  EXTRACTION_POOL_SIZE,
  EXTRACTION_WORKER_HEAP_MB,
  type ExtractionPool,
  type ExtractionPoolOptions,
  type ExtractionRun,
  MAX_TASKS_PER_WORKER,
  RECYCLE_WORKER_HEAP_MB,
} from './pool/pool-options.js';
export {
  type AccessBarrier,
  detectAccessBarrier,
  SIGN_IN_PAGE_MAX_VISIBLE_CHARS,
} from './render/access-barrier.js';
export {
  type AgentBrowserRendererOptions,
  CLEANUP_RESERVE_MS,
  CLOSE_TIMEOUT_MS,
  createAgentBrowserRenderer,
  DEBIAN_CHROMIUM,
  RENDER_BUDGET_MS,
  TIMER_THROTTLING_SWITCHES,
} from './render/agent-browser-renderer.js';
export {
  type AgentBrowserRefusal,
  type AgentBrowserVersionCheck,
  BROWSER_COMMAND_ENV,
  BROWSER_COMMAND_SETTING,
  browserCommandRemedy,
  checkAgentBrowserVersion,
  judgeAgentBrowserVersion,
  MIN_AGENT_BROWSER_VERSION,
  parseAgentBrowserVersion,
  TESTED_AGENT_BROWSER_VERSION,
} from './render/agent-browser-version.js';
export { DOM_QUIET_MS, DOM_SETTLE_MAX_MS } from './render/dom-quiet-predicate.js';
export { bootTicksNow, findRenderProcesses, KILL_SWEEP_MS } from './render/process-tree.js';
export {
  DEFAULT_SLICE_LINES,
  type DocumentSlice,
  MAX_SLICE_LINES,
  MIN_SLICE_LINES,
  type SliceOptions,
  sliceDocument,
} from './slice-document.js';
export { MAX_STRUCTURED_PARSE_BYTES } from './structured-limit.js';
export type {
  CharsetSource,
  ContentKind,
  ExtractedDocument,
  ExtractionStage,
  OutputFormat,
  ParserFailure,
} from './types.js';
export { OUTPUT_FORMATS } from './types.js';
