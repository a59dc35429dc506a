import { packageTestConfig } from '@mono-agent/vitest-config';
import { defineConfig } from 'vitest/config';

// `pnpm test:install`: packs, installs from the npm registry into a fresh project, then drives it.
export default defineConfig(
  packageTestConfig({
    name: 'install',
    test: {
      include: ['src/**/*.install.ts'],
      // One npm install per project is the slow part, so the global setup packs and installs once
      // for every test file; everything after it runs in seconds.
      globalSetup: ['./src/install-global-setup.ts'],
      hookTimeout: 600_000,
      testTimeout: 120_000,
    },
  }),
);
