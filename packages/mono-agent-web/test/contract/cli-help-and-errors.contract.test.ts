// The `mono-agent-web` bin as an operator meets it: every command's help, refusals of malformed
// command lines and unusable inputs in one line naming what and where, internal errors as one line
// and a report file, and no output naming the folder the package was built in.
import { execFile } from 'node:child_process';
import {
  chmodSync,
  cpSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { type FixtureWeb, startFixtureWeb } from '@mono-agent/fixture-web';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EXIT_CODES } from '../../src/exit-codes.js';
import { BUILT_CLI, type CliRun, jsonOf, runBuiltCli } from './support/built-cli.js';

// Every command of the bin, as its help names them.
const COMMAND_NAMES = ['search', 'fetch', 'extract', 'web-control', 'validate', 'mcp'] as const;

const packageRoot = fileURLToPath(new URL('../../', import.meta.url));
const repositoryRoot = fileURLToPath(new URL('../../../../', import.meta.url)).replace(/\/$/, '');

let web: FixtureWeb;
let home: string;
let scratch: string;
const env = () => ({
  MONO_AGENT_NETWORK_MODE: 'allowlist',
  MONO_AGENT_NETWORK_ALLOW: `127.0.0.1:${web.port}`,
  TMPDIR: scratch,
});
const cli = (args: string[], extra: Record<string, string> = {}) =>
  runBuiltCli(args, { home, env: { ...env(), ...extra } });

beforeAll(async () => {
  web = await startFixtureWeb();
  home = mkdtempSync(join(tmpdir(), 'cli-help-home-'));
  scratch = mkdtempSync(join(tmpdir(), 'cli-help-scratch-'));
});
afterAll(async () => {
  await web.close();
  rmSync(home, { recursive: true, force: true });
  chmodSync(scratch, 0o700);
  rmSync(scratch, { recursive: true, force: true });
});

/** A refusal of input: exit 2, nothing on stdout, exactly one line on stderr matching `what`. */
function expectOneLineRefusal(run: CliRun, what: RegExp): void {
  expect(run.code, `${run.stdout}${run.stderr}`).toBe(EXIT_CODES.invalidInput);
  expect(run.stdout).toBe('');
  const lines = run.stderr.split('\n').filter(Boolean);
  expect(lines, run.stderr).toHaveLength(1);
  expect(lines[0]).toMatch(/^mono-agent-web: /);
  expect(lines[0]).toMatch(what);
  expect(run.stderr).not.toMatch(/^\s+at /m);
}

// Each command's own options, as its help must list them.
const COMMAND_OPTIONS: Record<(typeof COMMAND_NAMES)[number], string[]> = {
  search: ['--limit', '--alternate', '--domain', '--exclude-domain', '--language', '--time-range'],
  fetch: ['--format', '--start-line', '--max-lines', '--max-output-chars', '--render'],
  extract: ['--url', '--content-type', '--format'],
  'web-control': [],
  validate: ['--no-liveness'],
  mcp: ['--run-idle-seconds'],
};

describe('"Help per command": `help <command>` and `<command> --help` print its usage, options with defaults, and an example', () => {
  it.each(COMMAND_NAMES.map((command) => [command]))('%s', async (command) => {
    const [viaHelp, viaFlag, viaShort] = await Promise.all([
      cli(['help', command]),
      cli([command, '--help']),
      cli([command, '-h']),
    ]);
    for (const run of [viaHelp, viaFlag, viaShort]) {
      expect(run.code, run.stderr).toBe(EXIT_CODES.success);
      expect(run.stderr).toBe('');
    }
    expect(viaFlag.stdout).toBe(viaHelp.stdout);
    expect(viaShort.stdout).toBe(viaHelp.stdout);
    const help = viaHelp.stdout;
    expect(help).toMatch(new RegExp(`^Usage: mono-agent-web ${command}\\b`));
    // Not the general help: no other command's usage line.
    for (const other of COMMAND_NAMES.filter((name) => name !== command))
      expect(help).not.toMatch(new RegExp(`^Usage: mono-agent-web ${other}\\b`, 'm'));
    for (const option of [...COMMAND_OPTIONS[command], '--config', '--help']) {
      const line = help.split('\n').find((text) => new RegExp(`^\\s+(-\\w, )?${option}\\b`).test(text));
      expect(line, `${command} help lists ${option}`).toBeDefined();
      if (option !== '--help') expect(line, `${option} states its default`).toMatch(/default|required/);
    }
    expect(help).toMatch(new RegExp(`Example:\\n  .*mono-agent-web ${command}\\b`));
  });

  it('help with the numbers the tools enforce: search --limit 1-10 default 5, fetch --max-lines 1-10000', async () => {
    expect((await cli(['help', 'search'])).stdout).toMatch(
      /--limit N\s+results to return, 1-10 \(default 5\)/,
    );
    expect((await cli(['help', 'fetch'])).stdout).toMatch(/--max-lines N\s+lines to return, 1-10000/);
  });

  it('the general help names `help <command>`; help of an unknown command is refused with the list', async () => {
    expect((await cli(['--help'])).stdout).toContain('mono-agent-web help <command>');
    expectOneLineRefusal(
      await cli(['help', 'serach']),
      /no help for 'serach': the commands are search, fetch/,
    );
  });
});

