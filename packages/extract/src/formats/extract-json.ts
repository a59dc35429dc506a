import { WebToolError } from '@mono-agent/budget-policy';

/** Where in a text an error sits, 1-based. */
export interface TextPosition {
  /** Zero-based character offset. */
  offset: number;
  /** One-based line. */
  line: number;
  /** One-based column, in UTF-16 code units. */
  column: number;
}

/**
 * Containers nested deeper than this are written on one line: indentation stays readable and the
 * output of a deeply nested body stays about as long as the body itself.
 */
export const MAX_JSON_INDENTED_DEPTH = 32;

/** A newline and the indentation of each depth, built once. */
const NEWLINES = Array.from({ length: MAX_JSON_INDENTED_DEPTH + 1 }, (_, depth) => `\n${'  '.repeat(depth)}`);

/**
 * Validates a JSON body strictly (RFC 8259) and re-indents it with two spaces. Every token is copied
 * as sent: numbers keep all their digits (`12345678901234567890`, `1e400`, `-0`), strings keep their
 * escapes, and duplicate keys all stay, in order. One pass, no recursion and no parsed value, so depth
 * costs neither stack nor heap. Invalid JSON is a `parse_error` with its position and reason.
 */
export async function extractJson(text: string): Promise<string> {
  return formatJson(text);
}

