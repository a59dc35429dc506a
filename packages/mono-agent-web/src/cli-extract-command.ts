import { type CliOutput, InputError, UsageError } from './cli-command.js';
import type { ParsedCommandLine } from './cli-usage.js';
import { EXIT_CODES } from './exit-codes.js';

/** Why a file could not be read, in words an operator acts on (from Node's error code). */
export function unreadableFileReason(error: unknown): string {
  const code = (error as NodeJS.ErrnoException | undefined)?.code;
  switch (code) {
    case 'ENOENT':
      return 'it does not exist';
    case 'EISDIR':
      return 'it is a directory, not a file';
    case 'EACCES':
    case 'EPERM':
      return 'permission denied';
    case 'ENOTDIR':
      return 'a part of its path is not a directory';
    case 'ELOOP':
      return 'its path has a symbolic link loop';
    default:
      return code === undefined ? String((error as Error)?.message ?? error) : `it cannot be read (${code})`;
  }
}

async function readInput(source: string | undefined, output: CliOutput): Promise<Uint8Array> {
  if (source !== undefined && source !== '-') {
    try {
      return new Uint8Array(await process.getBuiltinModule('node:fs/promises').readFile(source));
    } catch (error) {
      throw new InputError(`cannot read the input file ${source}: ${unreadableFileReason(error)}`);
    }
  }
  const chunks: Buffer[] = [];
  for await (const chunk of output.stdin ?? process.stdin) {
    chunks.push(typeof chunk === 'string' ? Buffer.from(chunk) : Buffer.from(chunk));
  }
  return new Uint8Array(Buffer.concat(chunks));
}

/** Runs `extract`: a file's bytes (or standard input's) through the extraction a fetch applies. */
export async function extractCommand(parsed: ParsedCommandLine, rest: string[], output: CliOutput) {
  if (rest.length > 1) throw new UsageError('extract takes at most one file (or - for standard input)');
  const url = parsed.values.url;
  if (url === undefined)
    throw new UsageError('extract needs --url: the address the bytes came from (links resolve against it)');
  if (!/^https?:\/\//i.test(url) || !URL.canParse(url))
    throw new UsageError(`--url must be an absolute http:// or https:// URL, got '${url}'`);
  const format = parsed.values.format;
  if (format !== undefined && !['markdown', 'text', 'raw'].includes(format)) {
    throw new UsageError(`--format must be markdown, text or raw, got '${format}'`);
  }
  const body = await readInput(rest[0], output);
  const { extract } = await import('@mono-agent/extract');
  const document = await extract({
    body,
    url,
    ...(parsed.values['content-type'] === undefined ? {} : { contentType: parsed.values['content-type'] }),
    ...(format === undefined ? {} : { format: format as 'markdown' | 'text' | 'raw' }),
  });
  if (parsed.values.json) output.stdout(`${JSON.stringify(document, null, 2)}\n`);
  else output.stdout(`${document.content}\n`);
  return EXIT_CODES.success;
}
