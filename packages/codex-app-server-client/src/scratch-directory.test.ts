import { statSync } from 'node:fs';
import { readdir } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { describe, expect, it } from 'vitest';
import { createScratchDirectory } from './scratch-directory.js';

describe('createScratchDirectory', () => {
  it('makes a fresh, empty directory only its owner can enter, and removes it', async () => {
    const first = await createScratchDirectory();
    const second = await createScratchDirectory();
    expect(first.path).not.toBe(second.path);
    expect(statSync(first.path).mode & 0o777).toBe(0o700);
    expect(await readdir(first.path)).toEqual([]);
    await first.remove();
    await second.remove();
    expect(() => statSync(first.path)).toThrow();
    await expect(first.remove()).resolves.toBeUndefined();
    expect(first.path.startsWith(await import('node:fs/promises').then((fs) => fs.realpath(tmpdir())))).toBe(
      true,
    );
  });
});
