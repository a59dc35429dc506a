import { libraryPreset } from '@mono-agent/tsup-config';
import { defineConfig } from 'tsup';

// The library entry is built like every package (siblings stay imports). The CLI entry is bundled
// with the siblings it reaches through the search and configuration paths, built from their sources
// so that tree shaking keeps only what a command uses: an agent that runs the bin once per tool call
// then resolves and evaluates a few files instead of a few dozen. Kept external: the MCP SDK and the
// siblings that resolve their own third-party dependencies at run time (extract and its parsers,
// net and undici, keyless-html and htmlparser2), each a dependency of this package, plus every
// other third-party package except valibot (bundled with tool-adapters). The Redis client, which
// host-coordination loads only for `coordination: redis`, stays external too (it is CommonJS and
// requires Node built-ins at run time), so it is a dependency of this package as well.
const BUNDLED_WITH_CLI = [
  '@mono-agent/budget-policy',
  '@mono-agent/codex-app-server-client',
  '@mono-agent/host-coordination',
  '@mono-agent/search-providers',
  '@mono-agent/tool-adapters',
  'valibot',
  '@valibot/to-json-schema',
];

export default defineConfig([
  // Each build cleans only its own files: the library everything but bin/, the CLI bin/.
  libraryPreset({ clean: ['!bin/**'] }),
  libraryPreset({
    entry: { cli: 'src/cli.ts' },
    outDir: 'dist/bin',
    // The CommonJS entry below is built into the same folder.
    clean: ['!cli.cjs*'],
    dts: false,
    noExternal: BUNDLED_WITH_CLI,
    // The agent SDKs are the library's optional peers; the bin never loads them.
    external: ['ai', '@mariozechner/pi-agent-core', '@mariozechner/pi-ai'],
    esbuildOptions(options) {
      options.conditions = ['@mono-agent/source'];
    },
  }),
  // The bin's entry: CommonJS, so `--help` and `--version` are answered before Node's ES module loader
  // starts; every other command loads the bundled ES module CLI beside it.
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
