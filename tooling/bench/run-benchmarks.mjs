// Runs every benchmark file of the workspace (`packages/*/bench/*.bench.ts`, `tooling/*/bench/*.bench.ts`),
// each in its own process so one benchmark's heap and JIT state cannot colour another's figures.
// `pnpm bench -- net` runs only the files whose path contains "net".
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('../../', import.meta.url));
const tsx = join(root, 'node_modules/.bin/tsx');
const filters = process.argv.slice(2).filter((argument) => argument !== '--');

const files = [];
for (const group of ['packages', 'tooling']) {
  for (const entry of readdirSync(join(root, group), { withFileTypes: true })) {
    const benchDirectory = join(root, group, entry.name, 'bench');
    if (!entry.isDirectory() || !existsSync(benchDirectory)) continue;
    for (const file of readdirSync(benchDirectory).sort()) {
      if (file.endsWith('.bench.ts')) files.push(join(benchDirectory, file));
    }
  }
}
const selected = files.filter(
  (file) => filters.length === 0 || filters.some((filter) => file.includes(filter)),
);
if (selected.length === 0) {
  console.error(`no benchmark files matched ${filters.length ? filters.join(', ') : '(all)'}`);
  process.exit(1);
}

const failures = [];
for (const file of selected) {
  const name = relative(root, file);
  console.log(`\n=== ${name}`);
  const result = spawnSync(tsx, ['--conditions=@mono-agent/source', file], { cwd: root, stdio: 'inherit' });
  if (result.status !== 0) failures.push(name);
}
if (failures.length > 0) {
  console.error(`\nbenchmarks failed: ${failures.join(', ')}`);
  process.exit(1);
}
console.log(`\n${selected.length} benchmark file(s) ran.`);
