/** The `codex` binary the tests and scripts use: MONO_AGENT_CODEX_BIN, else install-codex.sh's cache. */
export function defaultCodexBinary(): string;
/** Writes the generated protocol files of `binary` into `outDirectory` (replacing it). */
export function generateProtocol(binary: string, outDirectory: string): { version: string; files: number };
