import { createRequire } from 'node:module';

// Read at run time so the CLI reports the version that was actually installed.
const manifest = createRequire(import.meta.url)('../package.json') as { version: string };

/** The installed version of @mono-agent/web. */
export const PACKAGE_VERSION: string = manifest.version;
