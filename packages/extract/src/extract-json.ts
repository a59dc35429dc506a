import { WebToolError } from '@mono-agent/budget-policy';
import { loadJsonc } from './lazy-modules.js';

/** Where in a text an error sits, 1-based. */
export interface TextPosition {
  /** Zero-based character offset. */
  offset: number;
  /** One-based line. */
  line: number;
  /** One-based column, in UTF-16 code units. */
  column: number;
}

/** Parses a JSON body strictly and pretty-prints it; invalid JSON is a `parse_error` with its position. */
export async function extractJson(text: string): Promise<string> {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    const { offset, reason } = await locateJsonError(text);
    const position = positionOf(text, offset);
    throw new WebToolError({
      code: 'parse_error',
      message: `Invalid JSON at line ${position.line}, column ${position.column}: ${reason}.`,
      cause: error,
      details: { kind: 'json', ...position, reason },
    });
  }
  return JSON.stringify(value, null, 2);
}

/** The line and column of a character offset. */
export function positionOf(text: string, offset: number): TextPosition {
  let line = 1;
  let lineStart = 0;
  for (
    let index = text.indexOf('\n');
    index !== -1 && index < offset;
    index = text.indexOf('\n', index + 1)
  ) {
    line++;
    lineStart = index + 1;
  }
  return { offset, line, column: offset - lineStart + 1 };
}

// V8 names a position for some JSON errors only, so a strict scanner locates every one.
async function locateJsonError(text: string): Promise<{ offset: number; reason: string }> {
  const jsonc = await loadJsonc();
  const errors: Array<{ error: number; offset: number }> = [];
  jsonc.parse(text, errors as never, {
    disallowComments: true,
    allowTrailingComma: false,
    allowEmptyContent: false,
  });
  const first = errors[0];
  if (first === undefined) return { offset: 0, reason: 'not valid JSON' };
  return { offset: first.offset, reason: jsonc.printParseErrorCode(first.error) };
}
