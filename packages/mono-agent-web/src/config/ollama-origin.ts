import { classifyOllamaOrigin as classifyProviderOrigin } from '@mono-agent/search-providers';
import { OLLAMA_HOSTED_ORIGIN } from './config-constants.js';
import type { ConfigField } from './config-field.js';
import type { ConfigProblems } from './config-problem.js';
import { hasCredentials } from './searxng-endpoint.js';

/** How an Ollama origin is treated: hosted (exactly https://ollama.com), local, or custom public. */
export type { OllamaOriginKind } from '@mono-agent/search-providers';

import type { OllamaOriginKind } from '@mono-agent/search-providers';

/**
 * Checks the shape of an Ollama `baseUrl`: an http(s) origin with no credentials, path, query or
 * fragment. Returns the normalised origin when every rule holds. Messages never repeat the URL.
 */
export function checkOllamaBaseUrl(
  text: string,
  field: ConfigField,
  problems: ConfigProblems,
): string | undefined {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    problems.add(field.key, 'url', 'is not a URL', field.label);
    return undefined;
  }
  const before = problems.size;
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    problems.add(field.key, 'scheme', `must use http:// or https://, not ${url.protocol}//`, field.label);
  }
  if (hasCredentials(text, url)) {
    problems.add(field.key, 'credentials', 'must not contain a user name or password', field.label);
  }
  if (url.pathname !== '/') {
    problems.add(field.key, 'path', 'must be an origin without a path', field.label);
  }
  if (url.search !== '' || text.includes('?')) {
    problems.add(field.key, 'query', 'must not contain a query', field.label);
  }
  if (url.hash !== '' || text.includes('#')) {
    problems.add(field.key, 'fragment', 'must not contain a fragment', field.label);
  }
  return problems.size === before ? url.origin : undefined;
}

/**
 * Sorts a checked origin: exactly https://ollama.com is hosted; `localhost` and loopback or private
 * IP literals are local (operator endpoints, plain http allowed); any other host is custom public.
 */
export function classifyOllamaOrigin(origin: string): OllamaOriginKind {
  // One rule for the loader and the provider, so config never accepts what the provider refuses.
  return classifyProviderOrigin(new URL(origin));
}

/** The resolved Ollama settings checked together, each with the field it came from. */
export interface OllamaOriginInput {
  /** The normalised origin and its field. */
  readonly baseUrl: { readonly value: string; readonly field: ConfigField };
  /** The key variable name, when set, and its field (the config key when unset). */
  readonly apiKeyEnv: { readonly value: string | undefined; readonly field: ConfigField };
  /** Whether a custom public origin is trusted, and its field (the config key when defaulted). */
  readonly trustPublicUrl: { readonly value: boolean; readonly field: ConfigField };
}

/**
 * Applies the origin rules: the hosted origin needs `apiKeyEnv`; no other origin may name one (its
 * key would leak); a custom public origin needs https and `trustPublicUrl: true`.
 */
export function checkOllamaOriginRules(input: OllamaOriginInput, problems: ConfigProblems): void {
  const { baseUrl, apiKeyEnv, trustPublicUrl } = input;
  const kind = classifyOllamaOrigin(baseUrl.value);
  if (kind === 'hosted') {
    if (apiKeyEnv.value === undefined) {
      problems.add(
        apiKeyEnv.field.key,
        'api_key_env_required',
        `must name the environment variable that holds the API key for ${OLLAMA_HOSTED_ORIGIN}`,
        apiKeyEnv.field.label,
      );
    }
    return;
  }
  if (apiKeyEnv.value !== undefined) {
    problems.add(
      apiKeyEnv.field.key,
      'api_key_env_origin',
      `is only allowed with ${OLLAMA_HOSTED_ORIGIN}; an API key is never sent to ${baseUrl.value}`,
      apiKeyEnv.field.label,
    );
  }
  if (kind === 'local') return;
  if (!baseUrl.value.startsWith('https:')) {
    problems.add(
      baseUrl.field.key,
      'https_required',
      `must use https:// for a public origin other than ${OLLAMA_HOSTED_ORIGIN}`,
      baseUrl.field.label,
    );
  }
  if (!trustPublicUrl.value) {
    problems.add(
      trustPublicUrl.field.key,
      'trust_required',
      `must be true to use the public origin ${baseUrl.value} (it stays unauthenticated)`,
      trustPublicUrl.field.label,
    );
  }
}
