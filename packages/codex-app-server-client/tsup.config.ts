import { libraryPreset } from '@mono-agent/tsup-config';
import { defineConfig } from 'tsup';

export default defineConfig(libraryPreset());
