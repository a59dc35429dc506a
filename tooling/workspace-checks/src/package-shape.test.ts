import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { listPublishedPackages } from './workspace-packages.js';

const packages = listPublishedPackages();

// The npm names the architecture assigns to each folder.
const expectedNames: Record<string, string> = {
  'budget-policy': '@mono-agent/budget-policy',
  'host-coordination': '@mono-agent/host-coordination',
  net: '@mono-agent/net',
  extract: '@mono-agent/extract',
  'keyless-html': '@mono-agent/keyless-html',
  'codex-app-server-client': '@mono-agent/codex-app-server-client',
  'search-providers': '@mono-agent/search-providers',
  'tool-adapters': '@mono-agent/tool-adapters',
  'mono-agent-web': '@mono-agent/web',
};

describe('published packages', () => {
  it('are exactly the nine of the architecture', () => {
    expect(Object.fromEntries(packages.map((entry) => [entry.folder, entry.manifest.name]))).toEqual(
      expectedNames,
    );
  });

  describe.each(packages.map((entry) => [entry.folder, entry] as const))('%s', (_folder, entry) => {
    const { manifest, directory } = entry;

    it('is an ESM package without side effects for Node 20.18.1+', () => {
      expect(manifest.type).toBe('module');
      expect(manifest.sideEffects).toBe(false);
      expect(manifest.license).toBe('MIT');
      expect(manifest.private).toBeUndefined();
      expect(manifest.engines).toEqual({ node: '>=20.18.1' });
    });

    it('exports source first, then types, then the build, plus its package.json', () => {
      const exportsField = manifest.exports as Record<string, Record<string, string> | string>;
      expect(exportsField['./package.json']).toBe('./package.json');
      for (const [subpath, target] of Object.entries(exportsField)) {
        if (subpath === './package.json') continue;
        expect(typeof target).toBe('object');
        const conditions = Object.keys(target as Record<string, string>);
        expect(conditions).toEqual(['@mono-agent/source', 'types', 'default']);
        const source = (target as Record<string, string>)['@mono-agent/source']!;
        expect(source).toMatch(/^\.\/src\/.+\.ts$/);
        expect(existsSync(join(directory, source))).toBe(true);
        expect((target as Record<string, string>).types).toMatch(/^\.\/dist\/.+\.d\.ts$/);
      }
    });

    it('publishes no tests or fixtures', () => {
      const files = manifest.files as string[];
      expect(files).toContain('dist');
      expect(files).toContain('!src/**/*.test.ts');
      expect(files).toContain('!src/**/__fixtures__');
    });

    it('has a README that states its purpose and an index that only re-exports', () => {
      const readme = readFileSync(join(directory, 'README.md'), 'utf8');
      expect(readme.startsWith(`# ${manifest.name}`)).toBe(true);
      expect(readme.length).toBeGreaterThan(200);
      const index = readFileSync(join(directory, 'src/index.ts'), 'utf8');
      const statements = index
        .split(/;\s*\n/)
        .map((statement) => statement.replace(/\/\/.*$/gm, '').trim())
        .filter((statement) => statement.length > 0);
      for (const statement of statements) expect(statement).toMatch(/^export\s/);
      for (const statement of statements)
        expect(statement).toMatch(/\bfrom\s+'\.\/[^']+\.js'$|^export \{\}$/);
    });

    it('depends only on packages below it', () => {
      const allowed = allowedDependencies[manifest.name] ?? [];
      const dependencies = Object.keys((manifest.dependencies as Record<string, string>) ?? {});
      const siblings = dependencies.filter((name) => name.startsWith('@mono-agent/'));
      for (const sibling of siblings) expect(allowed).toContain(sibling);
    });
  });
});

// The arrows of the package map: a package may depend on these siblings only.
const allowedDependencies: Record<string, string[]> = {
  '@mono-agent/budget-policy': [],
  '@mono-agent/host-coordination': ['@mono-agent/budget-policy'],
  '@mono-agent/net': ['@mono-agent/budget-policy'],
  '@mono-agent/extract': ['@mono-agent/net', '@mono-agent/budget-policy'],
  '@mono-agent/keyless-html': [],
  '@mono-agent/codex-app-server-client': ['@mono-agent/budget-policy'],
  '@mono-agent/search-providers': [
    '@mono-agent/budget-policy',
    '@mono-agent/host-coordination',
    '@mono-agent/net',
    '@mono-agent/keyless-html',
    '@mono-agent/codex-app-server-client',
  ],
  '@mono-agent/tool-adapters': [
    '@mono-agent/budget-policy',
    '@mono-agent/extract',
    '@mono-agent/search-providers',
  ],
  '@mono-agent/web': Object.values(expectedNames).filter((name) => name !== '@mono-agent/web'),
};
