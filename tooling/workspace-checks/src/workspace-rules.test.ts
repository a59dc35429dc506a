import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { type ThrowawayWorkspace, writeWorkspace } from './throwaway-workspace.js';
import { repositoryRoot } from './workspace-packages.js';
import { checkWorkspace } from './workspace-rules.js';

let workspace: ThrowawayWorkspace | undefined;
afterEach(() => workspace?.remove());

// The script `pnpm lint` runs, started as the lint script starts it.
function runLintScript(root: string) {
  return spawnSync(
    process.execPath,
    ['--import', 'tsx', join(repositoryRoot, 'tooling/workspace-checks/src/run-workspace-rules.ts'), root],
    { cwd: join(repositoryRoot, 'tooling/workspace-checks'), encoding: 'utf8' },
  );
}

describe('the workspace rules', () => {
  it('hold for this repository', () => {
    expect(checkWorkspace(repositoryRoot).problems).toEqual([]);
  });

  it('fail the lint script on a broken link, naming it', () => {
    workspace = writeWorkspace({ 'README.md': 'See [the guide](docs/guide.md).\n' });
    const run = runLintScript(workspace.root);
    expect(run.status).toBe(1);
    expect(run.stderr).toContain('README.md:1: link docs/guide.md: no such file');
  });

  it('pass the lint script on a clean workspace', () => {
    workspace = writeWorkspace({
      'README.md': 'See [the guide](docs/guide.md).\n',
      'docs/guide.md': '# Guide\n',
    });
    const run = runLintScript(workspace.root);
    expect(run.stderr).toBe('');
    expect(run.status).toBe(0);
  });

  it('are what the lint script of this package runs', () => {
    const manifest = JSON.parse(
      readFileSync(join(repositoryRoot, 'tooling/workspace-checks/package.json'), 'utf8'),
    );
    expect(manifest.scripts.lint).toBe('node --import tsx src/run-workspace-rules.ts');
  });
});
