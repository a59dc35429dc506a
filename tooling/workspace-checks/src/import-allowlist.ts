// What the import checks tolerate today, and nothing more. Both lists may only shrink: the checks
// fail on any cycle or reach into a sibling that is not listed here, and also on an entry that no
// longer matches what the code does, so a fixed one is struck off and cannot come back unnoticed.
// Do not add entries; remove the import instead.

/**
 * Import cycles between modules (repository paths; type imports count, since they tie the files'
 * design together even when erased from the build).
 */
export const ALLOWED_IMPORT_CYCLES: readonly (readonly string[])[] = [];

/** Import cycles between packages (npm names). */
export const ALLOWED_PACKAGE_CYCLES: readonly (readonly string[])[] = [];

/**
 * Imports (file, specifier as written) that reach a sibling's `src/`, `test/` or `__fixtures__/` by
 * path. Each shares a test helper or a parser that the sibling does not export; the way out is a
 * shared helper in `tooling/` or an export of the sibling, not a path.
 */
export const ALLOWED_SIBLING_INTERNAL_IMPORTS: readonly { file: string; specifier: string }[] = [
  // Test helpers of search-providers (a real searx, the pinned codex binary) used by the web package.
  {
    file: 'packages/mono-agent-web/src/mcp-end-to-end.test.ts',
    specifier: '../../search-providers/test/searx-global-setup.js',
  },
  {
    file: 'packages/mono-agent-web/src/runtime/web-runtime.test.ts',
    specifier: '../../../search-providers/test/codex-binary.js',
  },
  {
    file: 'packages/mono-agent-web/src/validate/validate-web-config.test.ts',
    specifier: '../../../search-providers/test/codex-binary.js',
  },
  {
    file: 'packages/mono-agent-web/test/contract/web-search-engine-health.contract.test.ts',
    specifier: '../../../search-providers/test/searx-global-setup.js',
  },
  {
    file: 'packages/mono-agent-web/test/contract/web-search-sandbox.contract.test.ts',
    specifier: '../../../search-providers/test/searx-global-setup.js',
  },
  // host-coordination's helper that starts a real redis-server.
  {
    file: 'packages/mono-agent-web/test/contract/coordination-web-control.contract.test.ts',
    specifier: '../../../host-coordination/test/redis-server.js',
  },
  {
    file: 'tooling/install-check/src/packed-packages.install.ts',
    specifier: '../../../packages/host-coordination/test/redis-server.js',
  },
  // tool-adapters' list of disguised frame markers, replayed as hostile pages.
  {
    file: 'packages/mono-agent-web/test/contract/support/hostile-pages.ts',
    specifier: '../../../../tool-adapters/test/marker-variants.js',
  },
  // The Codex client's parsers, fuzzed beside the search providers' own.
  {
    file: 'packages/search-providers/bench/fuzz-parsers.bench.ts',
    specifier: '../../codex-app-server-client/src/json-rpc-connection.js',
  },
  {
    file: 'packages/search-providers/bench/fuzz-parsers.bench.ts',
    specifier: '../../codex-app-server-client/src/line-decoder.js',
  },
  {
    file: 'packages/search-providers/bench/fuzz-parsers.bench.ts',
    specifier: '../../codex-app-server-client/src/rate-limit-quota.js',
  },
  {
    file: 'packages/search-providers/bench/fuzz-parsers.bench.ts',
    specifier: '../../codex-app-server-client/src/search-results.js',
  },
  {
    file: 'packages/search-providers/bench/fuzz-parsers.bench.ts',
    specifier: '../../codex-app-server-client/src/server-request-refusal.js',
  },
  // Proves a sibling imported by name is the very module of its source (one class, not two copies).
  {
    file: 'tooling/workspace-checks/src/source-resolution.test.ts',
    specifier: '../../../packages/budget-policy/src/index.js',
  },
];
