import { requireCommonJs } from './commonjs.js';

/** The parts of undici this package uses. */
export interface UndiciParts {
  Agent: typeof import('undici').Agent;
  buildConnector: typeof import('undici').buildConnector;
}

let loading: Promise<UndiciParts> | undefined;

/**
 * undici's agent, connector and request API, loaded at the first request: callers that only parse or
 * check policies never need them. Only those modules are loaded, not undici's index, which also loads
 * fetch, WebSocket, caching, mocking and the rest: about 110 ms more at every cold start here. undici
 * publishes no `exports` map, so its files are reachable; where that layout is not found the whole
 * package is loaded instead.
 */
export function loadUndici(): Promise<UndiciParts> {
  // A failed load is not remembered, so a later request can try again. undici is CommonJS: see
  // requireCommonJs for why it is required rather than imported.
  loading ??= new Promise<UndiciParts>((resolve) => resolve(loadParts())).catch((error: unknown) => {
    loading = undefined;
    throw error;
  });
  return loading;
}

function loadParts(): UndiciParts {
  let parts: UndiciParts;
  try {
    const Dispatcher = requireCommonJs('undici/lib/dispatcher/dispatcher.js') as { prototype: object };
    const api = requireCommonJs('undici/lib/api/index.js') as object;
    // What undici's index does: the request methods live on every dispatcher.
    Object.assign(Dispatcher.prototype, api);
    parts = {
      Agent: requireCommonJs('undici/lib/dispatcher/agent.js') as UndiciParts['Agent'],
      buildConnector: requireCommonJs('undici/lib/core/connect.js') as UndiciParts['buildConnector'],
    };
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'MODULE_NOT_FOUND') throw error;
    parts = requireCommonJs('undici') as UndiciParts;
  }
  return parts;
}
