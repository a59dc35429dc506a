/**
 * How far an engine honours one search filter: `supported` (the engine enforces it), `hint` (sent,
 * and the engine may weigh it), `advisory` (sent, never guaranteed, so the caller verifies) or
 * `unsupported` (not sent at all). The same levels as the providers' filter reports.
 */
export type FilterSupportLevel = 'supported' | 'hint' | 'advisory' | 'unsupported';

/** Which of the tool's filters an engine receives, and how far it can be trusted. */
export interface FilterSupport {
  /** The `language` filter. */
  language: FilterSupportLevel;
  /** The `time_range` filter. */
  timeRange: FilterSupportLevel;
}
