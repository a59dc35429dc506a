import type { ConfigProblems } from './config-problem.js';
import { describeJsonType } from './config-values.js';
import type { ConfigDocument } from './read-config-file.js';

/** A JSON object of the agent config. */
export type JsonObject = Record<string, unknown>;

const WEB_KEYS = ['coordination', 'redis', 'search', 'fetch', 'mcp'];
const SEARCH_KEYS = ['backend', 'maxRequestsPerRun', 'searxng', 'endpoint', 'ollama', 'codex'];

/** The config sections this package reads; unknown keys are refused under `tools.web` only. */
export interface Sections {
  /** `tools.web`. */
  web?: JsonObject;
  /** `tools.web.redis`. */
  redis?: JsonObject;
  /** `tools.web.search`. */
  search?: JsonObject;
  /** `tools.web.search.searxng`. */
  searxng?: JsonObject;
  /** `tools.web.search.ollama`. */
  ollama?: JsonObject;
  /** `tools.web.search.codex`. */
  codex?: JsonObject;
  /** `tools.web.fetch`. */
  fetch?: JsonObject;
  /** `tools.web.mcp`. */
  mcp?: JsonObject;
  /** `network`. */
  network?: JsonObject;
  /** `artifacts`. */
  artifacts?: JsonObject;
  /** `artifacts.retention`. */
  retention?: JsonObject;
}

/**
 * The sections of an agent config, each checked to be an object; an unknown key under `tools.web` is a
 * problem that names the key it most likely meant.
 */
export function readSections(document: ConfigDocument | undefined, problems: ConfigProblems): Sections {
  if (document === undefined) return {};
  if (!isObject(document.value)) {
    problems.add(
      document.source,
      'type',
      `must hold a JSON object (the agent config), not ${describeJsonType(document.value)}`,
    );
    return {};
  }
  const root = document.value;
  const section = (parent: JsonObject | undefined, name: string, key: string, known?: readonly string[]) => {
    if (parent === undefined || !Object.hasOwn(parent, name)) return undefined;
    const value = parent[name];
    if (!isObject(value)) {
      problems.add(key, 'type', `must be an object, not ${describeJsonType(value)}`);
      return undefined;
    }
    if (known !== undefined) refuseUnknownKeys(value, key, known, problems);
    return value;
  };
  const tools = section(root, 'tools', 'tools');
  const web = section(tools, 'web', 'tools.web', WEB_KEYS);
  const search = section(web, 'search', 'tools.web.search', SEARCH_KEYS);
  return {
    web,
    redis: section(web, 'redis', 'tools.web.redis', ['url']),
    search,
    searxng: section(search, 'searxng', 'tools.web.search.searxng', ['endpoint']),
    ollama: section(search, 'ollama', 'tools.web.search.ollama', ['baseUrl', 'apiKeyEnv', 'trustPublicUrl']),
    codex: section(search, 'codex', 'tools.web.search.codex', ['model']),
    fetch: section(web, 'fetch', 'tools.web.fetch', ['render', 'browserCommand']),
    mcp: section(web, 'mcp', 'tools.web.mcp', ['runIdleSeconds']),
    // The rest of the agent config belongs to other components, so keys this package does not read
    // are left alone there.
    network: section(root, 'network', 'network'),
    artifacts: section(root, 'artifacts', 'artifacts'),
    retention: section(section(root, 'artifacts', 'artifacts'), 'retention', 'artifacts.retention'),
  };
}

function refuseUnknownKeys(
  value: JsonObject,
  key: string,
  known: readonly string[],
  problems: ConfigProblems,
) {
  for (const name of Object.keys(value)) {
    if (known.includes(name)) continue;
    const guess = closestName(name, known);
    problems.add(
      `${key}.${name}`,
      'unknown_key',
      `is not a known setting${guess === undefined ? '' : ` (did you mean ${key}.${guess}?)`}; known: ${known.join(', ')}`,
    );
  }
}

/** The known name a typo most likely meant: same letters ignoring case, or at most two edits away. */
function closestName(name: string, known: readonly string[]): string | undefined {
  let best: { name: string; distance: number } | undefined;
  for (const candidate of known) {
    const distance =
      candidate.toLowerCase() === name.toLowerCase()
        ? 0
        : editDistance(name.toLowerCase(), candidate.toLowerCase());
    if (distance <= 2 && (best === undefined || distance < best.distance))
      best = { name: candidate, distance };
  }
  return best?.name;
}

function editDistance(left: string, right: string): number {
  let previous = Array.from({ length: right.length + 1 }, (_, index) => index);
  for (let row = 1; row <= left.length; row += 1) {
    const current = [row];
    for (let column = 1; column <= right.length; column += 1) {
      const cost = left[row - 1] === right[column - 1] ? 0 : 1;
      current.push(
        Math.min(
          (previous[column] ?? 0) + 1,
          (current[column - 1] ?? 0) + 1,
          (previous[column - 1] ?? 0) + cost,
        ),
      );
    }
    previous = current;
  }
  return previous[right.length] ?? 0;
}

function isObject(value: unknown): value is JsonObject {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
