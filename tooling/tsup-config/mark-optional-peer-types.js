#!/usr/bin/env node
// Run after `tsup` in a package with optional peer dependencies. A published declaration file that
// imports an optional peer fails to compile (`Cannot find module`) in a consumer that did not install
// that peer and checks library types (`skipLibCheck: false`). Each such import is marked
// `@ts-ignore`, so for a missing peer its types are `any` and everything else still type-checks;
// with the peer installed the real types apply unchanged.
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

const directory = process.cwd();
const manifest = JSON.parse(readFileSync(join(directory, 'package.json'), 'utf8'));
const optionalPeers = Object.entries(manifest.peerDependenciesMeta ?? {})
  .filter(([, meta]) => meta?.optional === true)
  .map(([name]) => name);
const MARK = '// @ts-ignore optional peer dependency: types are `any` when it is not installed';

/** Whether a declaration line imports from one of the optional peers (or a subpath of one). */
function importsOptionalPeer(line) {
  const match = /^(?:import|export)\b.*\bfrom\s+['"]([^'"]+)['"];?\s*$/.exec(line);
  if (match === null) return false;
  const specifier = match[1];
  return optionalPeers.some((name) => specifier === name || specifier.startsWith(`${name}/`));
}

let marked = 0;
for (const file of readdirSync(join(directory, 'dist'))) {
  if (!file.endsWith('.d.ts')) continue;
  const path = join(directory, 'dist', file);
  const lines = readFileSync(path, 'utf8').split('\n');
  const output = [];
  for (const [index, line] of lines.entries()) {
    if (importsOptionalPeer(line) && lines[index - 1] !== MARK) {
      output.push(MARK);
      marked += 1;
    }
    output.push(line);
  }
  writeFileSync(path, output.join('\n'));
}
console.log(`${manifest.name}: marked ${marked} optional peer import(s) in dist/*.d.ts`);
