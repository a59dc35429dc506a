import type { ConfigProblems } from './config-problem.js';
import { locateJsonError } from './locate-json-error.js';

/** A config document: its parsed JSON value and where it came from (for messages). */
export interface ConfigDocument {
  /** The parsed JSON value (the whole agent config). */
  readonly value: unknown;
  /** Where it came from: a file path or a caller-chosen label. */
  readonly source: string;
}

/** The outcome of reading a config file: its parsed value, or `ok: false` after recording a problem. */
export type ReadConfigResult = { readonly ok: true; readonly value: unknown } | { readonly ok: false };

/**
 * Reads and parses a JSON config file. A missing or unreadable file, or malformed JSON (with its line
 * and column), becomes a problem on `problems`; the text is never quoted (it may hold secrets).
 */
export async function readConfigFile(path: string, problems: ConfigProblems): Promise<ReadConfigResult> {
  let text: string;
  try {
    text = await process.getBuiltinModule('node:fs/promises').readFile(path, 'utf8');
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT') {
      problems.add(path, 'file_not_found', 'does not exist (a config file given explicitly must exist)');
    } else {
      problems.add(path, 'file_unreadable', `cannot be read (${code ?? 'unknown error'})`);
    }
    return { ok: false };
  }
  return parseConfigText(text, path, problems);
}

/** Parses config text as JSON (a leading byte-order mark is allowed); malformed JSON becomes a problem. */
export function parseConfigText(text: string, source: string, problems: ConfigProblems): ReadConfigResult {
  const body = text.startsWith('\uFEFF') ? text.slice(1) : text;
  try {
    return { ok: true, value: JSON.parse(body) as unknown };
  } catch {
    const location = locateJsonError(body);
    const where =
      location === undefined
        ? ''
        : ` at line ${location.line}, column ${location.column} (offset ${location.offset}): ${location.reason}`;
    problems.add(source, 'json_syntax', `is not valid JSON${where}`);
    return { ok: false };
  }
}
