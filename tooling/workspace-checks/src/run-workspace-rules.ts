// `pnpm lint` runs this: it prints what the workspace rules tolerate and fails on any problem.
// An optional argument names another repository root (the tests point it at a throw-away workspace);
// the allowlists name this repository's files, so another root is checked without them.
import { resolve } from 'node:path';
import { repositoryRoot } from './workspace-packages.js';
import { checkWorkspace, DEFAULT_ALLOWLISTS } from './workspace-rules.js';

const other = process.argv[2];
const report =
  other === undefined
    ? checkWorkspace(repositoryRoot, DEFAULT_ALLOWLISTS)
    : checkWorkspace(resolve(other), { moduleCycles: [], packageCycles: [], siblingInternalImports: [] });
for (const line of report.tolerated) console.log(`tolerated (shrink-only allowlist): ${line}`);
for (const line of report.problems) console.error(`workspace rule broken: ${line}`);
console.log(
  `workspace rules: ${report.problems.length} problem(s), ${report.tolerated.length} tolerated finding(s)`,
);
process.exitCode = report.problems.length === 0 ? 0 : 1;
