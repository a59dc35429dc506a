import { libraryPreset } from '@mono-agent/tsup-config';
import { defineConfig } from 'tsup';

// `ollama-origins` is its own entry so the configuration of `@mono-agent/web` can name the Ollama
// defaults without loading the providers.
export default defineConfig(libraryPreset({ entry: ['src/index.ts', 'src/ollama-origins.ts'] }));
