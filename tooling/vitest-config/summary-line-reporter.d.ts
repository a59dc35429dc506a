import type { Reporter } from 'vitest/node';

/** Prints `tests: N passed, N failed, N skipped` after vitest's own summary. */
export declare class SummaryLineReporter implements Reporter {}
