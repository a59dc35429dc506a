import { packageTestConfig } from '@mono-agent/vitest-config';
import { defineConfig } from 'vitest/config';

export default defineConfig(packageTestConfig({ name: 'test-services' }));
