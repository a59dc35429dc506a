import { readFileSync } from 'node:fs';
import { lstat, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { hostname } from 'node:os';
import { join } from 'node:path';

/** How often a long-lived host sweeps its artifact folder; a run folder changed within it is always kept. */
export const ARTIFACT_SWEEP_INTERVAL_MS = 60 * 60 * 1000;

/** The most time the sweep a host runs at start may take before it stops (the rest waits for the next sweep). */
export const ARTIFACT_SWEEP_START_BUDGET_MS = 2_000;

/** The file in each run folder naming the process that writes it, so a sweep can tell a live run from an orphan. */
export const RUN_OWNER_FILE = '.run-owner.json';

/** The folder under `artifacts.dir` that holds one folder per run. */
export const TOOL_OUTPUT_FOLDER = 'tool-output';

/** The `artifacts.retention` policy: how old and how many run folders may get, and whether to only report. */
export interface ArtifactRetention {
  /** Idle run folders older than this (by their newest change) are removed. */
  maxAgeHours: number;
  /** Beyond this many run folders, the oldest idle ones are removed. */
  maxRuns: number;
  /** Report what would be removed and remove nothing. */
  dryRun: boolean;
}

/** Why a run folder was kept. */
export type KeptReason = 'active' | 'uncertain' | 'recent' | 'within_policy' | 'not_owned' | 'out_of_time';

/** What one sweep did. */
export interface ArtifactSweepReport {
  /** Run folder names removed (or, under a dry run, that would have been). */
  removed: string[];
  /** Run folder names kept, with why. */
  kept: { name: string; reason: KeptReason }[];
  /** Whether nothing was removed because the policy is a dry run. */
  dryRun: boolean;
  /** Whether the sweep looked at every folder before its time ran out. */
  complete: boolean;
}

/** Options of {@link sweepToolOutput}. */
export interface ArtifactSweepOptions {
  /** The host's artifacts directory (`artifacts.dir`); the sweep touches only `tool-output/` in it. */
  directory: string;
  /** The retention policy. */
  retention: ArtifactRetention;
  /** Whether a run folder (by name) belongs to a run of this process still open. */
  isActive?: (runFolder: string) => boolean;
  /** The clock, in milliseconds since the epoch (`Date.now` by default). */
  now?: () => number;
  /** The sweep interval; a folder changed within it is kept ({@link ARTIFACT_SWEEP_INTERVAL_MS} by default). */
  intervalMs?: number;
  /** Stops looking at further folders after this many milliseconds of the clock (no bound by default). */
  budgetMs?: number;
}

/** Who writes a run folder: a process of some host, identified across PID reuse by its start time. */
interface RunOwner {
  host: string;
  pid: number;
  started: number | undefined;
}

/** This process's start time in clock ticks since boot (field 22 of `/proc/<pid>/stat`), where `/proc` exists. */
function startTicksOf(pid: number): number | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const ticks = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[19]);
    return Number.isFinite(ticks) ? ticks : undefined;
  } catch {
    return undefined;
  }
}

/** The owner record of this process, written into each run folder it creates. */
export function currentRunOwner(): string {
  const started = startTicksOf(process.pid);
  return `${JSON.stringify({ host: hostname(), pid: process.pid, ...(started === undefined ? {} : { started }) })}\n`;
}

/** Writes the owner record into a run folder (owner-private, never over an existing one). */
export async function claimRunFolder(runDirectory: string): Promise<void> {
  await writeFile(join(runDirectory, RUN_OWNER_FILE), currentRunOwner(), { mode: 0o600, flag: 'wx' }).catch(
    (error: NodeJS.ErrnoException) => {
      if (error.code !== 'EEXIST') throw error;
    },
  );
}

function parseOwner(text: string): RunOwner | undefined {
  try {
    const value = JSON.parse(text) as Partial<RunOwner>;
    if (typeof value.host !== 'string' || !Number.isInteger(value.pid)) return undefined;
    return {
      host: value.host,
      pid: value.pid as number,
      started: typeof value.started === 'number' ? value.started : undefined,
    };
  } catch {
    return undefined;
  }
}

/**
 * Whether the run that writes a folder may still be running: `active` for a live run (of this process
 * and still open, or of another live process), `ended` when its process is gone or the folder has no
 * owner record, `uncertain` when that cannot be told (an unreadable record, another host, no way to
 * check the process).
 */
async function runState(
  folder: string,
  name: string,
  isActive: (runFolder: string) => boolean,
): Promise<'active' | 'ended' | 'uncertain'> {
  if (isActive(name)) return 'active';
  let text: string;
  try {
    text = await readFile(join(folder, RUN_OWNER_FILE), 'utf8');
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'ENOENT' ? 'ended' : 'uncertain';
  }
  const owner = parseOwner(text);
  if (owner === undefined || owner.host !== hostname()) return 'uncertain';
  if (owner.pid === process.pid && (owner.started === undefined || owner.started === startTicksOf(owner.pid)))
    return 'ended';
  try {
    process.kill(owner.pid, 0);
  } catch (error) {
    // EPERM: a live process of another user holds that PID, so it is not this owner's run any more
    // only if its start time says so; without that the state is unknown.
    if ((error as NodeJS.ErrnoException).code === 'ESRCH') return 'ended';
  }
  const started = startTicksOf(owner.pid);
  if (owner.started !== undefined && started !== undefined)
    return started === owner.started ? 'active' : 'ended';
  return 'uncertain';
}

