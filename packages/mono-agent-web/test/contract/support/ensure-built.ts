import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

// The contract suite drives the built bin, so a dist older than the sources would test yesterday's
// code. Before the suite runs, every package's build is checked against its sources and rebuilt
// through turbo (cached, so an up-to-date tree costs a second) when any source is newer.
const root = fileURLToPath(new URL('../../../../../', import.meta.url));

function newestSource(directory: string): number {
  let newest = 0;
  for (const entry of readdirSync(directory, { withFileTypes: true })) {
    const path = join(directory, entry.name);
    if (entry.isDirectory()) {
      if (entry.name !== '__fixtures__') newest = Math.max(newest, newestSource(path));
    } else if (entry.name.endsWith('.ts') && !entry.name.endsWith('.test.ts')) {
      newest = Math.max(newest, statSync(path).mtimeMs);
    }
  }
  return newest;
}

function staleBuilds(): string[] {
  const packages = join(root, 'packages');
  return readdirSync(packages).filter((name) => {
    const built = join(packages, name, 'dist', 'index.js');
    const sources = join(packages, name, 'src');
    if (!existsSync(sources)) return false;
    return !existsSync(built) || statSync(built).mtimeMs < newestSource(sources);
  });
}

/** vitest global setup: rebuild the packages whose dist is missing or older than their sources. */
export default function setup(): void {
  const stale = staleBuilds();
  if (stale.length === 0) return;
  console.log(`contract suite: rebuilding ${stale.join(', ')} (dist older than src)`);
  execFileSync(
    'pnpm',
    ['exec', 'turbo', 'run', 'build', '--filter=@mono-agent/web...', '--output-logs=errors-only'],
    {
      cwd: root,
      stdio: 'inherit',
      timeout: 15 * 60_000,
    },
  );
}
