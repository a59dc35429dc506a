import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startRedisServer, type TestRedisServer } from '@mono-agent/test-services';
import { createClient } from '@redis/client';
import { afterAll, beforeAll } from 'vitest';
import {
  createHostStateStore,
  createMemoryStore,
  createRedisStore,
  systemClock,
  type TableBackedStore,
} from '../src/index.js';
import { describeStoreBehaviour } from './store-behaviour.js';

function endTableCooldown(store: TableBackedStore) {
  return (key: string) =>
    store.update(key, (bucket, context) => {
      if (bucket !== undefined && bucket.cooldownUntil !== 0) bucket.cooldownUntil = context.now - 1;
      return { bucket, result: undefined };
    });
}

describeStoreBehaviour('process memory', async () => {
  const store = createMemoryStore({ clock: systemClock });
  return { store, endCooldown: endTableCooldown(store) };
});

const directories: string[] = [];
afterAll(() => {
  for (const directory of directories) rmSync(directory, { recursive: true, force: true });
});

describeStoreBehaviour('host state file', async () => {
  const parent = mkdtempSync(join(tmpdir(), 'store-behaviour-'));
  directories.push(parent);
  const store = createHostStateStore({ stateDirectory: join(parent, 'web-control'), clock: systemClock });
  return { store, endCooldown: endTableCooldown(store) };
});

let redis: TestRedisServer;
beforeAll(async () => {
  redis = await startRedisServer();
});
afterAll(async () => {
  await redis?.dispose();
});

let run = 0;
describeStoreBehaviour('redis', async () => {
  run += 1;
  const keyPrefix = `{behaviour-${process.pid}-${run}}:`;
  const store = createRedisStore({ url: redis.url, keyPrefix });
  return {
    store,
    async endCooldown(key) {
      const client = createClient({ url: redis.url });
      await client.connect();
      try {
        const [seconds, micros] = await client.time();
        const now = Number(seconds) * 1_000 + Math.floor(Number(micros) / 1_000);
        await client.hSet(`${keyPrefix}b:${key}`, 'cool', String(now - 1));
      } finally {
        await client.close();
      }
    },
  };
});