/** The synchronous core of {@link extractJson}. */
export function formatJson(text: string): string {
  const formatter = new JsonFormatter(text);
  return formatter.run();
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

enum Container {
  Array = 1,
  Object = 2,
}

class JsonFormatter {
  private readonly text: string;
  private index = 0;
  private readonly out: string[] = [];
  /** The open containers, innermost last. */
  private readonly stack: Container[] = [];
  /** Set when a container was opened or a comma read, so the next token must be a value. */
  private pendingValue = false;

  constructor(text: string) {
    this.text = text;
  }

  run(): string {
    this.skipWhitespace();
    if (this.index >= this.text.length) this.fail('the body is empty; a JSON value was expected');
    this.value();
    // The stack of open containers replaces recursion: each turn writes one value, comma or close.
    while (this.stack.length > 0) {
      const container = this.stack[this.stack.length - 1] as Container;
      this.skipWhitespace();
      if (this.pendingValue) {
        this.pendingValue = false;
        if (container === Container.Array && this.text[this.index] === ']') {
          this.fail('a value was expected after ","; trailing commas are not JSON');
        }
        this.value();
        continue;
      }
      const char = this.text[this.index];
      if (char === ',') {
        this.index++;
        this.out.push(',');
        this.newline(this.stack.length);
        if (container === Container.Object) this.key();
        this.pendingValue = true;
        continue;
      }
      const close = container === Container.Array ? ']' : '}';
      if (char === close) {
        this.index++;
        this.stack.pop();
        this.newline(this.stack.length);
        this.out.push(close);
        continue;
      }
      if (char === undefined) {
        this.fail(`the body ended inside an ${nameOf(container)}; "${close}" was expected`);
      }
      this.fail(
        `"," or "${close}" was expected after the ${container === Container.Array ? 'element' : 'member'}`,
      );
    }
    this.skipWhitespace();
    if (this.index < this.text.length) this.fail('the JSON value ended, but more text follows');
    return this.out.join('');
  }

  /** An object member's name and colon; its value follows as the pending value. */
  private key(): void {
    this.skipWhitespace();
    const char = this.text[this.index];
    if (char === '}') this.fail('a property name was expected after ","; trailing commas are not JSON');
    if (char !== '"') this.fail('a property name in double quotes was expected');
    this.string();
    this.skipWhitespace();
    if (this.text[this.index] !== ':') this.fail('":" was expected after the property name');
    this.index++;
    this.out.push(this.stack.length > MAX_JSON_INDENTED_DEPTH ? ':' : ': ');
    this.skipWhitespace();
  }

  /** A scalar is written whole; a non-empty container is opened and its first value left pending. */
  private value(): void {
    const char = this.text[this.index];
    switch (char) {
      case '{':
      case '[': {
        this.index++;
        const container = char === '[' ? Container.Array : Container.Object;
        const close = char === '[' ? ']' : '}';
        this.skipWhitespace();
        if (this.text[this.index] === close) {
          this.index++;
          this.out.push(char, close);
          return;
        }
        this.out.push(char);
        this.stack.push(container);
        this.newline(this.stack.length);
        if (container === Container.Object) this.key();
        this.pendingValue = true;
        return;
      }
      case '"':
        this.string();
        return;
      case 't':
        this.literal('true');
        return;
      case 'f':
        this.literal('false');
        return;
      case 'n':
        this.literal('null');
        return;
      case undefined:
        this.fail('the body ended where a value was expected');
        return;
      default:
        if (char === '-' || (char >= '0' && char <= '9')) {
          this.number();
          return;
        }
        this.fail(`a value was expected, not ${describe(char)}`);
    }
  }

  private literal(word: string): void {
    if (!this.text.startsWith(word, this.index)) this.fail(`a value was expected (did you mean ${word}?)`);
    this.index += word.length;
    this.out.push(word);
  }

  private number(): void {
    const text = this.text;
    const start = this.index;
    let index = start;
    if (text[index] === '-') index++;
    if (text[index] === '0') index++;
    else if (isDigit(text.charCodeAt(index))) while (isDigit(text.charCodeAt(index))) index++;
    else this.failAt(index, 'a digit was expected in the number');
    if (text[index] === '.') {
      index++;
      if (!isDigit(text.charCodeAt(index)))
        this.failAt(index, 'a digit was expected after the decimal point');
      while (isDigit(text.charCodeAt(index))) index++;
    }
    if (text[index] === 'e' || text[index] === 'E') {
      index++;
      if (text[index] === '+' || text[index] === '-') index++;
      if (!isDigit(text.charCodeAt(index))) this.failAt(index, 'a digit was expected in the exponent');
      while (isDigit(text.charCodeAt(index))) index++;
    }
    if (isDigit(text.charCodeAt(index))) this.failAt(index, 'numbers must not have leading zeros');
    this.index = index;
    this.out.push(text.slice(start, index));
  }

  private string(): void {
    const text = this.text;
    const start = this.index;
    let index = start + 1;
    for (;;) {
      const code = text.charCodeAt(index);
      if (Number.isNaN(code)) this.failAt(start, 'the string is never closed');
      if (code === 0x22) break;
      if (code < 0x20) this.failAt(index, 'control characters must be escaped inside strings');
      if (code === 0x5c) {
        const escaped = text[index + 1];
        if (escaped === 'u') {
          if (!/^[0-9a-fA-F]{4}$/.test(text.slice(index + 2, index + 6))) {
            this.failAt(index, 'a \\u escape needs four hexadecimal digits');
          }
          index += 6;
          continue;
        }
        if (escaped === undefined || !'"\\/bfnrt'.includes(escaped)) {
          this.failAt(index, 'invalid escape sequence in a string');
        }
        index += 2;
        continue;
      }
      index++;
    }
    this.index = index + 1;
    this.out.push(text.slice(start, this.index));
  }

  private newline(depth: number): void {
    if (depth > MAX_JSON_INDENTED_DEPTH) return;
    this.out.push(NEWLINES[depth] as string);
  }

  private skipWhitespace(): void {
    const text = this.text;
    let index = this.index;
    for (;;) {
      const code = text.charCodeAt(index);
      if (code === 0x20 || code === 0x0a || code === 0x0d || code === 0x09) index++;
      else break;
    }
    this.index = index;
  }

  private fail(reason: string): never {
    return this.failAt(this.index, reason);
  }

  private failAt(offset: number, reason: string): never {
    const position = positionOf(this.text, offset);
    throw new WebToolError({
      code: 'parse_error',
      message: `Invalid JSON at line ${position.line}, column ${position.column}: ${reason}.`,
      details: { kind: 'json', ...position, reason },
    });
  }
}

function nameOf(container: Container): string {
  return container === Container.Array ? 'array' : 'object';
}

function isDigit(code: number): boolean {
  return code >= 0x30 && code <= 0x39;
}

function describe(char: string): string {
  const code = char.codePointAt(0) ?? 0;
  if (code < 0x20 || code === 0x7f) return `the control character U+${code.toString(16).padStart(4, '0')}`;
  return `"${String.fromCodePoint(code)}"`;
}
