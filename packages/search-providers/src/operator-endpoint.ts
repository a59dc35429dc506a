import { WebToolError } from '@mono-agent/budget-policy';
import type { NetworkPolicy } from '@mono-agent/net';

/**
 * Parses a loopback SearXNG-style endpoint: `http://` on a loopback address, no credentials, query
 * or fragment. Throws `validation_error` naming the rule that failed.
 */
export function parseLoopbackEndpoint(input: string, field: string): URL {
  let url: URL;
  try {
    url = new URL(input);
  } catch {
    throw invalid(field, `'${input}' is not a URL`, 'url');
  }
  if (url.protocol !== 'http:') throw invalid(field, 'must use http:// (it is a local service)', 'scheme');
  if (url.username !== '' || url.password !== '') {
    throw invalid(field, 'must not contain credentials', 'credentials');
  }
  if (url.search !== '' || input.includes('?')) throw invalid(field, 'must not contain a query', 'query');
  if (url.hash !== '' || input.includes('#')) throw invalid(field, 'must not contain a fragment', 'fragment');
  if (!isLoopbackHost(url.hostname)) {
    throw invalid(
      field,
      `must be a loopback address (127.0.0.0/8, [::1] or localhost), not ${url.hostname}`,
      'loopback',
    );
  }
  return url;
}

/** Whether a URL host name is a loopback address or `localhost`. */
export function isLoopbackHost(hostname: string): boolean {
  return hostname === 'localhost' || hostname === '[::1]' || /^127(\.\d{1,3}){3}$/.test(hostname);
}

/**
 * The policy under which an operator-configured endpoint (SearXNG, Ollama) may be contacted: under
 * `all` the endpoint itself is admitted (it is the operator's choice, not the public internet),
 * under `localhost` and `allowlist` the policy applies unchanged (an allowlist must list it), and
 * under `none` nothing is.
 */
export function operatorEndpointPolicy(policy: NetworkPolicy, endpoint: URL): NetworkPolicy {
  if (policy.mode !== 'all') return policy;
  const port = endpoint.port === '' ? (endpoint.protocol === 'https:' ? '443' : '80') : endpoint.port;
  return { mode: 'allowlist', allow: [`${endpoint.hostname}:${port}`] };
}

function invalid(field: string, message: string, rule: string) {
  return new WebToolError({
    code: 'validation_error',
    message: `${field} ${message}`,
    details: { field, rule },
  });
}
