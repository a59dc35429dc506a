import { libraryPreset } from '@mono-agent/tsup-config';
import { defineConfig } from 'tsup';

// The extraction worker is an entry of its own: the pool starts it by file, next to the bundle.
export default defineConfig(libraryPreset({ entry: ['src/index.ts', 'src/extraction-worker.ts'] }));
