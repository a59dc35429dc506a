import { requireCommonJs } from './commonjs.js';

let loading: Promise<typeof import('undici')> | undefined;

/**
 * undici, loaded at the first request: it takes several times longer to import than the rest of this
 * package, and callers that only parse or check policies never need it.
 */
export function loadUndici(): Promise<typeof import('undici')> {
  // A failed load is not remembered, so a later request can try again. undici is CommonJS: see
  // requireCommonJs for why it is required rather than imported.
  loading ??= new Promise<typeof import('undici')>((resolve) => {
    resolve(requireCommonJs('undici') as typeof import('undici'));
  }).catch((error: unknown) => {
    loading = undefined;
    throw error;
  });
  return loading;
}
