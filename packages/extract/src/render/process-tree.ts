import { readdir, readFile } from 'node:fs/promises';

/** How long {@link killRenderProcesses} keeps sweeping for processes that are still alive. */
export const KILL_SWEEP_MS = 2_000;
const SWEEP_INTERVAL_MS = 20;

/** Which processes belong to one render. */
export interface RenderProcessMatch {
  /** Session id of the agent-browser daemon (its PID: the daemon is a session leader). */
  sessionId?: number | undefined;
  /** An environment entry (`NAME=value`) every process of the render inherited. */
  environmentEntry: string;
}

function sessionIdOf(stat: string): number | undefined {
  // Field 2 (comm) is parenthesised and may contain spaces or ')'; the fields after the last ')' are
  // state, ppid, pgrp, session.
  const tail = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  const session = Number(tail[3]);
  return Number.isInteger(session) ? session : undefined;
}

/**
 * The PIDs of every live process of one render: those in the daemon's session (Chromium keeps the
 * daemon's session id even in its own process group) and those whose environment carries the
 * render's private entry (the temporary HOME/TMPDIR: helpers such as crash handlers start their own
 * session but inherit it). Reads `/proc`; where there is no `/proc` it finds nothing.
 */
export async function findRenderProcesses(match: RenderProcessMatch): Promise<number[]> {
  let entries: string[];
  try {
    entries = await readdir('/proc');
  } catch {
    return [];
  }
  const own = process.pid;
  const found: number[] = [];
  const needle = `\0${match.environmentEntry}\0`;
  await Promise.all(
    entries.map(async (entry) => {
      const pid = Number(entry);
      if (!Number.isInteger(pid) || pid <= 1 || pid === own) return;
      try {
        const stat = await readFile(`/proc/${pid}/stat`, 'utf8');
        // A zombie has exited already; only its parent can reap it.
        if (stat.slice(stat.lastIndexOf(')') + 2, stat.lastIndexOf(')') + 3) === 'Z') return;
        if (match.sessionId !== undefined && sessionIdOf(stat) === match.sessionId) {
          found.push(pid);
          return;
        }
        const environment = await readFile(`/proc/${pid}/environ`, 'latin1');
        if (`\0${environment}`.includes(needle)) found.push(pid);
      } catch {
        // Gone meanwhile, or not ours to read.
      }
    }),
  );
  return found;
}

async function alive(pid: number): Promise<boolean> {
  try {
    const stat = await readFile(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2, stat.lastIndexOf(')') + 3) !== 'Z';
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
      const states = await Promise.all(pending.map(alive));
      pending = pending.filter((_, index) => states[index]);
    }
    if (Date.now() >= deadline) return killed.size;
  }
}
