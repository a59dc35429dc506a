// Child process of lazy-loading.test.ts: imports the package, optionally extracts one HTML page,
// then prints the module URLs the loader resolved.
import { setTimeout as delay } from 'node:timers/promises';

const extract = await import('@mono-agent/extract');
if (process.argv[2] === 'extract') {
  await extract.extract({ body: '<html><body><p>Hello</p></body></html>', url: 'https://example.org/', contentType: 'text/html' });
}
// Messages from the hooks thread arrive asynchronously.
await delay(200);
process.stdout.write(JSON.stringify(globalThis.resolvedModules));
