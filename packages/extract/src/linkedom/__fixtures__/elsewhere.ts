// Runs one exported function of a TypeScript module somewhere other than the test's own thread, and
// hands back what it returns: in a worker thread, as the extraction pool runs extraction (the
// listener-map speed-up installs only there), or in the main thread of a new Node process, as a
// library user calls extract() (with no test runner beside it). tsx loads the source, with the
// workspace's source condition, as the pool loads its worker's.
import { spawn } from 'node:child_process';
import { createRequire } from 'node:module';
import { pathToFileURL } from 'node:url';
import { Worker } from 'node:worker_threads';

/** What the code answers: the function's value, or the error it threw. */
type Reply = { value: unknown } | { error: string };

const CONDITIONS = '--conditions=@mono-agent/source';

/** The code that loads `name` of `module` through tsx, calls it and sends the reply with `send`. */
function boot(module: URL, name: string, send: string): string {
  const tsx = createRequire(import.meta.url)
    .resolve('tsx/esm/api')
    .replace(/\.cjs$/, '.mjs');
  return [
    `const { register } = await import(${JSON.stringify(pathToFileURL(tsx).href)});`,
    'register();',
    "const { parentPort } = await import('node:worker_threads');",
    `const send = ${send};`,
    'try {',
    `  const loaded = await import(${JSON.stringify(module.href)});`,
    `  send({ value: await loaded[${JSON.stringify(name)}]() });`,
    '} catch (error) {',
    '  send({ error: String(error instanceof Error ? error.stack : error) });',
    '}',
  ].join('\n');
}

function answer<T>(reply: Reply, where: string): T {
  if ('error' in reply) throw new Error(`in the ${where}: ${reply.error}`);
  return reply.value as T;
}

/** Calls `name` of the module at `module` in a new worker thread; resolves to its (awaited) value. */
export async function inWorker<T>(module: URL, name: string): Promise<T> {
  const code = boot(module, name, '(reply) => parentPort.postMessage(reply)');
  const worker = new Worker(new URL(`data:text/javascript,${encodeURIComponent(code)}`), {
    execArgv: [CONDITIONS],
  });
  try {
    const reply = await new Promise<Reply>((resolve, reject) => {
      worker.once('message', resolve);
      worker.once('error', reject);
      worker.once('exit', (code) => reject(new Error(`the worker exited (${code}) without an answer`)));
    });
    return answer<T>(reply, 'worker');
  } finally {
    await worker.terminate();
  }
}

/**
 * Calls `name` of the module at `module` in the main thread of a new Node process; resolves to its
 * (awaited) value, which must survive JSON.
 */
export async function inProcess<T>(module: URL, name: string): Promise<T> {
  const code = boot(module, name, '(reply) => process.send(reply, () => process.exit(0))');
  const child = spawn(process.execPath, [CONDITIONS, '--input-type=module', '--eval', code], {
    stdio: ['ignore', 'ignore', 'pipe', 'ipc'],
  });
  let errors = '';
  child.stderr?.on('data', (chunk: Buffer) => {
    errors += chunk.toString();
  });
  try {
    const reply = await new Promise<Reply>((resolve, reject) => {
      child.once('message', (message) => resolve(message as Reply));
      child.once('error', reject);
      child.once('exit', (code) =>
        reject(new Error(`the process exited (${code}) without an answer: ${errors.slice(-2000)}`)),
      );
    });
    return answer<T>(reply, 'process');
  } finally {
    child.kill();
  }
}
