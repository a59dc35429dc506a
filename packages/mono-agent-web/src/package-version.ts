import { createRequire } from 'node:module';

// Read at run time so the CLI reports the version that was actually installed. By the package's own
// name (a self-reference), so it resolves the same from the library, the bundled bin and the sources.
const manifest = createRequire(import.meta.url)('@mono-agent/web/package.json') as { version: string };

/** The installed version of @mono-agent/web. */
export const PACKAGE_VERSION: string = manifest.version;
