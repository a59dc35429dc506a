import { packageTestConfig } from '@mono-agent/vitest-config';
import { defineConfig } from 'vitest/config';

// The MCP end-to-end test searches a real searx, started by the same setup the providers use; the
// contract suite (test/contract) drives the built bin, so its setup brings dist up to date first.
export default defineConfig(
  packageTestConfig({
    name: 'mono-agent-web',
    test: {
      // Contract tests start the built bin several times per test; on a busy machine each start
      // can take seconds, so they get more room than the unit tests' default.
      testTimeout: 90_000,
      setupFiles: ['./test/process-shared-isolation.ts'],
      globalSetup: [
        '@mono-agent/test-services/searx-global-setup',
        './test/contract/support/ensure-built.ts',
      ],
    },
  }),
);
