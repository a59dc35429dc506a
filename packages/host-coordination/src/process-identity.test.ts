import { spawn } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { currentOwner, isOwnerAlive, readIncarnation } from './process-identity.js';

describe('process identity', () => {
  it('gives this process a stable incarnation that a lease can match', () => {
    const owner = currentOwner();
    expect(owner.pid).toBe(process.pid);
    expect(readIncarnation(process.pid)).toBe(owner.incarnation);
    expect(isOwnerAlive(owner)).toBe(true);
  });

  it('judges a live PID with another incarnation dead (a reused PID)', () => {
    const parent = { ...currentOwner(), pid: process.ppid };
    expect(isOwnerAlive({ ...parent, incarnation: readIncarnation(process.ppid) ?? 'missing' })).toBe(true);
    expect(isOwnerAlive({ ...parent, incarnation: 'another-boot:1' })).toBe(false);
    expect(isOwnerAlive({ ...currentOwner(), incarnation: 'another-boot:1' })).toBe(false);
  });

  it('judges an exited process dead and an owner on another host alive', async () => {
    const child = spawn(process.execPath, ['-e', '']);
    const pid = child.pid!;
    const incarnation = readIncarnation(pid) ?? 'gone';
    await new Promise((resolve) => child.on('exit', resolve));
    expect(isOwnerAlive({ ...currentOwner(), pid, incarnation })).toBe(false);
    expect(isOwnerAlive({ pid, host: 'elsewhere.example', incarnation })).toBe(true);
  });

  it('never treats a process-group PID as an owner', () => {
    expect(isOwnerAlive({ ...currentOwner(), pid: 0 })).toBe(false);
    expect(isOwnerAlive({ ...currentOwner(), pid: -1 })).toBe(false);
  });
});
