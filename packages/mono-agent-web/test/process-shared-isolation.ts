// Runtimes of one process share the keyless bounds, cooldowns and the search cache. Tests of this
// package build many runtimes in one worker against the same loopback fixtures, so each test starts
// from fresh process-wide state; runtimes built within one test still share it.
import { beforeEach } from 'vitest';
import { resetProcessSharedState } from '../src/runtime/process-shared.js';

beforeEach(() => {
  resetProcessSharedState();
});
