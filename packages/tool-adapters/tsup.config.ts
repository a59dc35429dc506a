import { libraryPreset } from '@mono-agent/tsup-config';
import { defineConfig } from 'tsup';

// `marker-variants` is its own entry: the tests of a package that relays these frames import the
// disguised-marker generator without the main entry loading it.
export default defineConfig(libraryPreset({ entry: ['src/index.ts', 'src/marker-variants.ts'] }));
