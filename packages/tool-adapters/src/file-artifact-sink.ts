import { mkdir, open } from 'node:fs/promises';
import { join } from 'node:path';
import { claimRunFolder, TOOL_OUTPUT_FOLDER } from './artifact-retention.js';
import type { ArtifactSink } from './bloat-guard.js';

/** Options of {@link createFileArtifactSink}. */
export interface FileArtifactSinkOptions {
  /** The host's artifacts directory (`artifacts.dir`); files go under `tool-output/<runId>/`. */
  directory: string;
}

const SAFE_NAME = /[^A-Za-z0-9._-]+/g;

/** The folder a run's artifacts go to under `tool-output/`: the run id reduced to safe characters. */
export function runFolderName(runId: string): string {
  return (
    runId
      .replace(SAFE_NAME, '_')
      .replace(/\.{2,}/g, '_')
      .replace(/^\./, '_') || 'run'
  );
}

/**
 * Saves original tool-output blocks as owner-private files (directories 0700, files 0600) under
 * `<directory>/tool-output/<runId>/`. Names are reduced to safe characters, so a run id or tool name
 * can never climb out of that folder; an existing file is never overwritten.
 */
export function createFileArtifactSink(options: FileArtifactSinkOptions): ArtifactSink {
  return {
    async save({ runId, toolName, index, block }) {
      const runDirectory = join(options.directory, TOOL_OUTPUT_FOLDER, runFolderName(runId));
      await mkdir(runDirectory, { recursive: true, mode: 0o700 });
      // The sweep keeps a folder whose writer is alive; this record names the writer.
      await claimRunFolder(runDirectory);
      const extension =
        block.type === 'text' ? 'txt' : (block.mimeType.split('/')[1] ?? 'bin').replace(SAFE_NAME, '');
      const base = `${Date.now()}-${toolName.replace(SAFE_NAME, '_')}-${index}`;
      for (let attempt = 0; ; attempt += 1) {
        const path = join(runDirectory, `${base}${attempt === 0 ? '' : `-${attempt}`}.${extension}`);
        let handle: Awaited<ReturnType<typeof open>>;
        try {
          handle = await open(path, 'wx', 0o600);
        } catch (error) {
          if ((error as NodeJS.ErrnoException).code === 'EEXIST') continue;
          throw error;
        }
        try {
          await handle.writeFile(block.type === 'text' ? block.text : Buffer.from(block.data, 'base64'));
        } finally {
          await handle.close();
        }
        return path;
      }
    },
  };
}