describe('"an unknown option exits 2 with a message naming it (not Node\'s parser text)"', () => {
  it.each([
    [
      'an unknown option',
      ['fetch', 'https://example.com/', '--cookie', 'a=b'],
      /unknown option '--cookie' for fetch; see 'mono-agent-web help fetch'/,
    ],
    [
      'a misspelled option',
      ['search', 'q', '--limt', '3'],
      /unknown option '--limt' for search \(did you mean --limit\?\)/,
    ],
    [
      'a misspelled fetch option',
      ['fetch', 'https://example.com/', '--max-line', '3'],
      /did you mean --max-lines\?/,
    ],
    [
      "another command's option",
      ['fetch', 'https://example.com/', '--limit', '3'],
      /--limit is not an option of fetch \(it belongs to search\)/,
    ],
    ['an unknown short option', ['fetch', 'https://example.com/', '-x'], /unknown option '-x'/],
    ['a missing value', ['search', 'q', '--limit'], /--limit needs a value \(N\)/],
    [
      'an option where a value belongs',
      ['fetch', 'https://example.com/', '--format', '--render'],
      /--format needs a value .*got the option '--render'/,
    ],
    ['a value given to a flag', ['validate', '--no-liveness=yes'], /--no-liveness takes no value, got 'yes'/],
    [
      'a repeated single option',
      ['search', 'q', '--limit', '2', '--limit', '3'],
      /--limit is given more than once/,
    ],
    [
      'an unknown command',
      ['serach', 'q'],
      /unknown command 'serach': the commands are search, fetch, extract, web-control, validate, mcp/,
    ],
    ['a bad number', ['search', 'q', '--limit', 'ten'], /search: --limit must be a whole number, got 'ten'/],
    [
      'a negative number',
      ['fetch', 'https://example.com/', '--max-lines', '-5'],
      /--max-lines must be a whole number, got '-5'/,
    ],
    [
      'a bad --run-idle-seconds',
      ['mcp', '--run-idle-seconds', '0'],
      /--run-idle-seconds must be from 1 through 86400, got 0/,
    ],
    ['no query', ['search'], /search takes one query \(quote it\), got none/],
    ['two URLs', ['fetch', 'https://a.example/', 'https://b.example/'], /fetch takes one URL, got 2/],
  ])('%s', async (_name, args, message) => {
    const run = await cli(args);
    expectOneLineRefusal(run, message);
    expect(run.stderr).not.toMatch(/To specify a positional argument|ERR_PARSE_ARGS/);
    expect(web.requests).toHaveLength(0);
  });

  it('under --json the refusal is also a JSON error object on stdout', async () => {
    const run = await cli(['fetch', 'https://example.com/', '--max-line', '3', '--json']);
    expect(run.code).toBe(EXIT_CODES.invalidInput);
    expect(jsonOf(run)).toMatchObject({
      status: 'error',
      code: 'validation_error',
      message: expect.stringMatching(/did you mean --max-lines/),
    });
  });
});

