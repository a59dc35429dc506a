import { libraryPreset } from '@mono-agent/tsup-config';
import { defineConfig } from 'tsup';

// `internals` is its own entry, so the readers below the client can be fuzzed by name without being
// part of the main entry.
export default defineConfig(libraryPreset({ entry: ['src/index.ts', 'src/internals.ts'] }));
