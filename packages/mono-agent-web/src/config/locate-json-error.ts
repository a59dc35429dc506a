/** Where a JSON text first breaks the grammar, as offset and 1-based line and column. */
export interface JsonErrorLocation {
  /** The 0-based UTF-16 offset of the offending character (the text length at an early end). */
  readonly offset: number;
  /** The 1-based line. */
  readonly line: number;
  /** The 1-based column, in UTF-16 code units. */
  readonly column: number;
  /** What was expected or found, without quoting the text (it may hold secrets). */
  readonly reason: string;
}

class JsonSyntaxStop {
  constructor(
    readonly offset: number,
    readonly reason: string,
  ) {}
}

/**
 * Finds the first syntax error of a JSON text, or `undefined` when it is valid. Node 20's
 * `JSON.parse` messages sometimes omit the position and sometimes quote the text, so the position is
 * found by a scan of our own and the text is never repeated.
 */
export function locateJsonError(text: string): JsonErrorLocation | undefined {
  const scanner = new JsonScanner(text);
  try {
    scanner.document();
    return undefined;
  } catch (error) {
    // A stack overflow on absurd nesting still gets a position: where the scan had got to.
    if (error instanceof RangeError) {
      return { offset: scanner.index, ...lineAndColumn(text, scanner.index), reason: 'nesting too deep' };
    }
    if (!(error instanceof JsonSyntaxStop)) throw error;
    return { offset: error.offset, ...lineAndColumn(text, error.offset), reason: error.reason };
  }
}

/** A scan of one JSON text by its grammar, which throws a {@link JsonSyntaxStop} at the first error. */
class JsonScanner {
  /** Where the scan has got to. */
  index = 0;

  constructor(private readonly text: string) {}

  /** The whole text: one value, with only white space around it. */
  document(): void {
    this.value();
    this.skipSpace();
    if (this.index < this.text.length) this.stop(`unexpected ${this.describe()} after the JSON value`);
  }

  private stop(reason: string, at = this.index): never {
    throw new JsonSyntaxStop(at, reason);
  }

  private describe(): string {
    const char = this.text[this.index];
    if (char === undefined) return 'the text ends';
    const code = char.charCodeAt(0);
    return code < 0x20 ? `control character U+${code.toString(16).padStart(4, '0')}` : `'${char}'`;
  }

  private skipSpace(): void {
    while (this.index < this.text.length && ' \t\n\r'.includes(this.text[this.index] as string))
      this.index += 1;
  }

  private expect(char: string, what: string): void {
    if (this.text[this.index] !== char) this.stop(`expected ${what}, found ${this.describe()}`);
    this.index += 1;
  }

  private value(): void {
    this.skipSpace();
    const char = this.text[this.index];
    if (char === '{') this.object();
    else if (char === '[') this.array();
    else if (char === '"') this.string();
    else if (char === '-' || (char !== undefined && char >= '0' && char <= '9')) this.number();
    else this.literal();
  }

  private string(): void {
    this.expect('"', 'a string');
    for (;;) {
      const char = this.text[this.index];
      if (char === undefined) this.stop('unterminated string');
      if (char === '"') {
        this.index += 1;
        return;
      }
      if ((char as string).charCodeAt(0) < 0x20) this.stop(`${this.describe()} inside a string`);
      if (char === '\\') this.escape();
      else this.index += 1;
    }
  }

  /** One escape sequence of a string, from its backslash. */
  private escape(): void {
    this.index += 1;
    const escaped = this.text[this.index];
    if (escaped === 'u') {
      if (!/^[0-9a-fA-F]{4}$/.test(this.text.slice(this.index + 1, this.index + 5))) {
        this.stop('invalid \\u escape');
      }
      this.index += 5;
    } else if (escaped !== undefined && '"\\/bfnrt'.includes(escaped)) {
      this.index += 1;
    } else {
      this.stop('invalid escape in a string');
    }
  }

  private number(): void {
    const match = /^-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?/.exec(this.text.slice(this.index));
    if (match === null || match[0] === '-') this.stop(`expected a value, found ${this.describe()}`);
    this.index += (match as RegExpExecArray)[0].length;
  }

  private literal(): void {
    for (const word of ['true', 'false', 'null']) {
      if (this.text.startsWith(word, this.index)) {
        this.index += word.length;
        return;
      }
    }
    this.stop(`expected a value, found ${this.describe()}`);
  }

  private object(): void {
    this.index += 1;
    this.skipSpace();
    if (this.text[this.index] === '}') {
      this.index += 1;
      return;
    }
    for (;;) {
      this.skipSpace();
      if (this.text[this.index] !== '"') {
        this.stop(`expected a double-quoted property name, found ${this.describe()}`);
      }
      this.string();
      this.skipSpace();
      this.expect(':', "':' after a property name");
      this.value();
      this.skipSpace();
      if (this.text[this.index] === ',') {
        this.index += 1;
        continue;
      }
      this.expect('}', "',' or '}' after a property value");
      return;
    }
  }

  private array(): void {
    this.index += 1;
    this.skipSpace();
    if (this.text[this.index] === ']') {
      this.index += 1;
      return;
    }
    for (;;) {
      this.value();
      this.skipSpace();
      if (this.text[this.index] === ',') {
        this.index += 1;
        continue;
      }
      this.expect(']', "',' or ']' after an array element");
      return;
    }
  }
}

function lineAndColumn(text: string, offset: number): { line: number; column: number } {
  let line = 1;
  let lineStart = 0;
  for (let position = 0; position < offset; position += 1) {
    if (text[position] === '\n') {
      line += 1;
      lineStart = position + 1;
    }
  }
  return { line, column: offset - lineStart + 1 };
}
