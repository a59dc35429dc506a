import { WebToolError } from '@mono-agent/budget-policy';
import { type CliOutput, exitCodeFor, loadRuntime, UsageError } from './cli-command.js';
import type { ParsedCommandLine } from './cli-usage.js';
import { EXIT_CODES } from './exit-codes.js';

/** Runs `web-control status` or `web-control reset` on the configured coordinator. */
export async function webControlCommand(parsed: ParsedCommandLine, rest: string[], output: CliOutput) {
  const [action] = rest;
  if ((action !== 'status' && action !== 'reset') || rest.length !== 1) {
    throw new UsageError("web-control takes 'status' or 'reset'");
  }
  const runtime = await loadRuntime(parsed, output);
  let report: Awaited<ReturnType<typeof runtime.coordinator.status | typeof runtime.coordinator.reset>>;
  try {
    report = action === 'status' ? await runtime.coordinator.status() : await runtime.coordinator.reset();
  } catch (error) {
    // Unsafe host state or an unreachable Redis: the refusal is JSON too, naming the problem.
    if (!WebToolError.isInstance(error)) throw error;
    if (parsed.values.json)
      output.stdout(
        `${JSON.stringify({ mode: runtime.coordinator.mode, error: { code: error.code, message: error.message, details: error.details } }, null, 2)}\n`,
      );
    output.stderr(`mono-agent-web: ${error.code}: ${error.message}\n`);
    return exitCodeFor(error.code);
  } finally {
    // Closes a Redis connection, so the command ends as soon as it has answered.
    await runtime.close();
  }
  if (parsed.values.json) output.stdout(`${JSON.stringify(report, null, 2)}\n`);
  else {
    const { formatCoordinatorStatus, formatResetReport } = await import(
      './web-control/format-web-control.js'
    );
    output.stdout('reset' in report ? formatResetReport(report) : formatCoordinatorStatus(report));
  }
  return action === 'reset' && 'reset' in report && report.reset === false
    ? EXIT_CODES.backendFailure
    : EXIT_CODES.success;
}
