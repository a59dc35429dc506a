import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { WebToolError } from '@mono-agent/budget-policy';
import { describe, expect, it } from 'vitest';
import { createCoordinator } from './coordinator.js';
import {
  loadRedisClient,
  REDIS_CLIENT_PACKAGE,
  REDIS_CLIENT_RANGE,
  type RedisClientImporter,
} from './redis-client.js';
import { createRedisStore } from './redis-store.js';

/**
 * The error Node itself throws for `import('@redis/client')` where the package is not installed: one
 * child process importing it from an empty temporary folder, so the check below matches Node's own
 * wording rather than a copy of it.
 */
function nodeMissingPackageError(): Error {
  const folder = mkdtempSync(join(tmpdir(), 'redis-client-absent-'));
  try {
    const output = execFileSync(
      process.execPath,
      [
        '--input-type=module',
        '--eval',
        `try { await import(${JSON.stringify(REDIS_CLIENT_PACKAGE)}); console.log('null'); } catch (error) { console.log(JSON.stringify({ code: error.code, message: error.message })); }`,
      ],
      { cwd: folder, encoding: 'utf8' },
    );
    const thrown = JSON.parse(output) as { code: string; message: string } | null;
    if (thrown === null)
      throw new Error(`${REDIS_CLIENT_PACKAGE} resolved from ${folder}; the test needs a folder without it`);
    return Object.assign(new Error(thrown.message), { code: thrown.code });
  } finally {
    rmSync(folder, { recursive: true, force: true });
  }
}

const missing = nodeMissingPackageError();
/** Stands in for an install without the client, as the loader seam of the store. */
const absentClient: RedisClientImporter = () => Promise.reject(missing);

describe('the Redis client, an optional peer', () => {
  it('missing is a configuration_error naming the package and the versions to install', async () => {
    const error = await loadRedisClient(absentClient).catch((thrown: unknown) => thrown);
    expect(WebToolError.isInstance(error, 'configuration_error')).toBe(true);
    const failure = error as WebToolError;
    expect(failure.message).toContain(`npm install ${REDIS_CLIENT_PACKAGE}@${REDIS_CLIENT_RANGE}`);
    expect(failure.details).toEqual({ store: 'redis', package: '@redis/client', range: REDIS_CLIENT_RANGE });
    expect(failure.cause).toBe(missing);
  });

  it('missing fails every operation of a redis-mode coordinator with that error, admitting nothing', async () => {
    let imports = 0;
    const coordinator = createCoordinator({
      store: createRedisStore({
        url: 'redis://127.0.0.1:6379',
        importClient: () => {
          imports += 1;
          return absentClient();
        },
      }),
    });
    const request = { scope: 'duckduckgo', kind: 'search', concurrency: 1, spacingMs: 0 } as const;
    for (const operation of [() => coordinator.admit(request), () => coordinator.status()]) {
      const error = await operation().catch((thrown: unknown) => thrown);
      expect(WebToolError.isInstance(error, 'configuration_error')).toBe(true);
      expect((error as WebToolError).message).toMatch(/needs the optional package @redis\/client/);
    }
    // Not remembered: an install made while the process runs is found by the next operation.
    expect(imports).toBe(2);
    await coordinator.close();
  });

  it('installed but broken (one of its own dependencies missing) stays the error it is', async () => {
    const broken = Object.assign(
      new Error(
        "Cannot find package 'cluster-key-slot' imported from /project/node_modules/@redis/client/dist/lib/client/index.js",
      ),
      { code: 'ERR_MODULE_NOT_FOUND' },
    );
    await expect(loadRedisClient(() => Promise.reject(broken))).rejects.toBe(broken);
  });

  it('is named with the peer range of package.json, as an optional peer and no dependency', () => {
    const manifest = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as {
      dependencies?: Record<string, string>;
      peerDependencies?: Record<string, string>;
      peerDependenciesMeta?: Record<string, { optional?: boolean }>;
    };
    expect(manifest.peerDependencies?.[REDIS_CLIENT_PACKAGE]).toBe(REDIS_CLIENT_RANGE);
    expect(manifest.peerDependenciesMeta?.[REDIS_CLIENT_PACKAGE]?.optional).toBe(true);
    expect(manifest.dependencies?.[REDIS_CLIENT_PACKAGE]).toBeUndefined();
  });

  it('installed (as in this workspace) is loaded by the default import', async () => {
    const client = await loadRedisClient();
    expect(typeof client.createClient).toBe('function');
  });
});
