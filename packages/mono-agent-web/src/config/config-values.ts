import { WebToolError } from '@mono-agent/budget-policy';
import { parseNetworkPolicy } from '@mono-agent/net';
import { ENV_NAME_PATTERN, MAX_CODEX_MODEL_LENGTH, SHELL_METACHARACTERS } from './config-constants.js';
import type { ConfigField } from './config-field.js';
import type { ConfigProblems } from './config-problem.js';

/** A value read from one layer: absent (`undefined`), valid, or present but broken (problems recorded). */
export type Slot<T> = undefined | { readonly ok: true; readonly value: T } | { readonly ok: false };

/** Reads one setting from a JSON value (file) or a string (env), recording problems. */
export interface ValueReader<T> {
  /** Reads a value found in the config file. */
  fromFile(value: unknown, field: ConfigField, problems: ConfigProblems): Slot<T>;
  /** Reads a (non-empty) environment value. */
  fromEnv(text: string, field: ConfigField, problems: ConfigProblems): Slot<T>;
}

/** A check of a string that returns the value to keep, or `undefined` after recording problems. */
export type StringCheck<T> = (text: string, field: ConfigField, problems: ConfigProblems) => T | undefined;

const MAX_ECHO_LENGTH = 40;
/** Whether text holds a C0 control character or DEL (newline, NUL, escape...). */
function hasControlCharacter(text: string): boolean {
  for (let index = 0; index < text.length; index += 1) {
    const code = text.charCodeAt(index);
    if (code < 0x20 || code === 0x7f) return true;
  }
  return false;
}

function slot<T>(value: T | undefined): Slot<T> {
  return value === undefined ? { ok: false } : { ok: true, value };
}

/** The JSON type of a value, for messages (`an array`, `a string`, `null`), never the value itself. */
export function describeJsonType(value: unknown): string {
  if (value === null || value === undefined) return String(value);
  if (Array.isArray(value)) return 'an array';
  return typeof value === 'object' ? 'an object' : `a ${typeof value}`;
}

function typeProblem(expected: string, field: ConfigField, problems: ConfigProblems, value: unknown) {
  problems.add(field.key, 'type', `must be ${expected}, not ${describeJsonType(value)}`, field.label);
  return { ok: false } as const;
}

/** A string setting whose text passes `check`. */
export function stringReader<T>(check: StringCheck<T>): ValueReader<T> {
  return {
    fromFile(value, field, problems) {
      if (typeof value !== 'string') return typeProblem('a string', field, problems, value);
      return slot(check(value, field, problems));
    },
    fromEnv: (text, field, problems) => slot(check(text, field, problems)),
  };
}

/** A setting that is one of a few words (exact, case-sensitive). */
export function oneOfReader<const T extends string>(choices: readonly T[]): ValueReader<T> {
  return stringReader((text, field, problems) => {
    if ((choices as readonly string[]).includes(text)) return text as T;
    const shown = JSON.stringify(text.length > MAX_ECHO_LENGTH ? `${text.slice(0, MAX_ECHO_LENGTH)}…` : text);
    problems.add(field.key, 'one_of', `must be one of ${choices.join(', ')} (got ${shown})`, field.label);
    return undefined;
  });
}

/** An integer setting from `minimum` through `maximum`. */
export function integerReader(minimum: number, maximum: number): ValueReader<number> {
  const inRange = (value: number, field: ConfigField, problems: ConfigProblems): Slot<number> => {
    if (value >= minimum && value <= maximum) return { ok: true, value };
    problems.add(
      field.key,
      'range',
      `must be from ${minimum} through ${maximum} (got ${value})`,
      field.label,
    );
    return { ok: false };
  };
  const notInteger = (field: ConfigField, problems: ConfigProblems): Slot<number> => {
    problems.add(field.key, 'integer', `must be an integer from ${minimum} through ${maximum}`, field.label);
    return { ok: false };
  };
  return {
    fromFile(value, field, problems) {
      if (typeof value !== 'number') return typeProblem('a number', field, problems, value);
      return Number.isInteger(value) ? inRange(value, field, problems) : notInteger(field, problems);
    },
    fromEnv(text, field, problems) {
      return /^[+-]?\d{1,15}$/.test(text)
        ? inRange(Number(text), field, problems)
        : notInteger(field, problems);
    },
  };
}

/** A boolean setting: a JSON boolean in the file; true, false, 1 or 0 (any case) in the environment. */
export const booleanReader: ValueReader<boolean> = {
  fromFile(value, field, problems) {
    if (typeof value !== 'boolean') return typeProblem('true or false', field, problems, value);
    return { ok: true, value };
  },
  fromEnv(text, field, problems) {
    const lower = text.toLowerCase();
    if (lower === 'true' || lower === '1') return { ok: true, value: true };
    if (lower === 'false' || lower === '0') return { ok: true, value: false };
    problems.add(field.key, 'boolean', 'must be true, false, 1 or 0', field.label);
    return { ok: false };
  },
};

