// Child process of lazy-loading.test.ts: imports the package, optionally extracts one HTML page,
// then prints the module URLs the loader resolved and the CommonJS files required.
import { createRequire } from 'node:module';
import { setTimeout as delay } from 'node:timers/promises';

const extract = await import('@mono-agent/extract');
if (process.argv[2] === 'extract') {
  await extract.extract({ body: '<html><body><p>Hello</p></body></html>', url: 'https://example.org/', contentType: 'text/html' });
}
// Messages from the hooks thread arrive asynchronously.
await delay(200);
// The CommonJS parsers are required, which the ES resolve hook does not see: the require cache does.
const required = Object.keys(createRequire(import.meta.url).cache);
process.stdout.write(JSON.stringify([...globalThis.resolvedModules, ...required]));