describe('"A missing or unreadable input file, a bad URL or a bad value exits 2 with one line saying what and where"', () => {
  it('extract of a missing file, a directory and an unreadable file', async () => {
    const missing = join(scratch, 'missing.html');
    expectOneLineRefusal(
      await cli(['extract', missing, '--url', 'https://example.com/']),
      new RegExp(`extract: cannot read the input file ${missing}: it does not exist$`),
    );
    expectOneLineRefusal(
      await cli(['extract', scratch, '--url', 'https://example.com/']),
      new RegExp(`extract: cannot read the input file ${scratch}: it is a directory, not a file$`),
    );
    const below = join(scratch, 'page.html', 'inner.html');
    writeFileSync(join(scratch, 'page.html'), '<p>x</p>');
    expectOneLineRefusal(
      await cli(['extract', below, '--url', 'https://example.com/']),
      /cannot read the input file .*inner\.html: a part of its path is not a directory$/,
    );
  });

  // Root reads any file whatever its mode, so the permission case runs only as another user.
  it.skipIf(process.getuid?.() === 0)('extract of a file without read permission', async () => {
    const locked = join(scratch, 'locked.html');
    writeFileSync(locked, '<p>secret</p>');
    chmodSync(locked, 0o000);
    expectOneLineRefusal(
      await cli(['extract', locked, '--url', 'https://example.com/']),
      /cannot read the input file .*locked\.html: permission denied$/,
    );
  });

  it('a configuration file that is missing or a directory', async () => {
    for (const [file, reason] of [
      [join(scratch, 'none.json'), /does not exist/],
      [scratch, /cannot be read \(EISDIR\)/],
    ] as const) {
      const run = await cli(['search', 'q', '--config', file]);
      expect(run.code).toBe(EXIT_CODES.invalidInput);
      const lines = run.stderr.split('\n').filter(Boolean);
      expect(lines).toHaveLength(1);
      expect(lines[0]).toContain(file);
      expect(lines[0]).toMatch(reason);
    }
  });

  it('a bad --url of extract', async () => {
    writeFileSync(join(scratch, 'ok.html'), '<p>x</p>');
    expectOneLineRefusal(
      await cli(['extract', join(scratch, 'ok.html'), '--url', 'example.com/page']),
      /extract: --url must be an absolute http:\/\/ or https:\/\/ URL, got 'example.com\/page'/,
    );
  });

  it.each([
    ['fetch', ['notaurl'], /^mono-agent-web: fetch: <url>: must be an absolute URL \(got "notaurl"\)$/],
    ['fetch', ['ftp://127.0.0.1/x'], /^mono-agent-web: fetch: <url>: must be an http:\/\/ or https:\/\/ URL/],
    [
      'fetch',
      ['https://example.com/', '--max-lines', '10001'],
      /^mono-agent-web: fetch: --max-lines: must be at most 10000 \(got 10001\)$/,
    ],
    [
      'fetch',
      ['https://example.com/', '--format', 'pdf'],
      /^mono-agent-web: fetch: --format: must be one of "markdown", "text" or "raw" \(got "pdf"\)$/,
    ],
    ['search', ['q', '--limit', '11'], /^mono-agent-web: search: --limit: must be at most 10 \(got 11\)$/],
    [
      'search',
      ['q', '--time-range', 'week'],
      /^mono-agent-web: search: --time-range: must be one of "day", "month" or "year"/,
    ],
  ])(
    '%s %j: the model text on stdout, the option named on one stderr line, exit 2',
    async (command, args, line) => {
      const run = await cli([command, ...args]);
      expect(run.code).toBe(EXIT_CODES.invalidInput);
      expect(run.stdout).toMatch(/status: error \| error: validation_error/);
      const lines = run.stderr.split('\n').filter(Boolean);
      expect(lines, run.stderr).toHaveLength(1);
      expect(lines[0]).toMatch(line);
    },
  );
});

describe('"exit 70 is kept for real internal errors, which print a short message and where the full report was written, never a stack trace"', () => {
  it('a bin whose bundle is missing (a broken install) exits 70 with one line naming the report', async () => {
    const broken = mkdtempSync(join(scratch, 'broken-install-'));
    cpSync(BUILT_CLI, join(broken, 'cli.cjs'));
    const run = await new Promise<CliRun>((resolve) => {
      execFile(
        process.execPath,
        [join(broken, 'cli.cjs'), 'fetch', 'https://example.com/'],
        { env: { PATH: process.env.PATH ?? '', HOME: home, TMPDIR: scratch } },
        (error, stdout, stderr) => resolve({ code: error ? Number(error.code ?? 1) : 0, stdout, stderr }),
      );
    });
    expect(run.code).toBe(EXIT_CODES.internalError);
    expect(run.stdout).toBe('');
    const lines = run.stderr.split('\n').filter(Boolean);
    expect(lines, run.stderr).toHaveLength(1);
    expect(run.stderr).not.toMatch(/^\s+at /m);
    const [, file] =
      lines[0]!.match(/^mono-agent-web: internal error: Error: .*cli-main\.cjs.*; full report in (\S+)$/) ??
      [];
    expect(file, lines[0]).toBeDefined();
    expect(dirname(dirname(file!))).toBe(scratch);
    expect(dirname(file!)).toContain('mono-agent-web-internal-error-');
    const report = readFileSync(file!, 'utf8');
    expect(report).toMatch(/^mono-agent-web internal error\n/);
    expect(report).toContain('command: fetch');
    expect(report).toMatch(/^\s+at /m);
    expect(statSync(file!).mode & 0o077).toBe(0);
  });
});

