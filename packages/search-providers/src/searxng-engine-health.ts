/** The most failed engines one report lists; a larger instance's rest is counted, not named. */
export const MAX_REPORTED_ENGINES = 24;
/** The longest engine name reported, in characters. */
export const MAX_ENGINE_NAME_CHARS = 48;

/**
 * The stable words an engine failure is reported in, whatever the instance's version or UI language
 * wrote: SearXNG and searx 1.x word the same failure differently (`CAPTCHA` / `CAPTCHA required`,
 * `access denied` / `blocked`).
 */
export const ENGINE_FAILURE_REASONS = [
  'CAPTCHA',
  'too many requests',
  'access denied',
  'timeout',
  'HTTP error',
  'connection error',
  'protocol error',
  'network error',
  'proxy error',
  'SSL error',
  'server API error',
  'parsing error',
  'unexpected crash',
  'unknown error',
] as const;

/** One stable failure reason. */
export type EngineFailureReason = (typeof ENGINE_FAILURE_REASONS)[number];

/** One SearXNG engine that did not answer, and why. */
export interface EngineFailure {
  /** The engine's name as the instance configures it (sanitized and bounded). */
  engine: string;
  /** Why, in stable words. */
  reason: EngineFailureReason;
  /** Whether the instance had already suspended the engine after earlier failures. */
  suspended: boolean;
}

/** The reasons that mean the engine's upstream blocks or throttles the instance. */
const THROTTLE_REASONS: ReadonlySet<EngineFailureReason> = new Set([
  'CAPTCHA',
  'too many requests',
  'access denied',
]);

const REASON_PATTERNS: readonly [RegExp, EngineFailureReason][] = [
  [/captcha/i, 'CAPTCHA'],
  [/too many requests|rate.?limit/i, 'too many requests'],
  [/access denied|blocked|forbidden/i, 'access denied'],
  [/timeout|timed out/i, 'timeout'],
  [/connection|connect/i, 'connection error'],
  [/protocol/i, 'protocol error'],
  [/proxy/i, 'proxy error'],
  [/ssl|certificate|tls/i, 'SSL error'],
  [/network|read error|write error/i, 'network error'],
  [/api/i, 'server API error'],
  [/pars|json|xpath/i, 'parsing error'],
  [/http/i, 'HTTP error'],
  [/crash|unexpected/i, 'unexpected crash'],
];

/** Maps an instance's reason text (any version, any wording) to a stable reason. */
export function stableEngineReason(text: string): EngineFailureReason {
  const bare = text.replace(/^\s*suspended\s*:\s*/i, '');
  for (const [pattern, reason] of REASON_PATTERNS) if (pattern.test(bare)) return reason;
  return 'unknown error';
}

/** Whether a failure means blocking or throttling rather than a broken engine. */
export function isThrottleReason(reason: EngineFailureReason): boolean {
  return THROTTLE_REASONS.has(reason);
}

function engineName(value: string): string {
  // The name is the operator's configuration, but it reaches the model: keep it to plain name characters.
  const cleaned = value
    .replace(/[^\p{L}\p{N} ._-]+/gu, ' ')
    .replace(/\s+/g, ' ')
    .trim()
    .slice(0, MAX_ENGINE_NAME_CHARS);
  return cleaned === '' ? 'unnamed engine' : cleaned;
}

/**
 * Reads `unresponsive_engines` (`[[name, reason], …]`) leniently: entries of another shape are
 * skipped, a missing reason is `unknown error`, and the list comes back sorted by engine name.
 */
export function parseUnresponsiveEngines(value: unknown): EngineFailure[] {
  if (!Array.isArray(value)) return [];
  const failures: EngineFailure[] = [];
  for (const entry of value) {
    if (!Array.isArray(entry) || typeof entry[0] !== 'string') continue;
    const text = typeof entry[1] === 'string' ? entry[1] : '';
    failures.push({
      engine: engineName(entry[0]),
      reason: text === '' ? 'unknown error' : stableEngineReason(text),
      suspended: /^\s*suspended\s*:/i.test(text),
    });
  }
  return failures.sort((a, b) => (a.engine < b.engine ? -1 : a.engine > b.engine ? 1 : 0));
}

/** `duckduckgo: CAPTCHA; brave: too many requests (suspended)`, bounded to {@link MAX_REPORTED_ENGINES}. */
export function describeEngineFailures(failures: readonly EngineFailure[]): string {
  const named = failures
    .slice(0, MAX_REPORTED_ENGINES)
    .map((failure) => `${failure.engine}: ${failure.reason}${failure.suspended ? ' (suspended)' : ''}`);
  const rest = failures.length - named.length;
  return rest > 0 ? `${named.join('; ')}; and ${rest} more` : named.join('; ');
}
