/**
 * Prints one plain closing line, `tests: N passed, N failed, N skipped`, after vitest's own summary,
 * so a log reader that knows no vitest output can still tell how the run went.
 *
 * @implements {import('vitest/node').Reporter}
 */
export class SummaryLineReporter {
  /** @param {ReadonlyArray<import('vitest/node').TestModule>} testModules */
  onTestRunEnd(testModules, unhandledErrors = []) {
    let passed = 0;
    let failed = 0;
    let skipped = 0;
    for (const testModule of testModules) {
      // A file that failed to load has no test cases but must still count as a failure.
      if (testModule.state() === 'failed' && [...testModule.children.allTests()].length === 0) {
        failed += 1;
      }
      for (const testCase of testModule.children.allTests()) {
        const state = testCase.result().state;
        if (state === 'passed') passed += 1;
        else if (state === 'failed') failed += 1;
        else skipped += 1;
      }
    }
    failed += unhandledErrors.length;
    process.stdout.write(`\ntests: ${passed} passed, ${failed} failed, ${skipped} skipped\n`);
  }
}
