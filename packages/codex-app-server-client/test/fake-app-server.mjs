#!/usr/bin/env node
// A scripted stand-in for `codex app-server`: newline-delimited JSON-RPC on stdio, answering with the
// recorded shapes in __fixtures__/app-server-shapes.json and replaying the scenario given as a JSON
// file path (argv[2]). It logs every line it receives, and its own environment, for the tests to audit.
//
// Scenario fields (all optional):
//   log, envDump          files to append received lines to / write process.env into
//   responses             { method: reply | reply[] } overriding the defaults, where a reply is
//                         { result } | { error } | { noReply: true }; a list is used in order, the last repeating
//   modelPages            arrays of model entries, one per model/list page
//   mcpServers            the `mcp_servers` table returned by config/read
//   on                    { method: actions[] } run after answering that method; a { "respond": true }
//                         action sends the answer at that point instead of first
//   results               the value put in place of "$RESULTS"
//   ignoreStdinEnd, ignoreSigterm, ignoreInterrupt
// Actions: { send: message } (placeholders $THREAD, $TURN, $CWD, $QUERY, $RESULTS), { line: "raw" },
//          { exit: code }, { respond: true }, { stderr: "text" }, { delay: ms }
import { appendFileSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';

const shapes = JSON.parse(
  readFileSync(join(dirname(fileURLToPath(import.meta.url)), '__fixtures__/app-server-shapes.json'), 'utf8'),
);
// Re-read before every request, so one process can serve a series of scenarios.
const loadScenario = () => (process.argv[2] ? JSON.parse(readFileSync(process.argv[2], 'utf8')) : {});
let scenario = loadScenario();
if (scenario.envDump) writeFileSync(scenario.envDump, JSON.stringify({ pid: process.pid, env: process.env }));

const context = { THREAD: 'thread-0001', TURN: 'turn-0001', CWD: '', QUERY: '' };
let threads = 0;
let initialized = false;

const fill = (value) => {
  if (typeof value === 'string') {
    if (value === '$RESULTS') return 'results' in scenario ? scenario.results : [];
    return value.replace(/\$(THREAD|TURN|CWD|QUERY)/g, (_match, name) => context[name]);
  }
  if (Array.isArray(value)) return value.map(fill);
  if (value !== null && typeof value === 'object') {
    return Object.fromEntries(Object.entries(value).map(([key, entry]) => [key, fill(entry)]));
  }
  return value;
};

const write = (message) => process.stdout.write(`${JSON.stringify(fill(message))}\n`);

const defaults = {
  initialize: () => ({ result: shapes.live.initialize }),
  'account/read': () => ({ result: shapes.schema.accountChatgpt }),
  'modelProvider/capabilities/read': () => ({ result: shapes.live.capabilities }),
  'account/rateLimits/read': () => ({ result: shapes.schema.rateLimits }),
  'config/read': () => ({
    result: { config: { mcp_servers: scenario.mcpServers ?? {} }, origins: {}, layers: null },
  }),
  'model/list': (params) => {
    const pages = scenario.modelPages ?? [[shapes.live.modelSol, shapes.live.modelLuna]];
    const index = params?.cursor ? Number(params.cursor) : 0;
    const next = index + 1 < pages.length ? String(index + 1) : null;
    return { result: { data: pages[index] ?? [], nextCursor: next } };
  },
  'thread/start': () => ({ result: shapes.live.threadStart }),
  'turn/start': () => ({ result: shapes.schema.turnStart }),
  'turn/interrupt': () => ({ result: {} }),
  'thread/unsubscribe': () => ({ result: { status: 'unsubscribed' } }),
};

const replyCounts = new Map();
const pickOverride = (method) => {
  const override = scenario.responses?.[method];
  if (!Array.isArray(override)) return override;
  const count = replyCounts.get(method) ?? 0;
  replyCounts.set(method, count + 1);
  return override[Math.min(count, override.length - 1)];
};

const run = async (action, answer) => {
  if (action.respond) answer();
  else if (action.delay !== undefined) await new Promise((resolve) => setTimeout(resolve, action.delay));
  else if (action.send) write(action.send);
  else if (action.line !== undefined) process.stdout.write(`${action.line}\n`);
  else if (action.stderr !== undefined) process.stderr.write(`${action.stderr}\n`);
  else if (action.exit !== undefined) process.exit(action.exit);
};

// What the placeholders stand for, taken from the requests whether or not their answer is overridden.
const track = (method, params) => {
  if (method === 'thread/start') {
    threads += 1;
    context.THREAD = `thread-${String(threads).padStart(4, '0')}`;
    context.CWD = params?.cwd ?? '';
  } else if (method === 'turn/start') {
    context.QUERY = params?.input?.[0]?.text ?? '';
  }
};

const handleRequest = async (message) => {
  const { id, method, params } = message;
  track(method, params);
  if (method !== 'initialize' && !initialized) {
    write({ id, error: { code: -32600, message: 'Not initialized' } });
    return;
  }
  const override = pickOverride(method);
  const reply = override ??
    defaults[method]?.(params) ?? {
      error: { code: -32600, message: `Invalid request: unknown variant \`${method}\`` },
    };
  let answered = false;
  const answer = () => {
    if (answered || reply.noReply) return;
    answered = true;
    write({ id, ...('error' in reply ? { error: reply.error } : { result: reply.result }) });
  };
  const actions = scenario.on?.[method] ?? [];
  if (!actions.some((action) => action.respond)) answer();
  for (const action of actions) await run(action, answer);
  if (method === 'initialize') {
    initialized = true;
    for (const notification of shapes.live.startupNotifications) write(notification);
  }
  if (method === 'turn/interrupt' && !scenario.ignoreInterrupt) {
    write({
      method: 'turn/completed',
      params: { threadId: '$THREAD', turn: { id: '$TURN', items: [], status: 'interrupted', error: null } },
    });
  }
};

// Requests are handled one after another, so a scenario's delays keep their order.
let queue = Promise.resolve();
const lines = createInterface({ input: process.stdin });
lines.on('line', (line) => {
  if (scenario.log) appendFileSync(scenario.log, `${line}\n`);
  let message;
  try {
    message = JSON.parse(line);
  } catch {
    process.stderr.write(`Failed to deserialize JSONRPCMessage: ${line.slice(0, 80)}\n`);
    return;
  }
  if (typeof message.method === 'string' && message.id !== undefined) {
    queue = queue.then(() => {
      scenario = loadScenario();
      return handleRequest(message);
    });
  }
});
lines.on('close', () => {
  if (!scenario.ignoreStdinEnd) void queue.then(() => process.exit(0));
});
process.on('SIGTERM', () => {
  if (!scenario.ignoreSigterm) process.exit(0);
});
// Keeps the process alive after stdin ends when the scenario ignores it.
setInterval(() => {}, 1 << 30);
