/**
 * The key a scope is stored under: the SHA-256 of its name, so backend URLs and origins never reach
 * the state file or status output in clear text.
 */
export function scopeKey(scope: string): string {
  return process.getBuiltinModule('node:crypto').createHash('sha256').update(scope, 'utf8').digest('hex');
}
