import { readdirSync, readFileSync } from 'node:fs';
import { readFile } from 'node:fs/promises';

/** How long {@link killRenderProcesses} keeps sweeping for processes that are still alive. */
export const KILL_SWEEP_MS = 2_000;
const SWEEP_INTERVAL_MS = 20;

/** Which processes belong to one render. */
export interface RenderProcessMatch {
  /** Session id of the agent-browser daemon (its PID: the daemon is a session leader). */
  sessionId?: number | undefined;
  /** An environment entry (`NAME=value`) every process of the render inherited. */
  environmentEntry: string;
  /**
   * Only processes started at or after this many clock ticks since boot (see {@link bootTicksNow})
   * can belong to the render, so older ones are skipped without reading their environment.
   */
  startedAtTicks?: number | undefined;
}

/** Clock ticks per second of `/proc/<pid>/stat` start times (USER_HZ, 100 on Linux). */
const TICKS_PER_SECOND = 100;

/** The current time in clock ticks since boot, for {@link RenderProcessMatch.startedAtTicks}; undefined without `/proc`. */
export async function bootTicksNow(): Promise<number | undefined> {
  try {
    const uptime = Number((await readFile('/proc/uptime', 'utf8')).split(' ')[0]);
    return Number.isFinite(uptime) ? Math.floor(uptime * TICKS_PER_SECOND) : undefined;
  } catch {
    return undefined;
  }
}

// Field 2 (comm) is parenthesised and may contain spaces or ')'; after the last ')' come state (3),
// ppid, pgrp, session (6), … starttime (22).
function statFields(stat: string): string[] {
  return stat.slice(stat.lastIndexOf(')') + 2).split(' ');
}

function sessionIdOf(stat: string): number | undefined {
  const session = Number(statFields(stat)[3]);
  return Number.isInteger(session) ? session : undefined;
}

function startTicksOf(stat: string): number | undefined {
  const ticks = Number(statFields(stat)[19]);
  return Number.isFinite(ticks) ? ticks : undefined;
}

/**
 * The PIDs of every live process of one render: those in the daemon's session (Chromium keeps the
 * daemon's session id even in its own process group) and those whose environment carries the
 * render's private entry (the temporary HOME/TMPDIR: helpers such as crash handlers start their own
 * session but inherit it). Reads `/proc`; where there is no `/proc` it finds nothing.
 */
export async function findRenderProcesses(match: RenderProcessMatch): Promise<number[]> {
  // Synchronous reads on purpose: /proc files are generated in memory, and hundreds of small async
  // reads queued on the thread pool take far longer on a loaded machine than one quick pass.
  let entries: string[];
  try {
    entries = readdirSync('/proc');
  } catch {
    return [];
  }
  const own = process.pid;
  const found: number[] = [];
  const needle = `\0${match.environmentEntry}\0`;
  for (const entry of entries) {
    const pid = Number(entry);
    if (!Number.isInteger(pid) || pid <= 1 || pid === own) continue;
    try {
      const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
      // A zombie has exited already; only its parent can reap it.
      if (statFields(stat)[0] === 'Z') continue;
      if (match.sessionId !== undefined && sessionIdOf(stat) === match.sessionId) {
        found.push(pid);
        continue;
      }
      // A process older than the render cannot be one of its own (a second of slack for rounding).
      const started = startTicksOf(stat);
      if (
        match.startedAtTicks !== undefined &&
        started !== undefined &&
        started < match.startedAtTicks - TICKS_PER_SECOND
      ) {
        continue;
      }
      const environment = readFileSync(`/proc/${pid}/environ`, 'latin1');
      if (`\0${environment}`.includes(needle)) found.push(pid);
    } catch {
      // Gone meanwhile, or not ours to read.
    }
  }
  return found;
}

function alive(pid: number): boolean {
  try {
    return statFields(readFileSync(`/proc/${pid}/stat`, 'utf8'))[0] !== 'Z';
  } catch {
    return false;
  }
}

/**
 * Kills every process of one render with SIGKILL (SIGTERM takes the daemon half a minute), waits
 * until the killed ones are gone, and scans again in case a dying daemon had just started a child;
 * gives up after {@link KILL_SWEEP_MS}. Returns how many processes were killed.
 */
export async function killRenderProcesses(match: RenderProcessMatch): Promise<number> {
  const deadline = Date.now() + KILL_SWEEP_MS;
  const killed = new Set<number>();
  for (;;) {
    const found = await findRenderProcesses(match);
    if (found.length === 0) return killed.size;
    for (const pid of found) {
      try {
        process.kill(pid, 'SIGKILL');
        killed.add(pid);
      } catch {
        // Exited between the scan and the kill.
      }
    }
    // Watching only the killed PIDs is much cheaper than rescanning every process's environment.
    let pending = found;
    while (pending.length > 0 && Date.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, SWEEP_INTERVAL_MS));
      pending = pending.filter(alive);
    }
    if (Date.now() >= deadline) return killed.size;
  }
}
