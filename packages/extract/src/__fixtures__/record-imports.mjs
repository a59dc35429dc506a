// Loaded with --import: records every module URL the loader resolves, for lazy-loading.test.ts.
import { register } from 'node:module';
import { MessageChannel } from 'node:worker_threads';

const { port1, port2 } = new MessageChannel();
globalThis.resolvedModules = [];
port1.on('message', (url) => globalThis.resolvedModules.push(url));
port1.unref();
register('./record-imports-hooks.mjs', import.meta.url, { data: { port: port2 }, transferList: [port2] });
