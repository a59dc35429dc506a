/** Where a value being checked lives: the key or env variable a problem is filed under, and its label. */
export interface ConfigField {
  /** The config key (`tools.web.search.backend`, `network.allow[2]`) or env variable name. */
  readonly key: string;
  /** How messages name it: the key, or `ENV_NAME (config.key)` for an env variable. */
  readonly label: string;
}

/** The field of a config key read from the file. */
export function fileField(key: string): ConfigField {
  return { key, label: key };
}

/** The field of an env variable standing in for a config key. */
export function envField(env: string, key: string): ConfigField {
  return { key: env, label: `${env} (${key})` };
}
