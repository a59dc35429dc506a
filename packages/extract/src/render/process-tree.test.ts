import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { bootTicksNow, findRenderProcesses, killRenderProcesses } from './process-tree.js';

const hasProc = existsSync('/proc/self/stat');

describe.skipIf(!hasProc)('render process sweep', () => {
  it('finds and kills a detached session by its session id, children included', async () => {
    const marker = `RENDER_SWEEP_TEST=${randomBytes(6).toString('hex')}`;
    // A session leader (detached: setsid) with a child of its own, like the agent-browser daemon and Chromium.
    const leader = spawn('/bin/sh', ['-c', 'sleep 60 & wait'], {
      detached: true,
      stdio: 'ignore',
      env: { PATH: '/usr/bin:/bin' },
    });
    const pid = leader.pid as number;
    await new Promise((resolve) => setTimeout(resolve, 200));
    const found = await findRenderProcesses({ sessionId: pid, environmentEntry: marker });
    expect(found).toContain(pid);
    expect(found.length).toBeGreaterThanOrEqual(2);
    expect(await killRenderProcesses({ sessionId: pid, environmentEntry: marker })).toBeGreaterThanOrEqual(2);
    expect(await findRenderProcesses({ sessionId: pid, environmentEntry: marker })).toEqual([]);
  });

  it('finds processes that left the session but inherited the render environment', async () => {
    const marker = `RENDER_SWEEP_TEST=${randomBytes(6).toString('hex')}`;
    const [name, value] = marker.split('=') as [string, string];
    const child = spawn('sleep', ['60'], {
      detached: true,
      stdio: 'ignore',
      env: { PATH: '/usr/bin:/bin', [name]: value },
    });
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(await findRenderProcesses({ environmentEntry: marker })).toEqual([child.pid]);
    // Processes started before the render (more than a second of slack) are not read at all.
    const now = (await bootTicksNow()) as number;
    expect(await findRenderProcesses({ environmentEntry: marker, startedAtTicks: now - 500 })).toEqual([
      child.pid,
    ]);
    expect(await findRenderProcesses({ environmentEntry: marker, startedAtTicks: now + 500 })).toEqual([]);
    // An entry that only starts like the marker does not match.
    expect(await findRenderProcesses({ environmentEntry: marker.slice(0, -1) })).toEqual([]);
    await killRenderProcesses({ environmentEntry: marker });
    expect(await findRenderProcesses({ environmentEntry: marker })).toEqual([]);
  });
});
