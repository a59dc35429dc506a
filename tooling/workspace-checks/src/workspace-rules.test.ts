import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { sourceManifest, type ThrowawayWorkspace, writeWorkspace } from './throwaway-workspace.js';
import { repositoryRoot } from './workspace-packages.js';
import { checkWorkspace, DEFAULT_ALLOWLISTS } from './workspace-rules.js';

const noAllowances = { moduleCycles: [], packageCycles: [], siblingInternalImports: [] };
let workspace: ThrowawayWorkspace | undefined;
afterEach(() => workspace?.remove());

// A Node process that loads tsx and TypeScript takes seconds on a busy machine.
const SCRIPT_TEST_TIMEOUT_MS = 60_000;

// The script `pnpm lint` runs, started as the lint script starts it.
function runLintScript(root: string) {
  return spawnSync(
    process.execPath,
    ['--import', 'tsx', join(repositoryRoot, 'tooling/workspace-checks/src/run-workspace-rules.ts'), root],
    { cwd: join(repositoryRoot, 'tooling/workspace-checks'), encoding: 'utf8' },
  );
}

describe('the workspace rules', () => {
  it(
    'hold for this repository, with only the allowlisted findings',
    () => {
      expect(checkWorkspace(repositoryRoot, DEFAULT_ALLOWLISTS).problems).toEqual([]);
    },
    SCRIPT_TEST_TIMEOUT_MS,
  );

  it(
    'fail the lint script on a bad import, a cycle and a broken link, naming each',
    () => {
      workspace = writeWorkspace({
        'README.md': 'See [the guide](docs/guide.md).\n',
        'packages/alpha/package.json': sourceManifest('@x/alpha'),
        'packages/alpha/src/index.ts': "export { a } from './a.js';\n",
        'packages/alpha/src/a.ts': "import { b } from './b.js';\nexport const a = () => b;\n",
        'packages/alpha/src/b.ts': "import { a } from './a.js';\nexport const b = () => a;\n",
        'packages/alpha/test/helper.ts': 'export const helper = 1;\n',
        'packages/beta/package.json': sourceManifest('@x/beta'),
        'packages/beta/src/index.ts': "export { helper } from '../../alpha/test/helper.js';\n",
      });
      expect(checkWorkspace(workspace.root, noAllowances).problems).toHaveLength(3);
      const run = runLintScript(workspace.root);
      expect(run.status).toBe(1);
      expect(run.stderr).toContain('README.md:1: link docs/guide.md: no such file');
      expect(run.stderr).toContain(
        'packages/beta/src/index.ts imports ../../alpha/test/helper.js, inside @x/alpha',
      );
      expect(run.stderr).toContain(
        'module import cycle: packages/alpha/src/a.ts <-> packages/alpha/src/b.ts',
      );
    },
    SCRIPT_TEST_TIMEOUT_MS,
  );

  it(
    'pass the lint script on a clean workspace',
    () => {
      workspace = writeWorkspace({
        'README.md': 'See [the guide](docs/guide.md).\n',
        'docs/guide.md': '# Guide\n',
        'packages/alpha/package.json': sourceManifest('@x/alpha'),
        'packages/alpha/src/index.ts': "export { a } from './a.js';\n",
        'packages/alpha/src/a.ts': 'export const a = 1;\n',
        'packages/beta/package.json': sourceManifest('@x/beta'),
        'packages/beta/src/index.ts': "export { a } from '@x/alpha';\n",
      });
      const run = runLintScript(workspace.root);
      expect(run.stderr).toBe('');
      expect(run.status).toBe(0);
    },
    SCRIPT_TEST_TIMEOUT_MS,
  );

  it('ask for an allowlist entry to be struck off once the code no longer needs it', () => {
    workspace = writeWorkspace({
      'packages/alpha/package.json': sourceManifest('@x/alpha'),
      'packages/alpha/src/index.ts': 'export const a = 1;\n',
    });
    const problems = checkWorkspace(workspace.root, {
      moduleCycles: [['packages/alpha/src/index.ts', 'packages/alpha/src/other.ts']],
      packageCycles: [],
      siblingInternalImports: [{ file: 'packages/alpha/src/index.ts', specifier: '../../beta/src/x.js' }],
    }).problems;
    expect(problems).toEqual([
      'packages/alpha/src/index.ts no longer imports ../../beta/src/x.js: remove it from ALLOWED_SIBLING_INTERNAL_IMPORTS',
      'ALLOWED_IMPORT_CYCLES lists packages/alpha/src/index.ts, packages/alpha/src/other.ts, which is no longer one cycle: remove the entry',
    ]);
  });

  it('are what the lint script of this package runs', () => {
    const manifest = JSON.parse(
      readFileSync(join(repositoryRoot, 'tooling/workspace-checks/package.json'), 'utf8'),
    );
    expect(manifest.scripts.lint).toBe('node --import tsx src/run-workspace-rules.ts');
  });
});
