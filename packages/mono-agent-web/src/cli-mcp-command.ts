import { type CliOutput, integerOption, loadRuntime, UsageError } from './cli-command.js';
import type { ParsedCommandLine } from './cli-usage.js';
import { EXIT_CODES } from './exit-codes.js';
import {
  createIdleRunRotation,
  MAX_RUN_IDLE_SECONDS,
  MIN_RUN_IDLE_SECONDS,
} from './runtime/idle-run-rotation.js';

/** Runs `mcp`: the two tools over stdio until the client goes, a fresh run after each idle gap. */
export async function mcpCommand(parsed: ParsedCommandLine, output: CliOutput) {
  const flag = integerOption(parsed.values['run-idle-seconds'], 'run-idle-seconds');
  if (flag !== undefined && (flag < MIN_RUN_IDLE_SECONDS || flag > MAX_RUN_IDLE_SECONDS)) {
    throw new UsageError(
      `--run-idle-seconds must be from ${MIN_RUN_IDLE_SECONDS} through ${MAX_RUN_IDLE_SECONDS}, got ${flag}`,
    );
  }
  const runtime = await loadRuntime(parsed, output);
  // One server serves many model runs: each burst of calls gets its own run and request budget.
  const runs = createIdleRunRotation({
    idleSeconds: flag ?? runtime.config.mcp.runIdleSeconds,
    startRun: (notice) => runtime.startRun(notice),
  });
  const { serveMcpOverStdio } = await import('@mono-agent/tool-adapters');
  try {
    await serveMcpOverStdio({
      webSearch: (args, options) => runs.use((run) => run.webSearch(args, options)),
      webFetch: (args, options) => runs.use((run) => run.webFetch(args, options)),
    });
  } finally {
    await runs.close();
    await runtime.close();
  }
  return EXIT_CODES.success;
}
