import { type CliOutput, loadConfig, UsageError } from './cli-command.js';
import type { ParsedCommandLine } from './cli-usage.js';
import { EXIT_CODES } from './exit-codes.js';

/** Runs `validate`: checks the configuration and, unless told not to, each backend's liveness. */
export async function validateCommand(parsed: ParsedCommandLine, rest: string[], output: CliOutput) {
  if (rest.length > 0) throw new UsageError('validate takes no arguments');
  const config = await loadConfig(parsed, output);
  const { validateWebConfig } = await import('./validate/validate-web-config.js');
  const report = await validateWebConfig(config, { liveness: !parsed.values['no-liveness'] });
  if (parsed.values.json) {
    output.stdout(`${JSON.stringify(report, null, 2)}\n`);
  } else {
    const { formatValidationReport } = await import('./validate/format-validation.js');
    output.stdout(formatValidationReport(report));
  }
  if (report.ok) return EXIT_CODES.success;
  const structural = report.checks.some(
    (check) => check.status === 'fail' && !check.name.startsWith('liveness.'),
  );
  return structural ? EXIT_CODES.invalidInput : EXIT_CODES.backendFailure;
}
