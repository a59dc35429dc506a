export { findCodexBinary } from './codex-binary.js';
export { hasRedisServer, startRedisServer, type TestRedisServer } from './redis-server.js';
