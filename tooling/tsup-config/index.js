import { createRequire } from 'node:module';

const require = createRequire(import.meta.url);

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
    dts: true,
    sourcemap: true,
    clean: true,
    splitting: true,
    tsconfig: require.resolve('@mono-agent/tsconfig/build.json'),
    ...overrides,
  };
}
