import { libraryPreset } from '@mono-agent/tsup-config';
import { defineConfig } from 'tsup';

// The extraction worker is an entry of its own: the pool starts it by file, next to the bundle.
// Named entries keep it at dist/extraction-worker.js though its source sits in src/pool/.
export default defineConfig(
  libraryPreset({ entry: { index: 'src/index.ts', 'extraction-worker': 'src/pool/extraction-worker.ts' } }),
);
