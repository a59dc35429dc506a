import type * as v from 'valibot';

/** The longest piece of a rejected value quoted back in a message. */
export const MAX_QUOTED_VALUE_CHARS = 60;

/** One rejected argument, in words a model or a person can act on. */
export interface ArgumentProblem {
  /** The argument's path (`max_lines`, `headers.Cookie`), or `arguments` for the whole call. */
  field: string;
  /** What is wrong with it and what would be accepted. */
  message: string;
}

type AnySchema = v.GenericSchema & {
  entries?: Record<string, AnySchema>;
  wrapped?: AnySchema;
  pipe?: readonly AnySchema[];
  options?: readonly unknown[];
};

/** The object schema (its entries) behind optional and pipe wrappers. */
function unwrap(schema: AnySchema | undefined): AnySchema | undefined {
  let current = schema;
  for (let depth = 0; current !== undefined && depth < 8; depth += 1) {
    if (current.entries !== undefined) return current;
    if (current.wrapped !== undefined) current = current.wrapped;
    else if (current.type === 'pipe' || Array.isArray(current.pipe)) current = current.pipe?.[0];
    else return current;
  }
  return current;
}

/** The keys the object at `path` accepts, found by walking the schema. */
function knownKeys(root: AnySchema, path: readonly string[]): string[] {
  let schema = unwrap(root);
  for (const key of path) schema = unwrap(schema?.entries?.[key]);
  return Object.keys(schema?.entries ?? {});
}

function quoted(received: string | undefined): string {
  const text = received ?? 'nothing';
  return text.length > MAX_QUOTED_VALUE_CHARS ? `${text.slice(0, MAX_QUOTED_VALUE_CHARS)}…` : text;
}

function list(words: readonly string[], conjunction: 'and' | 'or'): string {
  if (words.length <= 1) return words.join('');
  return `${words.slice(0, -1).join(', ')} ${conjunction} ${words.at(-1)}`;
}

const TYPE_WORDS: Record<string, string> = {
  string: 'text',
  number: 'a number',
  boolean: 'true or false',
  array: 'a list',
  strict_object: 'an object',
  object: 'an object',
};

/**
 * Turns one valibot issue into plain words: which argument, what is wrong, what would be accepted,
 * and the value received. Messages written into the schema (`must be an http:// or https:// URL`) are
 * kept; the library's generic ones (`Invalid key: Expected never…`) are replaced.
 */
export function describeArgumentProblem(
  issue: v.BaseIssue<unknown>,
  schema: v.GenericSchema,
  toolName: string,
): ArgumentProblem {
  const keys = (issue.path ?? []).map((item) => String(item.key));
  const field = keys.length === 0 ? 'arguments' : keys.join('.');
  const got = ` (got ${quoted(issue.received)})`;
  const root = schema as AnySchema;
  const message = (() => {
    switch (issue.type) {
      case 'strict_object':
      case 'object': {
        if (issue.expected === 'never') {
          const parent = keys.slice(0, -1);
          const allowed = knownKeys(root, parent);
          return parent.length === 0
            ? `is not a ${toolName} argument; its arguments are ${list(allowed, 'and')}`
            : `is not allowed in ${parent.join('.')}; only ${list(allowed, 'and')} may be set`;
        }
        if (issue.received === 'undefined' && keys.length > 0) return 'is required';
        return `must be an object with named arguments${got}`;
      }
      case 'picklist': {
        const options = (issue.expected ?? '').match(/"[^"]*"/g) ?? [];
        return `must be one of ${list(options, 'or')}${got}`;
      }
      case 'integer':
        return `must be a whole number${got}`;
      case 'min_value':
        return `must be at least ${String(issue.requirement)}${got}`;
      case 'max_value':
        return `must be at most ${String(issue.requirement)}${got}`;
      case 'min_length':
        return Number(issue.requirement) === 1
          ? 'must not be empty'
          : `must have at least ${String(issue.requirement)} ${Array.isArray(issue.input) ? 'entries' : 'characters'}${got}`;
      case 'max_length':
        return `must have at most ${String(issue.requirement)} ${Array.isArray(issue.input) ? 'entries' : 'characters'}${got}`;
      default: {
        const words = TYPE_WORDS[issue.type];
        if (issue.kind === 'schema' && words !== undefined) return `must be ${words}${got}`;
        // A message the schema itself carries is already plain words.
        if (!/^Invalid \w+:/.test(issue.message)) return `${issue.message}${got}`;
        return `is not valid${got}`;
      }
    }
  })();
  return { field, message };
}
