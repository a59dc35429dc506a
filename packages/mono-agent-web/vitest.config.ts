import { packageTestConfig } from '@mono-agent/vitest-config';
import { defineConfig } from 'vitest/config';

// The MCP end-to-end test searches a real searx, started by the same setup the providers use.
export default defineConfig(
  packageTestConfig({
    name: 'mono-agent-web',
    test: { globalSetup: ['../search-providers/test/searx-global-setup.ts'] },
  }),
);