/** The newest change time of a folder and the entries directly in it (files are written once, never nested). */
async function newestChange(folder: string, own: number): Promise<number> {
  let newest = own;
  for (const entry of await readdir(folder).catch(() => [] as string[])) {
    const status = await lstat(join(folder, entry)).catch(() => undefined);
    if (status !== undefined) newest = Math.max(newest, status.mtimeMs);
  }
  return newest;
}

/** A run folder the sweep looked at, and why it is kept whatever the policy says, if it is. */
interface SweepCandidate {
  name: string;
  path: string;
  changed: number;
  protectedBy?: KeptReason;
}

/** What one sweep works with: its clock and time budget, the live-run test, and its report so far. */
interface Sweep {
  now: () => number;
  interval: number;
  isActive: (runFolder: string) => boolean;
  outOfTime: () => boolean;
  report: ArtifactSweepReport;
}

/**
 * The configured host's sweep of `<directory>/tool-output/`: each run folder there is owned by the
 * retention policy. A folder whose run is active or uncertain, or that changed within the sweep
 * interval, is always kept; of the rest, a folder older than `maxAgeHours` is removed, and beyond
 * `maxRuns` folders (newest first) the older ones are removed too. An aged orphan needs no record
 * other than the folder itself. Only real directories of this user are touched (never a symlink), and
 * a dry run removes nothing but reports the same.
 */
export async function sweepToolOutput(options: ArtifactSweepOptions): Promise<ArtifactSweepReport> {
  const now = options.now ?? Date.now;
  const started = now();
  const { maxAgeHours, maxRuns, dryRun } = options.retention;
  const root = join(options.directory, TOOL_OUTPUT_FOLDER);
  const report: ArtifactSweepReport = { removed: [], kept: [], dryRun, complete: true };
  let names: string[];
  try {
    names = await readdir(root);
  } catch {
    return report;
  }
  const sweep: Sweep = {
    now,
    interval: options.intervalMs ?? ARTIFACT_SWEEP_INTERVAL_MS,
    isActive: options.isActive ?? (() => false),
    outOfTime: () => options.budgetMs !== undefined && now() - started > options.budgetMs,
    report,
  };
  const candidates = await listCandidates(root, names, sweep);
  // Newest first: the count keeps the newest folders, whether or not they are protected.
  candidates.sort((left, right) => right.changed - left.changed);
  const maxAgeMs = maxAgeHours * 60 * 60 * 1000;
  for (const [rank, candidate] of candidates.entries()) {
    const reason = await settleCandidate(candidate, rank < maxRuns, maxAgeMs, dryRun, sweep);
    if (reason === undefined) report.removed.push(candidate.name);
    else report.kept.push({ name: candidate.name, reason });
  }
  return report;
}

/**
 * The real directories among `names` that this user owns, each with its newest change and what
 * protects it; a folder of another user is reported kept at once. Stops early when the sweep runs
 * out of time.
 */
async function listCandidates(
  root: string,
  names: readonly string[],
  sweep: Sweep,
): Promise<SweepCandidate[]> {
  const uid = typeof process.getuid === 'function' ? process.getuid() : undefined;
  const candidates: SweepCandidate[] = [];
  for (const name of names) {
    if (sweep.outOfTime()) {
      sweep.report.complete = false;
      break;
    }
    const path = join(root, name);
    const status = await lstat(path).catch(() => undefined);
    if (status === undefined || !status.isDirectory()) continue;
    if (uid !== undefined && status.uid !== uid) {
      sweep.report.kept.push({ name, reason: 'not_owned' });
      continue;
    }
    const changed = await newestChange(path, status.mtimeMs);
    const protectedBy = protectionOf(await runState(path, name, sweep.isActive), changed, sweep);
    candidates.push({ name, path, changed, ...(protectedBy === undefined ? {} : { protectedBy }) });
  }
  return candidates;
}

/** Why a folder is kept whatever the policy says: its run may be live, or it changed within the interval. */
function protectionOf(
  state: 'active' | 'ended' | 'uncertain',
  changed: number,
  sweep: Sweep,
): KeptReason | undefined {
  if (state !== 'ended') return state;
  return sweep.now() - changed < sweep.interval ? 'recent' : undefined;
}

/**
 * Removes a candidate the policy lets go and returns `undefined`, or returns why it is kept instead.
 * A dry run removes nothing but answers the same. `withinCount` says whether the candidate is among
 * the newest `maxRuns` folders.
 */
async function settleCandidate(
  candidate: SweepCandidate,
  withinCount: boolean,
  maxAgeMs: number,
  dryRun: boolean,
  sweep: Sweep,
): Promise<KeptReason | undefined> {
  if (candidate.protectedBy !== undefined) return candidate.protectedBy;
  const aged = sweep.now() - candidate.changed > maxAgeMs;
  if (!aged && withinCount) return 'within_policy';
  if (sweep.outOfTime()) {
    sweep.report.complete = false;
    return 'out_of_time';
  }
  if (dryRun) return undefined;
  // Checked again just before removal: a run may have started writing into it meanwhile.
  const state = await runState(candidate.path, candidate.name, sweep.isActive);
  if (state !== 'ended') return state;
  await rm(candidate.path, { recursive: true, force: true });
  return undefined;
}
