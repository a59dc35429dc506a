import { createRequire } from 'node:module';

let version: string | undefined;

/**
 * The installed version of @mono-agent/web, read from its manifest at the first call, so the CLI
 * reports the version that was actually installed and a command that never prints it never reads it.
 * By the package's own name (a self-reference), so it resolves the same from the library, the bundled
 * bin and the sources.
 */
export function packageVersion(): string {
  version ??= (createRequire(import.meta.url)('@mono-agent/web/package.json') as { version: string }).version;
  return version;
}
