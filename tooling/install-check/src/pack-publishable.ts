import { execFileSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { repositoryRoot } from './readme-blocks.js';

/** One packed package. */
export interface PackedPackage {
  /** Its npm name. */
  name: string;
  /** The tarball's absolute path. */
  tarball: string;
}

/** The workspace packages that are published: every folder under `packages/` not marked private. */
export function publishableDirectories(): { name: string; directory: string }[] {
  const packages = join(repositoryRoot, 'packages');
  return readdirSync(packages, { withFileTypes: true })
    .filter((entry) => entry.isDirectory())
    .map((entry) => join(packages, entry.name))
    .map((directory) => ({
      directory,
      manifest: JSON.parse(readFileSync(join(directory, 'package.json'), 'utf8')),
    }))
    .filter(({ manifest }) => manifest.private !== true)
    .map(({ directory, manifest }) => ({ name: manifest.name as string, directory }));
}

/**
 * Packs each publishable package with `pnpm pack` (which turns `workspace:` ranges into versions, as
 * publishing does) into `destination`. Private workspace packages (apps, tooling) are never packed.
 */
export function packPublishable(destination: string): PackedPackage[] {
  return publishableDirectories().map(({ name, directory }) => {
    const output = execFileSync('pnpm', ['pack', '--pack-destination', destination], {
      cwd: directory,
      encoding: 'utf8',
    });
    const tarball = output
      .trim()
      .split('\n')
      .map((line) => line.trim())
      .reverse()
      .find((line) => line.endsWith('.tgz'));
    if (tarball === undefined) throw new Error(`pnpm pack printed no tarball for ${name}:\n${output}`);
    return { name, tarball: tarball.startsWith('/') ? tarball : join(destination, tarball) };
  });
}

/** The file list of a tarball (paths under `package/`). */
export function tarballFiles(tarball: string): string[] {
  return execFileSync('tar', ['-tzf', tarball], { encoding: 'utf8' })
    .split('\n')
    .filter(Boolean)
    .map((path) => path.replace(/^package\//, ''));
}
