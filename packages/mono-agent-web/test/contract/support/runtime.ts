import { type ConfigDocument, resolveWebConfig } from '../../../src/config/index.js';
import { createWebRuntime, type TimingEvent, type WebRun, type WebRuntime } from '../../../src/index.js';

/** A runtime built from an environment (and optionally a config document), and one run of it. */
export interface RuntimeSession {
  /** The runtime. */
  runtime: WebRuntime;
  /** One run. */
  run: WebRun;
  /** Every timing event the runtime emitted. */
  events: TimingEvent[];
  /** Closes the run and the runtime. */
  close(): Promise<void>;
}

/** Builds `createWebRuntime` the way a host does: configuration resolved from env and config. */
export async function startRuntime(
  env: Record<string, string>,
  document?: ConfigDocument,
): Promise<RuntimeSession> {
  const config = resolveWebConfig({ env, ...(document === undefined ? {} : { document }) });
  const events: TimingEvent[] = [];
  const runtime = await createWebRuntime({ config, onTiming: (event) => events.push(event) });
  const run = runtime.startRun();
  return {
    runtime,
    run,
    events,
    async close() {
      await run.close();
      await runtime.close();
    },
  };
}
