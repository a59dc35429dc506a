import { WebToolError } from '@mono-agent/budget-policy';

/** Every rule a configuration value can break; `details.rule` (and each problem's `rule`) is one of these. */
export const CONFIG_RULES = [
  /** The config file named explicitly does not exist. */
  'file_not_found',
  /** The config file exists but cannot be read (a directory, no permission...). */
  'file_unreadable',
  /** The config file is not valid JSON. */
  'json_syntax',
  /** A key under `tools.web` is not one this package knows (usually a typo). */
  'unknown_key',
  /** A value has the wrong JSON type (a string where an object belongs...). */
  'type',
  /** A value is not one of the allowed words. */
  'one_of',
  /** A number is not an integer. */
  'integer',
  /** An integer is outside its bounds. */
  'range',
  /** An environment value is not true, false, 1 or 0. */
  'boolean',
  /** A string is empty (or, for a command, only whitespace). */
  'non_empty',
  /** A string holds whitespace where none is allowed, or starts or ends with it. */
  'whitespace',
  /** A string holds a control character (newline, NUL...). */
  'control_character',
  /** A string is longer than its bound. */
  'max_length',
  /** A command holds a shell metacharacter although it is never run through a shell. */
  'shell_metacharacter',
  /** A value that must be a URL cannot be parsed as one. */
  'url',
  /** A URL uses a scheme its setting does not allow. */
  'scheme',
  /** A URL carries a user name or password. */
  'credentials',
  /** A URL carries a query. */
  'query',
  /** A URL carries a fragment. */
  'fragment',
  /** An origin carries a path. */
  'path',
  /** A SearXNG endpoint is not on a loopback address. */
  'loopback',
  /** The SearXNG endpoint and its legacy alias are both set to different URLs. */
  'endpoint_conflict',
  /** `backend: searxng` is selected without a SearXNG endpoint. */
  'endpoint_required',
  /** `coordination: redis` is selected without a Redis server URL. */
  'redis_url_required',
  /** A public Ollama origin other than the hosted one does not use https. */
  'https_required',
  /** A public Ollama origin other than the hosted one is not trusted explicitly. */
  'trust_required',
  /** Hosted Ollama is selected without naming the variable that holds its key. */
  'api_key_env_required',
  /** A key variable is named for an origin that must never receive a key. */
  'api_key_env_origin',
  /** A value that must name an environment variable is not a valid name. */
  'env_name',
  /** A network allow entry is not a host, host:port, IP address or CIDR. */
  'allow_entry',
  /** The network policy as a whole is refused (e.g. allow entries with mode none, too many entries). */
  'network_policy',
  /** `network.mode: allowlist` admits nothing because its allow list is empty. */
  'allowlist_empty',
] as const;

/** One rule name. */
export type ConfigRule = (typeof CONFIG_RULES)[number];

/** One broken rule: where (config key, env variable or file), which rule, and a sentence naming both. */
export interface ConfigProblem {
  /** The config key (`tools.web.search.backend`), env variable or file the problem is about. */
  readonly key: string;
  /** The broken rule. */
  readonly rule: ConfigRule;
  /** A human-readable sentence that starts with the key; it never repeats a URL's credentials. */
  readonly message: string;
}

/** Collects problems so every one of them is reported at once. */
export class ConfigProblems {
  /** The problems so far, in the order found. */
  readonly list: ConfigProblem[] = [];

  /**
   * Records a problem; `text` continues the sentence that starts with `label` (the key unless given,
   * e.g. `MONO_AGENT_WEB_FETCH_RENDER (tools.web.fetch.render)` for an env variable).
   */
  add(key: string, rule: ConfigRule, text: string, label: string = key): void {
    this.list.push({ key, rule, message: `${label} ${text}` });
  }

  /** How many problems have been recorded. */
  get size(): number {
    return this.list.length;
  }

  /** Throws one `validation_error` listing every problem, when there is any. */
  throwIfAny(source: string | undefined): void {
    const first = this.list[0];
    if (first === undefined) return;
    const count = this.list.length;
    const from = source === undefined ? '' : ` (${source})`;
    throw new WebToolError({
      code: 'validation_error',
      message: `invalid web configuration${from}, ${count} problem${count === 1 ? '' : 's'}: ${this.list
        .map((problem) => `${problem.message} [${problem.rule}]`)
        .join('; ')}`,
      details: {
        key: first.key,
        rule: first.rule,
        problems: this.list.map((problem) => ({ ...problem })),
        ...(source === undefined ? {} : { source }),
      },
    });
  }
}
