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
  let index = 0;

  const stop = (reason: string, at = index): never => {
    throw new JsonSyntaxStop(at, reason);
  };
  const describe = (): string => {
    const char = text[index];
    if (char === undefined) return 'the text ends';
    const code = char.charCodeAt(0);
    return code < 0x20 ? `control character U+${code.toString(16).padStart(4, '0')}` : `'${char}'`;
  };
  const skipSpace = () => {
    while (index < text.length && ' \t\n\r'.includes(text[index] as string)) index += 1;
  };
  const expect = (char: string, what: string) => {
    if (text[index] !== char) stop(`expected ${what}, found ${describe()}`);
    index += 1;
  };

  const parseString = () => {
    expect('"', 'a string');
    for (;;) {
      const char = text[index];
      if (char === undefined) stop('unterminated string');
      if (char === '"') {
        index += 1;
        return;
      }
      if ((char as string).charCodeAt(0) < 0x20) stop(`${describe()} inside a string`);
      if (char === '\\') {
        index += 1;
        const escaped = text[index];
        if (escaped === 'u') {
          if (!/^[0-9a-fA-F]{4}$/.test(text.slice(index + 1, index + 5))) stop('invalid \\u escape');
          index += 5;
        } else if (escaped !== undefined && '"\\/bfnrt'.includes(escaped)) {
          index += 1;
        } else {
          stop('invalid escape in a string');
        }
      } else {
        index += 1;
      }
    }
  };

  const parseNumber = () => {
    const match = /^-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?/.exec(text.slice(index));
    if (match === null || match[0] === '-') stop(`expected a value, found ${describe()}`);
    index += (match as RegExpExecArray)[0].length;
  };

  const parseValue = (): void => {
    skipSpace();
    const char = text[index];
    if (char === '{') parseObject();
    else if (char === '[') parseArray();
    else if (char === '"') parseString();
    else if (char === '-' || (char !== undefined && char >= '0' && char <= '9')) parseNumber();
    else parseLiteral();
  };

  const parseLiteral = () => {
    for (const word of ['true', 'false', 'null']) {
      if (text.startsWith(word, index)) {
        index += word.length;
        return;
      }
    }
    stop(`expected a value, found ${describe()}`);
  };

  const parseObject = () => {
    index += 1;
    skipSpace();
    if (text[index] === '}') {
      index += 1;
      return;
    }
    for (;;) {
      skipSpace();
      if (text[index] !== '"') stop(`expected a double-quoted property name, found ${describe()}`);
      parseString();
      skipSpace();
      expect(':', "':' after a property name");
      parseValue();
      skipSpace();
      if (text[index] === ',') {
        index += 1;
        continue;
      }
      expect('}', "',' or '}' after a property value");
      return;
    }
  };

  const parseArray = () => {
    index += 1;
    skipSpace();
    if (text[index] === ']') {
      index += 1;
      return;
    }
    for (;;) {
      parseValue();
      skipSpace();
      if (text[index] === ',') {
        index += 1;
        continue;
      }
      expect(']', "',' or ']' after an array element");
      return;
    }
  };

  try {
    parseValue();
    skipSpace();
    if (index < text.length) stop(`unexpected ${describe()} after the JSON value`);
    return undefined;
  } catch (error) {
    // A stack overflow on absurd nesting still gets a position: where the scan had got to.
    if (error instanceof RangeError) {
      return { offset: index, ...lineAndColumn(text, index), reason: 'nesting too deep' };
    }
    if (!(error instanceof JsonSyntaxStop)) throw error;
    return { offset: error.offset, ...lineAndColumn(text, error.offset), reason: error.reason };
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
