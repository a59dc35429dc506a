export { agentBrowserPath, PINNED_AGENT_BROWSER_VERSION } from './agent-browser-path.js';
export { type BodyPattern, binaryPattern, PatternSource, textPattern } from './body-pattern.js';
export { CHARSET_SAMPLES, FIXTURE_CHARSETS, type FixtureCharset } from './charset-pages/charset-documents.js';
export {
  BOGUS_CHARSET,
  CHARSET_VARIANTS,
  type CharsetPage,
  type CharsetVariant,
  describeCharsetPage,
} from './charset-pages/charset-variants.js';
export { FEED_ENTRIES } from './content/feeds.js';
export { FIXTURE_PDF_PAGES, FIXTURE_PDF_TITLE } from './content/pdf-document.js';
export {
  HOSTILE_KINDS,
  type HostileName,
  type HostilePage,
  type HostileParameters,
  hostilePage,
} from './hostile/hostile-pages.js';
export {
  LEGACY_CHARSETS,
  LEGACY_FORMS,
  LEGACY_TEXTS,
  type LegacyCharset,
  type LegacyForm,
  type LegacyText,
  renderLegacyText,
} from './legacy-text/legacy-texts.js';
export { LOOPBACK_HOSTS, type LoopbackHost } from './loopback-hosts.js';
export { findRecordedPage, type RecordedPage, recordedPages } from './recorded-pages.js';
export type { RecordedRequest, RequestOutcome } from './request-log.js';
export { CLIENT_RENDERED_ARTICLE, CLIENT_RENDERED_DESCRIPTION } from './routes/app-pages.js';
export { legacyTextBytes } from './routes/legacy-text.js';
export type { ScenarioContext, ScenarioHandler, ScenarioResponse } from './scenarios.js';
export {
  type FixtureUrlOptions,
  type FixtureWeb,
  type FixtureWebOptions,
  startFixtureWeb,
} from './start-fixture-web.js';
