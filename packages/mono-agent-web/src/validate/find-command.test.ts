import { chmodSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { delimiter, join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { findCommand } from './find-command.js';

const root = mkdtempSync(join(tmpdir(), 'find-command-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

function file(directory: string, name: string, mode: number) {
  mkdirSync(join(root, directory), { recursive: true });
  const path = join(root, directory, name);
  writeFileSync(path, '#!/bin/sh\n');
  chmodSync(path, mode);
  return path;
}

describe('findCommand', () => {
  it('takes the first executable of that name along the PATH, skipping files that cannot run', () => {
    file('a', 'tool', 0o644);
    const second = file('b', 'tool', 0o755);
    file('c', 'tool', 0o755);
    const path = ['', join(root, 'missing'), join(root, 'a'), join(root, 'b'), join(root, 'c')].join(
      delimiter,
    );
    expect(findCommand('tool', path)).toBe(second);
    expect(findCommand('other', path)).toBeUndefined();
    expect(findCommand('tool', undefined)).toBeUndefined();
  });

  it('checks a command given as a path as it is, and never a directory', () => {
    const path = file('d', 'agent', 0o755);
    expect(findCommand(path, '')).toBe(path);
    expect(findCommand(join(root, 'd'), '')).toBeUndefined();
    expect(findCommand('', join(root, 'd'))).toBeUndefined();
  });
});
