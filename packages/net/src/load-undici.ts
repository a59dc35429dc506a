let loading: Promise<typeof import('undici')> | undefined;

/**
 * undici, loaded at the first request: it takes several times longer to import than the rest of this
 * package, and callers that only parse or check policies never need it.
 */
export function loadUndici(): Promise<typeof import('undici')> {
  // A failed import is not remembered, so a later request can try again.
  loading ??= import('undici').catch((error: unknown) => {
    loading = undefined;
    throw error;
  });
  return loading;
}
