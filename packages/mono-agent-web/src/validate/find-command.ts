import { accessSync, constants, statSync } from 'node:fs';
import { delimiter, isAbsolute, join, resolve } from 'node:path';

/**
 * Where `command` would be found when run directly (no shell): itself when it names a path, else the
 * first executable file of that name in the PATH's directories; `undefined` when there is none. Only
 * the file system is read, so the answer costs no process start and no network.
 */
export function findCommand(
  command: string,
  path: string | undefined = process.env.PATH,
): string | undefined {
  if (command === '') return undefined;
  if (command.includes('/')) return executable(isAbsolute(command) ? command : resolve(command));
  for (const directory of (path ?? '').split(delimiter)) {
    // An empty PATH entry means the working directory to execvp; nothing sensible to look up here.
    if (directory === '') continue;
    const candidate = executable(join(directory, command));
    if (candidate !== undefined) return candidate;
  }
  return undefined;
}

function executable(file: string): string | undefined {
  try {
    if (!statSync(file).isFile()) return undefined;
    accessSync(file, constants.X_OK);
    return file;
  } catch {
    return undefined;
  }
}
