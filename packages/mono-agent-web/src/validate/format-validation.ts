import type { ValidationReport, ValidationStatus } from './validate-web-config.js';

const LABELS: Record<ValidationStatus, string> = { ok: 'ok', note: 'note', warn: 'warn', fail: 'fail' };

/**
 * The `validate` report as an operator reads it: one line per check, then a tally that says how many
 * things were not checked, so a run with skipped checks never reads as a clean pass.
 */
export function formatValidationReport(report: ValidationReport): string {
  const lines = [`${report.section}${report.liveness ? '' : ' (liveness off)'}`];
  for (const check of report.checks) lines.push(`  [${LABELS[check.status]}] ${check.name}: ${check.detail}`);
  const count = (status: ValidationStatus) => report.checks.filter((check) => check.status === status).length;
  const tally = [
    `${count('ok')} ok`,
    `${count('note')} not checked or checked only when used`,
    `${count('warn')} warning${count('warn') === 1 ? '' : 's'}`,
    `${count('fail')} failed`,
  ];
  lines.push(`${report.ok ? 'No check failed' : 'Validation failed'}: ${tally.join(', ')}.`);
  return `${lines.join('\n')}\n`;
}
