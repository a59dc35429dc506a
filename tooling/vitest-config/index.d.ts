import type { UserConfig } from 'vitest/config';
import type { InlineConfig } from 'vitest/node';

/** The export condition that points every workspace package at its `src/index.ts`. */
export declare const SOURCE_CONDITION: '@mono-agent/source';

/** The vitest config of one package: tests beside the code, sibling packages resolved to source. */
export declare function packageTestConfig(options: { name: string; test?: InlineConfig }): UserConfig;
