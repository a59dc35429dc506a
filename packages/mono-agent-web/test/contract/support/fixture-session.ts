import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type FixtureWeb, startFixtureWeb } from '@mono-agent/fixture-web';
import { afterAll, beforeAll, beforeEach } from 'vitest';
import { type RuntimeSession, startRuntime } from './runtime.js';

/** The environment of a host that lets WebFetch reach the loopback fixture web. */
export const LOCALHOST_ENV = { MONO_AGENT_NETWORK_MODE: 'localhost' };

/** What a test file fetches through: the fixture web, a throw-away home for the CLI, and a runtime. */
export interface FixtureSession {
  web: FixtureWeb;
  home: string;
  session: RuntimeSession;
}

/**
 * Starts the fixture web, a home folder named after `name` and a runtime in {@link LOCALHOST_ENV}
 * before the file's tests, resets the fixture web before each test, and closes and removes all three
 * after them. The fields are set once the file's `beforeAll` hooks have run.
 */
export function useFixtureSession(name: string): FixtureSession {
  const parts: Partial<FixtureSession> = {};
  beforeAll(async () => {
    parts.web = await startFixtureWeb();
    parts.home = mkdtempSync(join(tmpdir(), `${name}-`));
    parts.session = await startRuntime(LOCALHOST_ENV);
  });
  beforeEach(() => parts.web?.reset());
  afterAll(async () => {
    await parts.session?.close();
    await parts.web?.close();
    if (parts.home !== undefined) rmSync(parts.home, { recursive: true, force: true });
  });
  return parts as FixtureSession;
}
