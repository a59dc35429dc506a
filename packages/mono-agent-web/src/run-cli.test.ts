import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { EXIT_CODES } from './exit-codes.js';
import { runCli } from './run-cli.js';

async function run(argv: string[]) {
  let stdout = '';
  let stderr = '';
  const code = await runCli(argv, {
    stdout: (text) => {
      stdout += text;
    },
    stderr: (text) => {
      stderr += text;
    },
  });
  return { code, stdout, stderr };
}

describe('runCli', () => {
  it('prints help with the exit codes for --help and for no command', async () => {
    for (const argv of [['--help'], ['-h'], []]) {
      const result = await run(argv);
      expect(result.code).toBe(EXIT_CODES.success);
      expect(result.stdout).toMatch(/^mono-agent-web \d+\.\d+\.\d+/);
      expect(result.stdout).toContain('Usage:');
      expect(result.stdout).toContain('invalid arguments');
      expect(result.stderr).toBe('');
    }
  });

  it('prints the version of the package.json', async () => {
    const manifest = (await import('../package.json', { with: { type: 'json' } })).default;
    const result = await run(['--version']);
    expect(result.stdout).toBe(`${manifest.version}\n`);
  });

  it('rejects unknown options and commands with the invalid-input code', async () => {
    const unknownOption = await run(['--frobnicate']);
    expect(unknownOption.code).toBe(EXIT_CODES.invalidInput);
    expect(unknownOption.stderr).toContain("unknown option '--frobnicate'");
    const unknownCommand = await run(['teleport']);
    expect(unknownCommand.code).toBe(EXIT_CODES.invalidInput);
    expect(unknownCommand.stderr).toContain("unknown command 'teleport'");
    expect(unknownCommand.stdout).toBe('');
  });
});

describe('the bin', () => {
  it('runs as a process and exits with the code runCli returns', async () => {
    const tsx = fileURLToPath(new URL('../../../node_modules/.bin/tsx', import.meta.url));
    const cli = fileURLToPath(new URL('./cli.ts', import.meta.url));
    const { stdout } = await promisify(execFile)(tsx, [cli, '--help']);
    expect(stdout).toContain('Usage:');
    await expect(promisify(execFile)(tsx, [cli, 'teleport'])).rejects.toMatchObject({ code: 2 });
  });
});
