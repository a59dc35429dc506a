import { SummaryLineReporter } from '@mono-agent/vitest-config/summary-line-reporter';
import { defineConfig } from 'vitest/config';

// One vitest process for the whole repository: each package is a project with its own config,
// and the run ends with a single summary.
export default defineConfig({
  test: {
    projects: ['packages/*/vitest.config.ts', 'tooling/*/vitest.config.ts', 'apps/*/vitest.config.ts'],
    reporters: ['default', new SummaryLineReporter()],
    passWithNoTests: true,
  },
});
