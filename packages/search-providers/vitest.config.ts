import { packageTestConfig } from '@mono-agent/vitest-config';
import { defineConfig } from 'vitest/config';

export default defineConfig(
  packageTestConfig({
    name: 'search-providers',
    test: { globalSetup: ['@mono-agent/test-services/searx-global-setup'] },
  }),
);