/** A list of network allow entries: a JSON array of strings, or comma-separated in the environment. */
export function listReader(check: StringCheck<string>): ValueReader<string[]> {
  const entries = (
    texts: readonly unknown[],
    fieldAt: (index: number) => ConfigField,
    problems: ConfigProblems,
  ) => {
    const before = problems.size;
    const kept: string[] = [];
    texts.forEach((entry, index) => {
      const field = fieldAt(index);
      if (typeof entry !== 'string') {
        typeProblem('a string', field, problems, entry);
        return;
      }
      if (entry.trim() === '') {
        problems.add(field.key, 'non_empty', 'must not be empty', field.label);
        return;
      }
      const value = check(entry.trim(), field, problems);
      if (value !== undefined) kept.push(value);
    });
    return problems.size === before ? ({ ok: true, value: kept } as const) : ({ ok: false } as const);
  };
  return {
    fromFile(value, field, problems) {
      if (!Array.isArray(value)) return typeProblem('an array of strings', field, problems, value);
      return entries(
        value,
        (index) => ({ key: `${field.key}[${index}]`, label: `${field.label}[${index}]` }),
        problems,
      );
    },
    fromEnv(text, field, problems) {
      // An env entry has no key of its own, so problems name the variable and the entry's position.
      return entries(
        text.split(','),
        (index) => ({ key: field.key, label: `${field.label} entry ${index + 1}` }),
        problems,
      );
    },
  };
}

/** Codex model: non-empty, at most {@link MAX_CODEX_MODEL_LENGTH} characters, no whitespace. */
export const checkCodexModel: StringCheck<string> = (text, field, problems) => {
  const before = problems.size;
  if (text === '') problems.add(field.key, 'non_empty', 'must not be empty', field.label);
  if (/\s/.test(text)) problems.add(field.key, 'whitespace', 'must not contain whitespace', field.label);
  if (hasControlCharacter(text)) {
    problems.add(field.key, 'control_character', 'must not contain control characters', field.label);
  }
  if (text.length > MAX_CODEX_MODEL_LENGTH) {
    problems.add(
      field.key,
      'max_length',
      `must be at most ${MAX_CODEX_MODEL_LENGTH} characters (got ${text.length})`,
      field.label,
    );
  }
  return problems.size === before ? text : undefined;
};

/**
 * Browser command: a program name or path run directly, so no shell syntax, no control characters
 * (a newline or NUL would be a second command or a truncated path) and no surrounding whitespace.
 */
export const checkBrowserCommand: StringCheck<string> = (text, field, problems) => {
  if (text.trim() === '') {
    problems.add(field.key, 'non_empty', 'must name a program (it is empty or only whitespace)', field.label);
    return undefined;
  }
  const before = problems.size;
  if (hasControlCharacter(text)) {
    problems.add(
      field.key,
      'control_character',
      'must not contain control characters such as a newline or NUL',
      field.label,
    );
  }
  if (text !== text.trim()) {
    problems.add(field.key, 'whitespace', 'must not start or end with whitespace', field.label);
  }
  if (SHELL_METACHARACTERS.test(text)) {
    problems.add(
      field.key,
      'shell_metacharacter',
      'must not contain shell metacharacters: it names one program, run directly without a shell',
      field.label,
    );
  }
  return problems.size === before ? text : undefined;
};

/** An environment variable name (never the secret itself, which is why the value is not echoed). */
export const checkEnvName: StringCheck<string> = (text, field, problems) => {
  if (ENV_NAME_PATTERN.test(text)) return text;
  problems.add(
    field.key,
    'env_name',
    'must be the NAME of an environment variable (letters, digits and _, not starting with a digit), never the key itself',
    field.label,
  );
  return undefined;
};

/** A directory path: non-empty, no control characters. */
export const checkDirectory: StringCheck<string> = (text, field, problems) => {
  if (text.trim() === '') {
    problems.add(field.key, 'non_empty', 'must not be empty', field.label);
    return undefined;
  }
  if (hasControlCharacter(text)) {
    problems.add(field.key, 'control_character', 'must not contain control characters', field.label);
    return undefined;
  }
  return text;
};

/**
 * One network allow entry, checked and normalised by `@mono-agent/net` (host, host:port, IP or CIDR);
 * its refusal becomes a problem instead of ending the load.
 */
export const checkAllowEntry: StringCheck<string> = (text, field, problems) => {
  try {
    return parseNetworkPolicy({ mode: 'all', allow: [text] }).allow?.[0];
  } catch (error) {
    if (!WebToolError.isInstance(error, 'validation_error')) throw error;
    problems.add(field.key, 'allow_entry', `is not a valid allow entry: ${error.message}`, field.label);
    return undefined;
  }
};
