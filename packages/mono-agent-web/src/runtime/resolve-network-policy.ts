import type { NetworkPolicy } from '@mono-agent/net';
import type { WebConfig } from '../config/index.js';

/**
 * The policy the tools run under. `network.allow` entries admit what they name in every mode but
 * `none` (which loading refuses to combine with entries), so a loopback service can be listed under
 * `all` or a public host under `localhost`.
 */
export function resolveNetworkPolicy(config: Pick<WebConfig, 'network'>): NetworkPolicy {
  return config.network.allow.length === 0
    ? { mode: config.network.mode }
    : { mode: config.network.mode, allow: [...config.network.allow] };
}
