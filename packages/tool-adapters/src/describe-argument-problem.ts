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

/** What the describers below need to know about one issue. */
interface IssueContext {
  issue: v.BaseIssue<unknown>;
  /** The argument's path, key by key. */
  keys: readonly string[];
  /** The value received, quoted for the end of a message. */
  got: string;
  root: AnySchema;
  toolName: string;
}

type IssueDescriber = (context: IssueContext) => string;

function describeObjectIssue({ issue, keys, got, root, toolName }: IssueContext): string {
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

/** What a length counts: the entries of a list, the characters of anything else. */
function lengthUnit(issue: v.BaseIssue<unknown>): string {
  return Array.isArray(issue.input) ? 'entries' : 'characters';
}

/**
 * Plain-words describers of the issue types the tool schemas raise, by type; any other issue is
 * described by {@link describeOtherIssue}.
 */
const ISSUE_DESCRIBERS: ReadonlyMap<string, IssueDescriber> = new Map<string, IssueDescriber>([
  ['strict_object', describeObjectIssue],
  ['object', describeObjectIssue],
  [
    'picklist',
    ({ issue, got }) => {
      const options = (issue.expected ?? '').match(/"[^"]*"/g) ?? [];
      return `must be one of ${list(options, 'or')}${got}`;
    },
  ],
  ['integer', ({ got }) => `must be a whole number${got}`],
  ['min_value', ({ issue, got }) => `must be at least ${String(issue.requirement)}${got}`],
  ['max_value', ({ issue, got }) => `must be at most ${String(issue.requirement)}${got}`],
  [
    'min_length',
    ({ issue, got }) =>
      Number(issue.requirement) === 1
        ? 'must not be empty'
        : `must have at least ${String(issue.requirement)} ${lengthUnit(issue)}${got}`,
  ],
  [
    'max_length',
    ({ issue, got }) => `must have at most ${String(issue.requirement)} ${lengthUnit(issue)}${got}`,
  ],
]);

/** Any other issue: a wrong type in plain words, or the schema's own message, or a generic one. */
function describeOtherIssue({ issue, got }: IssueContext): string {
  const words = TYPE_WORDS[issue.type];
  if (issue.kind === 'schema' && words !== undefined) return `must be ${words}${got}`;
  // A message the schema itself carries is already plain words.
  if (!/^Invalid \w+:/.test(issue.message)) return `${issue.message}${got}`;
  return `is not valid${got}`;
}

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
  const context: IssueContext = {
    issue,
    keys,
    got: ` (got ${quoted(issue.received)})`,
    root: schema as AnySchema,
    toolName,
  };
  const describe = ISSUE_DESCRIBERS.get(issue.type) ?? describeOtherIssue;
  return { field, message: describe(context) };
}
