// What the linkedom loader installed, asked in a worker thread (see elsewhere.ts and install.test.ts).
import { loadLinkedom } from '../../lazy-modules.js';
import type { SelectorCompiler } from '../compiled-queries.js';
import { installLinkedomSpeedups, type LinkedomModule } from '../install.js';

/** The loader's report: a second install on its module changes nothing and answers the first. */
export async function speedupReport() {
  const linkedom = await loadLinkedom();
  const cssSelect = await import('css-select');
  return installLinkedomSpeedups(linkedom as unknown as LinkedomModule, cssSelect as SelectorCompiler);
}
