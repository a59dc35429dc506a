import { existsSync } from 'node:fs';
import { defaultCodexBinary } from '../scripts/generate-protocol.mjs';

/** The env variable naming the `codex` binary for the real-binary tests. */
export const CODEX_BINARY_VARIABLE = 'MONO_AGENT_CODEX_BIN';

/** The binary to test against, or undefined when it is not installed (never undefined in CI). */
export function findCodexBinary(): string | undefined {
  const binary = defaultCodexBinary();
  if (existsSync(binary)) return binary;
  const hint = `run packages/codex-app-server-client/scripts/install-codex.sh, or set ${CODEX_BINARY_VARIABLE}`;
  if (process.env.CI) throw new Error(`no codex binary at ${binary} in CI; ${hint}`);
  console.warn(`Skipping the real codex app-server tests: no codex binary at ${binary}; ${hint}.`);
  return undefined;
}
