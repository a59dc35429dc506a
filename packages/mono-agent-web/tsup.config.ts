import { libraryPreset } from '@mono-agent/tsup-config';
import { defineConfig } from 'tsup';

// The library entry is built like every package (siblings stay imports). The CLI is one CommonJS
// bundle of the siblings it reaches, built from their sources so that tree shaking keeps only what a
// command uses: an agent that runs the bin once per tool call then reads and compiles one file, which
// starts faster than the same code as a graph of ES modules. Kept external, and loaded only by the
// commands that need them: the extraction package (an ES module graph with its parsers, loaded by
// `import()` at the first fetch), the MCP SDK, the agent SDKs and the Redis client. The third-party
// packages the bundled siblings require at run time (ipaddr.js, undici, htmlparser2, domutils) are
// dependencies of this package, so that they resolve from the bundle's folder.
const BUNDLED_WITH_CLI = [
  '@mono-agent/budget-policy',
  '@mono-agent/codex-app-server-client',
  '@mono-agent/host-coordination',
  '@mono-agent/keyless-html',
  '@mono-agent/net',
  '@mono-agent/search-providers',
  '@mono-agent/tool-adapters',
  'valibot',
  '@valibot/to-json-schema',
];

export default defineConfig([
  // Each build cleans only its own files: the library everything but bin/, the CLI bin/.
  libraryPreset({ clean: ['!bin/**'] }),
  libraryPreset({
    entry: { 'cli-main': 'src/cli-main.ts' },
    outDir: 'dist/bin',
    format: ['cjs'],
    splitting: false,
    // `import.meta.url` of the bundled siblings (their run-time requires) becomes this file's URL.
    shims: true,
    // The entry below is built into the same folder.
    clean: ['!cli.cjs*'],
    dts: false,
    noExternal: BUNDLED_WITH_CLI,
    external: ['ai', '@mariozechner/pi-agent-core', '@mariozechner/pi-ai'],
    esbuildOptions(options) {
      options.conditions = ['@mono-agent/source'];
    },
  }),
  // The bin's entry, so small that `--help` and `--version` are answered before the bundle above is
  // read; every other command requires the bundle beside it.
  libraryPreset({
    entry: { cli: 'src/cli-entry.ts' },
    outDir: 'dist/bin',
    format: ['cjs'],
    splitting: false,
    clean: false,
    dts: false,
    // Node before 20.19 cannot require() an ES module, so every sibling it reaches is bundled.
    noExternal: ['@mono-agent/budget-policy', '@mono-agent/search-providers'],
    esbuildOptions(options) {
      options.conditions = ['@mono-agent/source'];
    },
  }),
]);
