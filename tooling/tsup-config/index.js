/**
 * The one build every published package uses: ESM for Node 20, declaration files, source maps.
 * Declarations are built without the `@mono-agent/source` condition, so a published `.d.ts`
 * names its siblings by package and never inlines their sources.
 *
 * @param {import('tsup').Options} [overrides]
 * @returns {import('tsup').Options}
 */
export function libraryPreset(overrides = {}) {
  return {
    entry: ['src/index.ts'],
    format: ['esm'],
    platform: 'node',
    target: 'node20',
    // The package's own tsconfig, minus the source condition: declarations then refer to siblings
    // through their published types instead of pulling in their sources.
    dts: { compilerOptions: { customConditions: [] } },
    sourcemap: true,
    clean: true,
    splitting: true,
    ...overrides,
  };
}
