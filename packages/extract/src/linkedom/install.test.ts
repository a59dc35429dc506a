// The canary of the linkedom speed-ups: each one probes linkedom before it changes anything and
// stays out when linkedom no longer works as it expects, which keeps output right but loses the
// speed without a sound. These tests fail instead, on the linkedom build the package pins.
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import * as cssSelect from 'css-select';
import { describe, expect, it } from 'vitest';
import { loadLinkedom } from '../lazy-modules.js';
import { inWorker } from './__fixtures__/elsewhere.js';
import type { speedupReport } from './__fixtures__/speedup-report.js';
import type { SelectorCompiler } from './compiled-queries.js';
import { installLinkedomSpeedups, LINKEDOM_SPEEDUPS, type LinkedomModule } from './install.js';

const require = createRequire(import.meta.url);
const pinned = (
  JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as {
    dependencies: Record<string, string>;
  }
).dependencies.linkedom;

const everyOne = (state: string) => Object.fromEntries(LINKEDOM_SPEEDUPS.map((name) => [name, state]));

describe('the linkedom speed-ups', { timeout: 90_000 }, () => {
  it('are tested on the linkedom the package pins', () => {
    const installed = require('linkedom/package.json') as { version: string };
    expect(installed.version).toBe(pinned);
  });

  it('all install in a worker thread, as the extraction pool runs extraction', async () => {
    const report = await inWorker<Awaited<ReturnType<typeof speedupReport>>>(
      new URL('./__fixtures__/speedup-report.ts', import.meta.url),
      'speedupReport',
    );
    expect(report).toEqual(everyOne('installed'));
  });

  it('all install in the main thread but the listener maps, which stay linkedom’s', async () => {
    const linkedom = (await loadLinkedom()) as unknown as LinkedomModule;
    expect(installLinkedomSpeedups(linkedom, cssSelect as SelectorCompiler)).toEqual({
      ...everyOne('installed'),
      listenerMaps: 'main-thread',
    });
  });

  it('leave out those asked to, and change a module once', async () => {
    // A module of linkedom's own of which nothing was installed yet: its package entry.
    const linkedom = (await import('linkedom')) as unknown as LinkedomModule;
    const prototype = linkedom.Element.prototype as Record<string, unknown>;
    const matches = prototype.matches;
    const className = Object.getOwnPropertyDescriptor(prototype, 'className');
    const report = installLinkedomSpeedups(linkedom, cssSelect as SelectorCompiler, {
      skip: ['selectorCache', 'subtreeIndexes', 'listenerMaps'],
    });
    expect(report).toEqual({ ...everyOne('skipped'), elementAccessors: 'installed' });
    expect(prototype.matches).toBe(matches);
    expect(Object.getOwnPropertyDescriptor(prototype, 'className')).not.toEqual(className);
    expect(installLinkedomSpeedups(linkedom, cssSelect as SelectorCompiler)).toBe(report);
    expect(prototype.matches).toBe(matches);
  });
});
