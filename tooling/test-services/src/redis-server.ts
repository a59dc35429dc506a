// Starts Debian's `redis-server` on a free loopback port with a private temporary directory and no
// persistence, for tests and benchmarks; `stop()` ends it and removes the directory.
import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** A running private Redis server. */
export interface TestRedisServer {
  /** `redis://127.0.0.1:<port>`. */
  url: string;
  port: number;
  /** Ends the server (SIGTERM, then SIGKILL) and waits for it. */
  stop(): Promise<void>;
  /** Starts it again on the same port after {@link stop}. */
  restart(): Promise<void>;
  /** Stops it and removes its directory. */
  dispose(): Promise<void>;
}

/** Whether a `redis-server` binary is on PATH. */
export function hasRedisServer(): boolean {
  return spawnSync('redis-server', ['--version'], { stdio: 'ignore' }).status === 0;
}

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.unref();
    server.on('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => resolve(typeof address === 'object' && address !== null ? address.port : 0));
    });
  });
}

async function waitForPort(port: number, deadline: number): Promise<void> {
  for (;;) {
    const open = await new Promise<boolean>((resolve) => {
      const socket = new Socket();
      socket.once('connect', () => {
        socket.destroy();
        resolve(true);
      });
      socket.once('error', () => resolve(false));
      socket.connect(port, '127.0.0.1');
    });
    if (open) return;
    if (Date.now() > deadline) throw new Error(`redis-server did not listen on ${port}`);
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

/**
 * Starts a private server; fails when `redis-server` is missing (run `pnpm setup:system`). With a
 * `password`, clients must authenticate and `url` carries it.
 */
export async function startRedisServer(options: { password?: string } = {}): Promise<TestRedisServer> {
  const directory = mkdtempSync(join(tmpdir(), 'redis-test-'));
  const port = await freePort();
  let child: ChildProcess | undefined;
  const launch = async () => {
    child = spawn(
      'redis-server',
      [
        '--port',
        String(port),
        '--bind',
        '127.0.0.1',
        '--dir',
        directory,
        '--save',
        '',
        '--appendonly',
        'no',
        ...(options.password === undefined ? [] : ['--requirepass', options.password]),
      ],
      { stdio: 'ignore' },
    );
    await waitForPort(port, Date.now() + 10_000);
  };
  const stop = async () => {
    const running = child;
    child = undefined;
    if (running === undefined || running.exitCode !== null) return;
    const exited = new Promise<void>((resolve) => running.once('exit', () => resolve()));
    running.kill('SIGTERM');
    const timer = setTimeout(() => running.kill('SIGKILL'), 3_000);
    await exited;
    clearTimeout(timer);
  };
  await launch();
  return {
    url:
      options.password === undefined
        ? `redis://127.0.0.1:${port}`
        : `redis://:${encodeURIComponent(options.password)}@127.0.0.1:${port}`,
    port,
    restart: launch,
    stop,
    async dispose() {
      await stop();
      rmSync(directory, { recursive: true, force: true });
    },
  };
}
