import { loadWebConfig, type WebConfig } from '../config/index.js';

/** A configuration given in part: any section may be left out, and any field of the sections given. */
export type PartialWebConfig = {
  readonly [Section in keyof WebConfig]?: WebConfig[Section] extends object
    ? Partial<WebConfig[Section]>
    : WebConfig[Section];
};

/** Where the runtime's configuration comes from when the caller does not give all of it. */
export interface RuntimeConfigSource {
  /** The configuration, whole or in part; what is missing comes from the file and the environment. */
  config?: PartialWebConfig;
  /** An agent configuration file to read for what `config` leaves out (default: none). */
  configFile?: string;
  /** The environment read for what `config` leaves out (default `process.env`). */
  env?: Readonly<Record<string, string | undefined>>;
}

/** The sections of {@link WebConfig} that are objects, merged one level deep. */
const NESTED_SECTIONS = ['network', 'search', 'fetch', 'artifacts'] as const;

/**
 * The configuration a runtime runs with: a whole configuration as given; otherwise the defaults, the
 * configuration file (when named) and the environment, exactly as the CLI loads them, with the parts
 * the caller gave laid over them section by section.
 */
export async function resolveRuntimeConfig(source: RuntimeConfigSource): Promise<WebConfig> {
  const given = source.config;
  if (given !== undefined && isWholeConfig(given)) return given;
  const loaded = await loadWebConfig({
    env: source.env ?? process.env,
    ...(source.configFile === undefined ? {} : { file: source.configFile }),
  });
  if (given === undefined) return loaded;
  const merged: Record<string, unknown> = { ...loaded };
  for (const [key, value] of Object.entries(given)) {
    if (value === undefined) continue;
    const section = key as keyof WebConfig;
    const base = loaded[section];
    merged[key] =
      (NESTED_SECTIONS as readonly string[]).includes(key) && typeof base === 'object' && base !== null
        ? { ...base, ...(value as object) }
        : value;
  }
  return merged as unknown as WebConfig;
}

function isWholeConfig(config: PartialWebConfig): config is WebConfig {
  return (
    typeof config.coordination === 'string' &&
    typeof config.network?.mode === 'string' &&
    Array.isArray(config.network.allow) &&
    typeof config.search?.backend === 'string' &&
    typeof config.search.codex === 'object' &&
    typeof config.fetch?.render === 'string' &&
    typeof config.sources === 'object'
  );
}
