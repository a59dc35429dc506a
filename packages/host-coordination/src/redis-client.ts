import { WebToolError } from '@mono-agent/budget-policy';

/**
 * The Redis client of `redis` mode, node-redis. An optional peer dependency: most users never select
 * redis mode, and the client is by far the largest package this one would otherwise install.
 */
export const REDIS_CLIENT_PACKAGE = '@redis/client';
/** The versions of {@link REDIS_CLIENT_PACKAGE} the store is built for: the peer range of package.json. */
export const REDIS_CLIENT_RANGE = '^6.3.1';

/** The part of node-redis the store uses, so its types are not needed where the client is absent. */
export interface RedisClientModule {
  createClient(options: {
    url: string;
    disableOfflineQueue: boolean;
    socket: { connectTimeout: number; reconnectStrategy: false };
  }): unknown;
}

/** How the client package is imported; the default is the import itself, a test passes its own. */
export type RedisClientImporter = () => Promise<RedisClientModule>;

/** A literal specifier, so the bin's bundle keeps this import as one it can route (see its build). */
const importRedisClient: RedisClientImporter = () => import('@redis/client');

/**
 * Whether `error` says that the client package itself cannot be found. Node names the missing
 * package in quotes; a package that is installed but lacks one of its own dependencies names that
 * one instead, and stays the error it is.
 */
function isClientMissing(error: unknown): boolean {
  if (typeof error !== 'object' || error === null) return false;
  const { code, message } = error as { code?: unknown; message?: unknown };
  return (
    (code === 'ERR_MODULE_NOT_FOUND' || code === 'MODULE_NOT_FOUND') &&
    typeof message === 'string' &&
    message.includes(`'${REDIS_CLIENT_PACKAGE}'`)
  );
}

/**
 * Loads the Redis client. When it is not installed, the failure is `configuration_error`, naming the
 * package and the versions to install: redis mode was selected without what it needs, which only
 * the operator can change.
 */
export async function loadRedisClient(
  importer: RedisClientImporter = importRedisClient,
): Promise<RedisClientModule> {
  try {
    return await importer();
  } catch (error) {
    if (!isClientMissing(error)) throw error;
    throw new WebToolError({
      code: 'configuration_error',
      message: `redis coordination needs the optional package ${REDIS_CLIENT_PACKAGE}, which is not installed; install it (npm install ${REDIS_CLIENT_PACKAGE}@${REDIS_CLIENT_RANGE}) or choose another coordination mode; no request was admitted`,
      details: { store: 'redis', package: REDIS_CLIENT_PACKAGE, range: REDIS_CLIENT_RANGE },
      cause: error,
    });
  }
}
