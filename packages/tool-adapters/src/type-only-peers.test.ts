import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

// The outcomes this package renders are typed by extract and search-providers, which are optional
// peers: a host that serves its own tools installs this package without a DOM, a PDF stack or the
// search backends. That holds only while every import of them is erased from the build.
const TYPE_ONLY_PEERS = ['@mono-agent/extract', '@mono-agent/search-providers'];

const sourceDirectory = fileURLToPath(new URL('.', import.meta.url));

/** Every module of the build: the `.ts` files under src/, tests excepted. */
function buildModules(directory: string): string[] {
  return readdirSync(directory, { withFileTypes: true }).flatMap((entry) => {
    const path = join(directory, entry.name);
    if (entry.isDirectory()) return buildModules(path);
    return entry.name.endsWith('.ts') && !entry.name.endsWith('.test.ts') ? [path] : [];
  });
}

/** The import and export statements of `source` that name `specifier`, each as one line. */
function statementsFrom(source: string, specifier: string): string[] {
  const quoted = specifier.replace(/[/.]/g, (character) => `\\${character}`);
  const pattern = new RegExp(
    `(?:^|\\n)\\s*((?:import|export)\\b[^;]*?from\\s*'${quoted}'|import\\s*\\(\\s*'${quoted}')`,
    'g',
  );
  return [...source.matchAll(pattern)].map((match) => match[1]!.replace(/\s+/g, ' '));
}

describe('the optional peers extract and search-providers', () => {
  it('are imported for types only, so the build never loads them', () => {
    const found: string[] = [];
    const valueImports: string[] = [];
    for (const file of buildModules(sourceDirectory)) {
      const source = readFileSync(file, 'utf8');
      for (const peer of TYPE_ONLY_PEERS) {
        for (const statement of statementsFrom(source, peer)) {
          const line = `${relative(sourceDirectory, file)}: ${statement}`;
          found.push(line);
          if (!/^(?:import|export) type\b/.test(statement)) valueImports.push(line);
        }
      }
    }
    // The check sees the imports it is about (it can fail).
    expect(found.length).toBeGreaterThan(0);
    expect(valueImports).toEqual([]);
  });
});
