import { packageTestConfig } from '@mono-agent/vitest-config';
import { defineConfig } from 'vitest/config';

// The quick checks only (every README block is marked and parses); the install test itself needs
// the npm registry and the built packages, and runs with vitest.install.config.ts.
export default defineConfig(packageTestConfig({ name: 'install-check' }));
