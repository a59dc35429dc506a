import { expect } from 'vitest';
import { EXIT_CODES } from '../../../src/exit-codes.js';
import { jsonOf, runBuiltCli } from './built-cli.js';
import { LOCALHOST_ENV, useFixtureSession } from './fixture-session.js';

interface Ok {
  slice: { content: string };
}

/** How a test file reads extract's golden pages from the fixture web. */
export interface GoldenPages {
  /** Every `kept` text is in the page's content, through the runtime and the built CLI, and no `left` text is. */
  expectContents(path: string, kept: readonly string[], left: readonly string[]): Promise<void>;
}

/** A fixture session named `name` (see {@link useFixtureSession}) and the reads of its golden pages. */
export function useGoldenPages(name: string): GoldenPages {
  const fixture = useFixtureSession(name);
  // A fixture page's content as WebFetch gives it through the runtime and through the built CLI.
  const contentsOf = async (path: string): Promise<string[]> => {
    const runtime = await fixture.session.run.webFetch({ url: fixture.web.url(path) });
    const run = await runBuiltCli(['fetch', fixture.web.url(path), '--json'], {
      home: fixture.home,
      env: LOCALHOST_ENV,
    });
    expect(run.code).toBe(EXIT_CODES.success);
    return [(runtime.data as Ok).slice.content, jsonOf<Ok>(run).slice.content];
  };
  const expectContents = async (path: string, kept: readonly string[], left: readonly string[]) => {
    for (const content of await contentsOf(path)) {
      for (const text of kept) expect(content).toContain(text);
      for (const text of left) expect(content).not.toContain(text);
    }
  };
  return { expectContents };
}
