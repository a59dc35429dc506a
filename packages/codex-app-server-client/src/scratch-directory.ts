import { chmod, mkdtemp, realpath, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** A private, empty working directory for one search turn. */
export interface ScratchDirectory {
  /** Its absolute, symlink-free path. */
  path: string;
  /** Deletes it and anything in it. */
  remove(): Promise<void>;
}

/** Creates a fresh directory that only the current user can enter (mode 0700). */
export async function createScratchDirectory(parent = tmpdir()): Promise<ScratchDirectory> {
  const path = await realpath(await mkdtemp(join(parent, 'mono-agent-codex-')));
  await chmod(path, 0o700);
  return { path, remove: () => rm(path, { recursive: true, force: true }) };
}
