// Finds the real `codex` binary the way the app-server client's tests do: MONO_AGENT_CODEX_BIN, else
// the cache that packages/codex-app-server-client/scripts/install-codex.sh fills for the pinned version.
import { existsSync, readFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

/** The Codex version the client is pinned to, from the file its README names. */
function pinnedCodexVersion(): string {
  const client = dirname(
    fileURLToPath(import.meta.resolve('@mono-agent/codex-app-server-client/package.json')),
  );
  return readFileSync(join(client, 'src/generated/protocol/CODEX_VERSION'), 'utf8').trim();
}

/** The real binary, or undefined when it is not installed (tests using it are skipped). */
export function findCodexBinary(): string | undefined {
  const explicit = process.env.MONO_AGENT_CODEX_BIN;
  if (explicit) return existsSync(explicit) ? explicit : undefined;
  const version = pinnedCodexVersion();
  const cache =
    process.env.MONO_AGENT_CODEX_CACHE ||
    join(process.env.XDG_CACHE_HOME || join(homedir(), '.cache'), 'mono-agent-web', `codex-${version}`);
  const binary = join(cache, 'node_modules/.bin/codex');
  return existsSync(binary) ? binary : undefined;
}
