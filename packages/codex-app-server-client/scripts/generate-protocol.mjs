#!/usr/bin/env node
// Regenerates `src/generated/protocol/` from the installed `codex` binary: runs
// `codex app-server generate-ts --experimental`, keeps only the files the client's type roots import
// (transitively), and adds the `.js` extension NodeNext needs to every relative import. The output
// is a pure function of the binary, so the drift test runs this into a temporary folder and diffs.
//
//   node scripts/generate-protocol.mjs [--out DIR] [--binary PATH]
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { homedir, tmpdir } from 'node:os';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const packageDirectory = resolve(dirname(fileURLToPath(import.meta.url)), '..');

// The protocol types the client names; everything they import comes along.
const ROOTS = [
  'InitializeParams',
  'InitializeResponse',
  'ServerRequest',
  'v2/GetAccountParams',
  'v2/GetAccountResponse',
  'v2/ModelListParams',
  'v2/ModelListResponse',
  'v2/ConfigReadParams',
  'v2/GetAccountRateLimitsResponse',
  'v2/AccountRateLimitsUpdatedNotification',
  'v2/ThreadStartParams',
  'v2/ThreadStartResponse',
  'v2/TurnStartParams',
  'v2/TurnStartResponse',
  'v2/TurnInterruptParams',
  'v2/ThreadUnsubscribeParams',
  'v2/ThreadItem',
  'v2/ItemStartedNotification',
  'v2/ItemCompletedNotification',
  'v2/TurnStartedNotification',
  'v2/TurnCompletedNotification',
  'v2/CommandExecutionRequestApprovalResponse',
  'v2/FileChangeRequestApprovalResponse',
  'v2/PermissionsRequestApprovalResponse',
  'v2/McpServerElicitationRequestResponse',
  'v2/DynamicToolCallResponse',
  'v2/ToolRequestUserInputResponse',
  'ApplyPatchApprovalResponse',
  'ExecCommandApprovalResponse',
];

/** The `codex` binary the tests and scripts use: MONO_AGENT_CODEX_BIN, else install-codex.sh's cache. */
export function defaultCodexBinary() {
  if (process.env.MONO_AGENT_CODEX_BIN) return process.env.MONO_AGENT_CODEX_BIN;
  const version = readFileSync(join(packageDirectory, 'src/generated/protocol/CODEX_VERSION'), 'utf8').trim();
  const cache =
    process.env.MONO_AGENT_CODEX_CACHE ||
    join(process.env.XDG_CACHE_HOME || join(homedir(), '.cache'), 'mono-agent-web', `codex-${version}`);
  return join(cache, 'node_modules/.bin/codex');
}

/** Writes the generated protocol files of `binary` into `outDirectory` (replacing it). */
export function generateProtocol(binary, outDirectory) {
  const scratch = mkdtempSync(join(tmpdir(), 'codex-protocol-'));
  try {
    const raw = join(scratch, 'raw');
    const environment = { ...process.env, CODEX_HOME: join(scratch, 'home') };
    mkdirSync(environment.CODEX_HOME);
    execFileSync(binary, ['app-server', 'generate-ts', '--experimental', '--out', raw], {
      env: environment,
      stdio: ['ignore', 'ignore', 'ignore'],
    });
    const version = execFileSync(binary, ['--version'], {
      env: environment,
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'ignore'],
    })
      .trim()
      .replace(/^codex-cli\s+/, '');
    const files = new Map();
    const pending = ROOTS.map((root) => `${root}.ts`);
    while (pending.length > 0) {
      const file = pending.pop();
      if (files.has(file)) continue;
      const text = readFileSync(join(raw, file), 'utf8');
      const rewritten = text.replace(/from "(\.{1,2}\/[^"]+)"/g, (_match, specifier) => {
        pending.push(relative(raw, resolve(join(raw, dirname(file)), `${specifier}.ts`)));
        return `from "${specifier}.js"`;
      });
      files.set(file, rewritten);
    }
    rmSync(outDirectory, { recursive: true, force: true });
    for (const [file, text] of [...files].sort(([a], [b]) => a.localeCompare(b))) {
      mkdirSync(dirname(join(outDirectory, file)), { recursive: true });
      writeFileSync(join(outDirectory, file), text);
    }
    writeFileSync(join(outDirectory, 'CODEX_VERSION'), `${version}\n`);
    return { version, files: files.size };
  } finally {
    rmSync(scratch, { recursive: true, force: true });
  }
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const argumentsList = process.argv.slice(2);
  const option = (name) => {
    const index = argumentsList.indexOf(name);
    return index === -1 ? undefined : argumentsList[index + 1];
  };
  const binary = option('--binary') ?? defaultCodexBinary();
  if (!existsSync(binary)) {
    console.error(`codex binary not found at ${binary}; run scripts/install-codex.sh first`);
    process.exit(2);
  }
  const out = resolve(option('--out') ?? join(packageDirectory, 'src/generated/protocol'));
  const { version, files } = generateProtocol(binary, out);
  console.log(`generated ${files} files from codex-cli ${version} into ${out}`);
}
