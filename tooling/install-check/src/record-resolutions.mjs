// Module customization hook for record-loaded-modules.mjs: appends every resolved module URL to a log file.
import { appendFileSync } from 'node:fs';

let logPath;

/** Receives the log file path from `module.register`. */
export function initialize(data) {
  logPath = data.logPath;
}

/** Records each resolution after the rest of the chain (tsx) has resolved it. */
export async function resolve(specifier, context, nextResolve) {
  const resolved = await nextResolve(specifier, context);
  appendFileSync(logPath, `${resolved.url}\n`);
  return resolved;
}
