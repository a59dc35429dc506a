/** The longest reason kept in a parser failure; reasons are operational metadata, not page content. */
export const MAX_FAILURE_REASON_CHARS = 200;

/** A short, bounded description of a thrown value, for `ParserFailure.reason`. */
export function failureReason(error: unknown): string {
  const name = error instanceof Error ? error.name : typeof error;
  const message = error instanceof Error ? error.message : String(error);
  return `${name}: ${message}`.slice(0, MAX_FAILURE_REASON_CHARS);
}