/** Every file under `directory`, recursively. */
function filesUnder(directory: string): string[] {
  return readdirSync(directory, { withFileTypes: true }).flatMap((entry) =>
    entry.isDirectory() ? filesUnder(join(directory, entry.name)) : [join(directory, entry.name)],
  );
}

describe('"No output of an installed package names the folder it was built in"', () => {
  it('no built file of the bin (its code cache included) holds the build folder', () => {
    const dist = join(packageRoot, 'dist');
    const holding = filesUnder(dist).filter((file) => readFileSync(file).includes(repositoryRoot));
    expect(holding.map((file) => file.slice(dist.length + 1))).toEqual([]);
  });

  it('a copy of the package run from elsewhere: its internal-error report names the bundle, not the build folder', async () => {
    // The package copied as an install would place it, every dependency linked but the extraction
    // package, which is replaced by a broken one: extract then fails inside the bundle with a stack.
    const copy = join(mkdtempSync(join(scratch, 'installed-')), 'web');
    mkdirSync(join(copy, 'node_modules/@mono-agent'), { recursive: true });
    cpSync(join(packageRoot, 'dist'), join(copy, 'dist'), { recursive: true });
    cpSync(join(packageRoot, 'package.json'), join(copy, 'package.json'));
    for (const entry of readdirSync(join(packageRoot, 'node_modules'))) {
      if (entry === '@mono-agent' || entry === '.bin') continue;
      symlinkSync(join(packageRoot, 'node_modules', entry), join(copy, 'node_modules', entry));
    }
    for (const entry of readdirSync(join(packageRoot, 'node_modules/@mono-agent'))) {
      if (entry === 'extract') continue;
      symlinkSync(
        join(packageRoot, 'node_modules/@mono-agent', entry),
        join(copy, 'node_modules/@mono-agent', entry),
      );
    }
    const broken = join(copy, 'node_modules/@mono-agent/extract');
    mkdirSync(broken);
    writeFileSync(
      join(broken, 'package.json'),
      JSON.stringify({ name: '@mono-agent/extract', type: 'module', exports: './index.js' }),
    );
    writeFileSync(
      join(broken, 'index.js'),
      "export async function extract() { throw new TypeError('a broken dependency'); }\n",
    );
    // The copy resolves its own name, as an installed package does.
    symlinkSync(copy, join(copy, 'node_modules/@mono-agent/web'));
    expect(existsSync(join(copy, 'dist/bin/cli-main.cjs.cache'))).toBe(true);
    const input = join(scratch, 'input.html');
    writeFileSync(input, '<p>x</p>');
    const run = await new Promise<CliRun>((resolve) => {
      execFile(
        process.execPath,
        [join(copy, 'dist/bin/cli.cjs'), 'extract', input, '--url', 'https://example.com/'],
        { env: { PATH: process.env.PATH ?? '', HOME: home, TMPDIR: scratch } },
        (error, stdout, stderr) => resolve({ code: error ? Number(error.code ?? 1) : 0, stdout, stderr }),
      );
    });
    expect(run.code, run.stderr).toBe(EXIT_CODES.internalError);
    expect(`${run.stdout}${run.stderr}`).not.toContain(repositoryRoot);
    const [, file] = run.stderr.match(/; full report in (\S+)$/m) ?? [];
    expect(file, run.stderr).toBeDefined();
    const report = readFileSync(file!, 'utf8');
    expect(report).toMatch(/\(@mono-agent\/web\/dist\/bin\/cli-main\.cjs:\d+:\d+\)/);
    expect(report).not.toContain(join(packageRoot, 'dist'));
  });
});
