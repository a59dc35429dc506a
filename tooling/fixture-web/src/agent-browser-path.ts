import { existsSync, readFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const here = dirname(fileURLToPath(import.meta.url));

/** The agent-browser version the extract package's install script pins (`scripts/AGENT_BROWSER_VERSION`). */
export const PINNED_AGENT_BROWSER_VERSION = readFileSync(
  join(here, '../../../packages/extract/scripts/AGENT_BROWSER_VERSION'),
  'utf8',
).trim();

/**
 * The agent-browser launcher the real-browser tests run: MONO_AGENT_BROWSER_BIN, else the cache
 * folder the install script uses. Undefined when neither exists (`pnpm setup:system` installs it).
 */
export function agentBrowserPath(): string | undefined {
  const explicit = process.env.MONO_AGENT_BROWSER_BIN;
  if (explicit !== undefined && explicit !== '') return explicit;
  const cache = process.env.XDG_CACHE_HOME ?? join(homedir(), '.cache');
  const binary = join(
    cache,
    'mono-agent-web',
    `agent-browser-${PINNED_AGENT_BROWSER_VERSION}`,
    'node_modules/.bin/agent-browser',
  );
  return existsSync(binary) ? binary : undefined;
}
