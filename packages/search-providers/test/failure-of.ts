import { WebToolError } from '@mono-agent/budget-policy';

/** Awaits a promise that must reject with a `WebToolError`, and returns that error. */
export async function failureOf(promise: Promise<unknown>): Promise<WebToolError> {
  const error = await promise.then(
    () => undefined,
    (reason: unknown) => reason,
  );
  if (!WebToolError.isInstance(error)) throw new Error(`expected a WebToolError, got ${String(error)}`);
  return error;
}
