import { defaultServerConditions } from 'vite';

/** The export condition that points every workspace package at its `src/index.ts`. */
export const SOURCE_CONDITION = '@mono-agent/source';

const conditions = [SOURCE_CONDITION, ...defaultServerConditions];

/**
 * The vitest config of one package: tests beside the code, sibling packages resolved to source.
 *
 * @param {{ name: string, test?: import('vitest/node').InlineConfig }} options
 * @returns {import('vitest/config').UserConfig}
 */
export function packageTestConfig({ name, test = {} }) {
  return {
    resolve: { conditions },
    ssr: { resolve: { conditions, externalConditions: [SOURCE_CONDITION] } },
    test: {
      name,
      environment: 'node',
      include: ['src/**/*.test.ts', 'test/**/*.test.ts'],
      passWithNoTests: true,
      testTimeout: 20_000,
      hookTimeout: 30_000,
      ...test,
    },
  };
}
