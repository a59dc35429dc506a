import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

/** The repository root. */
export const repositoryRoot = fileURLToPath(new URL('../../../', import.meta.url));

/** A published package of the workspace, as its manifest describes it. */
export interface WorkspacePackage {
  /** Folder name under `packages/`. */
  folder: string;
  /** Absolute path of the folder. */
  directory: string;
  /** The parsed package.json. */
  manifest: Record<string, unknown> & { name: string };
}

/** Every folder under `packages/`, with its manifest. */
export function listPublishedPackages(): WorkspacePackage[] {
  const packagesDirectory = join(repositoryRoot, 'packages');
  return readdirSync(packagesDirectory, { withFileTypes: true })
    .filter((entry) => entry.isDirectory())
    .map((entry) => {
      const directory = join(packagesDirectory, entry.name);
      const manifest = JSON.parse(readFileSync(join(directory, 'package.json'), 'utf8'));
      return { folder: entry.name, directory, manifest };
    });
}
