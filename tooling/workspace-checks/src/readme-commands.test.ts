import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { repositoryRoot } from './workspace-packages.js';

const readCommand = (kind: string) =>
  execFileSync(
    process.execPath,
    [join(repositoryRoot, 'tooling/workspace-checks/read-readme-command.mjs'), kind],
    {
      encoding: 'utf8',
    },
  ).trim();

describe('README commands', () => {
  const manifest = JSON.parse(readFileSync(join(repositoryRoot, 'package.json'), 'utf8'));
  const pnpmVersion = String(manifest.packageManager).split('@')[1];

  it.each(['run', 'test'])('the %s command installs the pinned pnpm and runs a root script', (kind) => {
    const command = readCommand(kind);
    expect(command.startsWith(`npm install --global pnpm@${pnpmVersion} && pnpm install && pnpm `)).toBe(
      true,
    );
    const script = command
      .split(' && ')
      .at(-1)!
      .replace(/^pnpm /, '');
    expect(manifest.scripts).toHaveProperty(script);
  });

  it('is what CI runs', () => {
    const ci = readFileSync(join(repositoryRoot, '.ci/run'), 'utf8');
    expect(ci).toContain('read-readme-command.mjs test');
  });

  it('fails loudly for a command kind the README does not have', () => {
    expect(() => readCommand('deploy')).toThrow(/no command marked/);
  });
});
