import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { listPublishedPackages } from './workspace-packages.js';

// Tests and type checks must run against siblings' sources, never against a stale or missing build.
describe('sibling imports in tests', () => {
  it.each(listPublishedPackages().map((entry) => [entry.manifest.name, entry] as const))(
    '%s resolves to its src/',
    async (name, entry) => {
      const resolved = fileURLToPath(import.meta.resolve(name));
      expect(resolved).toBe(join(entry.directory, 'src/index.ts'));
      await expect(import(/* @vite-ignore */ name)).resolves.toBeTypeOf('object');
    },
  );

  it('runs the very module of the sibling source, not a copy from its build', async () => {
    const budgetPolicy = listPublishedPackages().find((entry) => entry.folder === 'budget-policy')!;
    const exportsField = budgetPolicy.manifest.exports as Record<string, Record<string, string>>;
    const source = join(budgetPolicy.directory, exportsField['.']!['@mono-agent/source']!);
    const byName = await import('@mono-agent/budget-policy');
    // The file the manifest's source condition names, imported by its path.
    const bySource = await import(/* @vite-ignore */ source);
    // One module instance means one class: a build in dist/ would be a second, distinct one.
    expect(byName.WebToolError).toBeTypeOf('function');
    expect(byName.WebToolError).toBe(bySource.WebToolError);
  });
});
