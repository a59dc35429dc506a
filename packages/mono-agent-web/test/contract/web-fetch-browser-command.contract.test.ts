// Contract: "A missing browser says what to do. With rendering enabled and browserCommand not found
// or not agent-browser, the failure is configuration_error with a reason that names agent-browser,
// the version needed and the setting and environment variable that point at it." Driven through the
// built bin and the MCP server over stdio; no browser is needed.
import { chmod, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { MIN_AGENT_BROWSER_VERSION } from '@mono-agent/extract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EXIT_CODES } from '../../src/exit-codes.js';
import { jsonOf, runBuiltCli } from './support/built-cli.js';
import { startMcp } from './support/mcp-stdio.js';

let root: string;
let site: Server;
let pageUrl: string;

beforeAll(async () => {
  root = await mkdtemp(join(tmpdir(), 'browser-command-'));
  site = createServer((_request, response) => {
    response.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
    response.end('<!doctype html><html><body><div id="root">Loading...</div></body></html>');
  });
  await new Promise<void>((resolve) => site.listen(0, '127.0.0.1', resolve));
  pageUrl = `http://127.0.0.1:${(site.address() as AddressInfo).port}/app`;
});
afterAll(async () => {
  await new Promise((resolve) => site.close(resolve));
  await rm(root, { recursive: true, force: true });
});

/** An executable script at `name` under the test folder that prints `output` for any arguments. */
async function program(name: string, output: string): Promise<string> {
  const path = join(root, name);
  await writeFile(path, `#!/bin/sh\nprintf '%s\\n' '${output}'\n`);
  await chmod(path, 0o755);
  return path;
}

/** What every refusal must name: the program, the version needed, the setting and the variable. */
function expectActionableReason(reason: string): void {
  expect(reason).toContain('agent-browser');
  expect(reason).toContain(MIN_AGENT_BROWSER_VERSION);
  expect(reason).toContain('tools.web.fetch.browserCommand');
  expect(reason).toContain('MONO_AGENT_WEB_BROWSER_COMMAND');
}

async function fetchWith(browserCommand: string) {
  const home = await mkdtemp(join(root, 'home-'));
  return runBuiltCli(['fetch', pageUrl, '--render', 'always', '--json'], {
    home,
    env: {
      TMPDIR: root,
      MONO_AGENT_NETWORK_MODE: 'localhost',
      MONO_AGENT_WEB_FETCH_RENDER: 'auto',
      MONO_AGENT_WEB_BROWSER_COMMAND: browserCommand,
    },
  });
}

describe('"A missing browser says what to do"', () => {
  // Each with the words that say which of the three it was.
  const cases: [string, () => Promise<string>, RegExp][] = [
    ['not found', async () => join(root, 'no such folder', 'agent-browser'), /was not found/],
    [
      'another program',
      async () => program('not-a-browser', 'chromium 156.0.8078.108'),
      /is not agent-browser/,
    ],
    [
      'an agent-browser too old',
      async () => program('old-agent-browser', 'agent-browser 0.27.0'),
      /0\.27\.0 .*is older than/,
    ],
  ];
  for (const [name, command, reason] of cases) {
    it(`browserCommand ${name}: configuration_error, naming agent-browser ${MIN_AGENT_BROWSER_VERSION}, tools.web.fetch.browserCommand and MONO_AGENT_WEB_BROWSER_COMMAND`, async () => {
      const run = await fetchWith(await command());
      expect(run.code).toBe(EXIT_CODES.invalidInput);
      const data = jsonOf<{ status: string; code: string; message: string }>(run);
      expect([data.status, data.code]).toEqual(['error', 'configuration_error']);
      expectActionableReason(data.message);
      expect(data.message).toMatch(reason);
    });
  }

  it('the same refusal reaches an MCP client', async () => {
    const home = await mkdtemp(join(root, 'home-'));
    const session = await startMcp(
      {
        TMPDIR: root,
        MONO_AGENT_NETWORK_MODE: 'localhost',
        MONO_AGENT_WEB_FETCH_RENDER: 'auto',
        MONO_AGENT_WEB_BROWSER_COMMAND: await program('printer', 'hello 1.2.3'),
      },
      home,
    );
    try {
      const result = await session.call('WebFetch', { url: pageUrl, render: 'always' });
      expect(result.isError).toBe(true);
      expect(result.text).toMatch(/^WebFetch status: error \| error: configuration_error/);
      expectActionableReason(result.text);
    } finally {
      await session.close();
    }
  });
});
