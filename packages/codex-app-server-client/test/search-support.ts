// What the search tests share: fakes that end after each test, one fake that serves many
// scenarios, an item event and the error a search rejects with. Each test file registers the hooks
// of what it uses: `afterEach(disposeHarnesses)` for `harness`, and `beforeAll(startSharedHarness)`
// with `afterAll(disposeSharedHarness)` for `reuse`.
import { WebToolError } from '@mono-agent/budget-policy';
import { createFakeHarness, type FakeHarness } from './fake-app-server.js';

const harnesses: FakeHarness[] = [];

/** A fake of its own for one test, ended by {@link disposeHarnesses}. */
export const harness = (...parameters: Parameters<typeof createFakeHarness>) => {
  const created = createFakeHarness(...parameters);
  harnesses.push(created);
  return created;
};

export async function disposeHarnesses(): Promise<void> {
  await Promise.all(harnesses.splice(0).map((entry) => entry.dispose()));
}

// One fake process serves every scenario of a test file (it re-reads its scenario per request),
// which keeps the suite from paying a process start per case.
let shared: FakeHarness | undefined;

export function startSharedHarness(): void {
  shared = createFakeHarness();
}

export async function disposeSharedHarness(): Promise<void> {
  await shared?.dispose();
  shared = undefined;
}

/** The shared fake, now playing `scenario`. */
export const reuse = (scenario: Record<string, unknown>) => {
  if (shared === undefined) throw new Error('reuse() needs beforeAll(startSharedHarness) in the test file');
  shared.setScenario(scenario);
  return shared;
};

/** An item event of the current turn, or of another thread. */
export const item = (
  method: 'item/started' | 'item/completed',
  value: Record<string, unknown>,
  thread = '$THREAD',
) => ({
  send: { method, params: { item: value, threadId: thread, turnId: '$TURN' } },
});

/** Awaits a promise that must reject with a `WebToolError`, and returns that error. */
export const rejection = async (promise: Promise<unknown>): Promise<WebToolError> => {
  const error = await promise.then(
    () => undefined,
    (reason: unknown) => reason,
  );
  if (!WebToolError.isInstance(error)) throw new Error(`expected a WebToolError, got ${String(error)}`);
  return error;
};
