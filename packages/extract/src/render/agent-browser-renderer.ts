import { randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import { chmod, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { WebToolError } from '@mono-agent/budget-policy';
import type { LookupFunction } from '@mono-agent/net';
import type { DocumentRenderer, RenderedPage, RenderRequestOptions } from '../fetch-document.js';
import { checkAgentBrowserVersion } from './agent-browser-version.js';
import {
  type BrowserInvocation,
  BrowserStepFailure,
  BrowserStepInterrupted,
  runBrowserStep,
} from './browser-step.js';
import { domQuietPredicate } from './dom-quiet-predicate.js';
import { bootTicksNow, killRenderProcesses } from './process-tree.js';
import {
  assertSameOrigin,
  pageContent,
  READ_PAGE_EXPRESSION,
  readablePage,
  readWithRetry,
  stepFailure,
} from './render-outcome.js';
import { RENDER_PROXY_HOST, type RenderProxy, startRenderProxy } from './render-proxy.js';

/** One render's whole budget: launch, navigation, settle, reading and closing. */
export const RENDER_BUDGET_MS = 20_000;

/**
 * The end of the budget kept for cleanup (killing the session, removing its folder), so that a
 * render that runs out still ends, cleaned up, within {@link RENDER_BUDGET_MS}.
 */
export const CLEANUP_RESERVE_MS = 1_000;

/** The most of the budget a clean `close` may use; past it the session is killed instead. */
export const CLOSE_TIMEOUT_MS = 3_000;

/** The most a look at where the browser is (after a step failed) may take. */
const LOCATE_TIMEOUT_MS = 2_000;

/** How long a read that found no page waits before it reads once more ({@link readWithRetry}). */
const REREAD_PAUSE_MS = 250;

/** The daemon's own backstop: it exits after this much idleness even if nobody closes it. */
export const DAEMON_IDLE_TIMEOUT = '30s';

/** Debian's Chromium binary (not the `/usr/bin/chromium` shell wrapper, which adds flags of its own). */
export const DEBIAN_CHROMIUM = '/usr/lib/chromium/chromium';

/**
 * Chromium switches that keep a hidden headless page's timers at full speed; without them a 300 ms
 * timeout fires after about 1.4 s and the page is read while it still says "Loading...".
 */
export const TIMER_THROTTLING_SWITCHES = [
  '--disable-background-timer-throttling',
  '--disable-renderer-backgrounding',
  '--disable-backgrounding-occluded-windows',
] as const;

/** Environment variables passed through from the parent: the program search path and the operator's browser choice. */
const PASSED_ENVIRONMENT = ['PATH', 'AGENT_BROWSER_EXECUTABLE_PATH'] as const;

/** Options of {@link createAgentBrowserRenderer}. */
export interface AgentBrowserRendererOptions {
  /** The agent-browser executable (a name on PATH or a path), run directly. */
  command: string;
  /** The browser executable; Debian's Chromium when it is installed, else agent-browser's own choice. */
  executablePath?: string | undefined;
  /** The render budget in milliseconds; {@link RENDER_BUDGET_MS} by default (tests may lower it). */
  budgetMs?: number | undefined;
  /** Where each render's temporary HOME/TMPDIR folder is made; the OS temp folder by default. */
  temporaryRoot?: string | undefined;
  /** The resolver used to pin the browser to a policy-approved address; the system resolver by default. */
  lookup?: LookupFunction | undefined;
}

/**
 * The longest Unix socket path agent-browser accepts (macOS allows 104 bytes with the terminator).
 * The daemon's socket lives at `<HOME>/.agent-browser/namespaces/<namespace>/run/<session>.sock`, so
 * the names are short and the temporary folder must not be deep.
 */
export const MAX_SOCKET_PATH_BYTES = 103;

function randomName(prefix: string): string {
  // 32 random bits: each render also has a HOME of its own, so the names only need to differ there.
  return `${prefix}${randomBytes(4).toString('hex')}`;
}

function hostResolverRules(hostname: string, address: string): string {
  const target = address.includes(':') ? `[${address}]` : address;
  // Every other name fails to resolve, so a page cannot reach another host through DNS at all. The
  // rules apply to the proxy's address too, so it keeps its own.
  return `--host-resolver-rules=MAP ${hostname} ${target}, MAP ${RENDER_PROXY_HOST} ${RENDER_PROXY_HOST}, MAP * ~NOTFOUND`;
}

/** Settles like `promise`, or rejects as soon as `signal` fires (the promise is left to finish unobserved). */
function untilAborted<Value>(promise: Promise<Value>, signal: AbortSignal): Promise<Value> {
  if (signal.aborted) return Promise.reject(new BrowserStepInterrupted('interrupted before the step'));
  return new Promise((resolve, reject) => {
    const onAbort = () => reject(new BrowserStepInterrupted('interrupted'));
    signal.addEventListener('abort', onAbort, { once: true });
    promise.then(
      (value) => {
        signal.removeEventListener('abort', onAbort);
        resolve(value);
      },
      (error: unknown) => {
        signal.removeEventListener('abort', onAbort);
        reject(error);
      },
    );
  });
}

function interrupted(signal: AbortSignal | undefined, budgetMs: number, overrun: boolean): WebToolError {
  if (signal?.aborted && !overrun) {
    return new WebToolError({
      code: 'cancelled',
      message: 'the browser render was cancelled',
      cause: signal.reason,
    });
  }
  return new WebToolError({
    code: 'timeout',
    message: `the browser render did not finish within ${budgetMs / 1000} s; the browser was stopped`,
    details: { timeoutMs: budgetMs },
  });
}

/** The page a render is asked for: its URL, which must be http(s), and the port and host name it is reached at. */
function renderTarget(url: string): { target: URL; port: number; hostname: string } {
  const target = new URL(url);
  if (target.protocol !== 'http:' && target.protocol !== 'https:') {
    throw new WebToolError({
      code: 'validation_error',
      message: 'only http(s) pages can be rendered',
      details: {},
    });
  }
  const port = Number(target.port || (target.protocol === 'https:' ? 443 : 80));
  const hostname = target.hostname.startsWith('[') ? target.hostname.slice(1, -1) : target.hostname;
  return { target, port, hostname };
}

/** Refuses a temporary folder so deep that the browser's control socket path would not fit. */
function assertSocketPathFits(socketPath: string, temporaryRoot: string): void {
  if (Buffer.byteLength(socketPath) > MAX_SOCKET_PATH_BYTES) {
    throw new WebToolError({
      code: 'configuration_error',
      message: `the temporary folder ${temporaryRoot} is too deep for the browser's control socket (${Buffer.byteLength(socketPath)} of ${MAX_SOCKET_PATH_BYTES} bytes); set TMPDIR to a shorter folder such as /tmp`,
      details: { reason: 'socket_path' },
    });
  }
}

/** What one render's browser invocation names: its daemon, its files, the page's host and the proxy. */
interface InvocationParts {
  namespace: string;
  session: string;
  configPath: string;
  executablePath: string | undefined;
  hostname: string;
  address: string;
  proxyUrl: string;
}

/** How one render invokes agent-browser, with `root` as its home and temporary folder. */
function browserInvocation(command: string, root: string, parts: InvocationParts): BrowserInvocation {
  const { namespace, session, configPath, executablePath, hostname, address, proxyUrl } = parts;
  const environment: Record<string, string> = {
    HOME: root,
    TMPDIR: root,
    AGENT_BROWSER_NO_VERSION_CHECK: '1',
    AGENT_BROWSER_AUTOSAVE_INTERVAL_MS: '0',
  };
  for (const name of PASSED_ENVIRONMENT) {
    const value = process.env[name];
    if (value !== undefined) environment[name] = value;
  }
  environment.PATH ??= '/usr/bin:/bin';
  return {
    command,
    globalArguments: [
      '--namespace',
      namespace,
      '--session',
      session,
      '--config',
      configPath,
      ...(executablePath === undefined ? [] : ['--executable-path', executablePath]),
      '--allowed-domains',
      hostname,
      '--idle-timeout',
      DAEMON_IDLE_TIMEOUT,
      '--restore-save',
      'never',
      '--json',
      // Page output carries agent-browser's untrusted-content boundary (nonce and origin).
      '--content-boundaries',
      '--args',
      // Commas separate switches only before another switch; the resolver rule keeps its own.
      [
        TIMER_THROTTLING_SWITCHES.join(','),
        hostResolverRules(hostname, address),
        `--proxy-server=${proxyUrl}`,
        // Chromium sends loopback destinations around a proxy unless told otherwise.
        '--proxy-bypass-list=<-loopback>',
        // WebRTC (which agent-browser also disables) may then use only proxied connections.
        '--force-webrtc-ip-handling-policy=disable_non_proxied_udp',
      ].join('\n'),
    ],
    environment,
  };
}

/**
 * A {@link DocumentRenderer} driving agent-browser on a local Chromium. Each render runs in its own
 * temporary HOME/TMPDIR with a random namespace and session, an empty read-only config file, an
 * allow-listed environment, `--allowed-domains` set to the page's host, Chromium's resolver pinned to
 * the address the network policy approved, no profile, state, restore, CDP, auto-connect or autosave,
 * and timer throttling off. It opens the page, waits for DOMContentLoaded and a bounded quiet DOM,
 * reads the rendered HTML with its document's address, checks that address's origin and the tab's
 * itself (the allowlist ignores ports; a page that left for another origin during any step is
 * refused, see `render-outcome.ts`), and closes the browser. On overrun or cancellation, and after
 * every render, it kills the session's whole process tree and removes the temporary folder.
 */
export function createAgentBrowserRenderer(options: AgentBrowserRendererOptions): DocumentRenderer {
  const renderBudgetMs = options.budgetMs ?? RENDER_BUDGET_MS;
  const executablePath =
    options.executablePath ?? (existsSync(DEBIAN_CHROMIUM) ? DEBIAN_CHROMIUM : undefined);
  let versionChecked: Promise<void> | undefined;

  const ensureVersion = () => {
    versionChecked ??= checkAgentBrowserVersion(options.command).then((check) => {
      if (!check.ok) {
        versionChecked = undefined;
        throw new WebToolError({
          code: 'configuration_error',
          message: check.reason,
          details: {
            reason: check.refusal,
            ...(check.version === undefined ? {} : { version: check.version }),
          },
        });
      }
    });
    return versionChecked;
  };

  return {
    async render(url: string, request: RenderRequestOptions): Promise<RenderedPage> {
      const startedAt = performance.now();
      const budgetMs = Math.max(1, Math.min(renderBudgetMs, request.deadlineMs ?? renderBudgetMs));
      const { target, port, hostname } = renderTarget(url);
      const controller = new AbortController();
      let overrun = false;
      const timer = setTimeout(
        () => {
          overrun = true;
          controller.abort();
        },
        Math.max(1, budgetMs - CLEANUP_RESERVE_MS),
      );
      const onAbort = () => controller.abort();
      request.signal?.addEventListener('abort', onAbort, { once: true });
      if (request.signal?.aborted) controller.abort();
      const release = () => {
        clearTimeout(timer);
        request.signal?.removeEventListener('abort', onAbort);
      };
      const namespace = randomName('w');
      const session = randomName('s');
      const temporaryRoot = options.temporaryRoot ?? tmpdir();
      const socketPath = join(
        temporaryRoot,
        'mar-XXXXXX',
        '.agent-browser',
        'namespaces',
        namespace,
        'run',
        `${session}.sock`,
      );
      let address: string;
      try {
        assertSocketPathFits(socketPath, temporaryRoot);
        const net = await import('@mono-agent/net');
        // The browser resolves names itself; it is pinned to this checked address below, so a
        // rebinding answer cannot send it anywhere else.
        address = await untilAborted(
          net.resolveCheckedAddress(request.policy, options.lookup ?? net.systemLookup, hostname, port),
          controller.signal,
        ).catch((error: unknown) => {
          if (WebToolError.isInstance(error) || controller.signal.aborted) throw error;
          throw new WebToolError({
            code: 'backend_unavailable',
            message: `${hostname} could not be resolved, so it was not rendered`,
            details: { reason: 'dns' },
            cause: error,
          });
        });
        await untilAborted(ensureVersion(), controller.signal);
      } catch (error) {
        release();
        if (controller.signal.aborted && !WebToolError.isInstance(error)) {
          throw interrupted(request.signal, budgetMs, overrun);
        }
        throw error;
      }
      const startedAtTicks = await bootTicksNow();
      const root = await mkdtemp(join(temporaryRoot, 'mar-')).catch((error: unknown) => {
        release();
        throw new WebToolError({
          code: 'configuration_error',
          message: `no temporary folder for the browser could be made in ${temporaryRoot}`,
          details: { reason: 'temporary_folder' },
          cause: error,
        });
      });
      const configPath = join(root, 'config.json');
      const pidFile = join(root, '.agent-browser', 'namespaces', namespace, 'run', `${session}.pid`);
      let daemonPid: number | undefined;
      const readDaemonPid = async () => {
        try {
          const pid = Number((await readFile(pidFile, 'utf8')).trim());
          if (Number.isInteger(pid) && pid > 1) daemonPid = pid;
        } catch {
          // Not written yet, or already removed by close.
        }
      };
      let proxy: RenderProxy | undefined;
      try {
        // Every request of the page goes through this proxy, which admits only the page's own host and
        // port at the approved address: `--allowed-domains` matches host names and lets other ports of
        // the same host through.
        proxy = await startRenderProxy({ host: hostname, port, address });
        await writeFile(configPath, '{}\n', { mode: 0o400 });
        await chmod(configPath, 0o400);
        const invocation = browserInvocation(options.command, root, {
          namespace,
          session,
          configPath,
          executablePath,
          hostname,
          address,
          proxyUrl: proxy.url,
        });
        const remaining = () => budgetMs - CLEANUP_RESERVE_MS - (performance.now() - startedAt);
        // The URL the tab shows (for an error page, the address it tried), or undefined when unknown.
        const locate = async (): Promise<string | undefined> => {
          if (controller.signal.aborted || remaining() <= 0) return undefined;
          const location = await runBrowserStep(invocation, ['get', 'url'], {
            timeoutMs: Math.min(LOCATE_TIMEOUT_MS, remaining()),
            signal: controller.signal,
          }).catch(() => undefined);
          return typeof location?.url === 'string' ? location.url : undefined;
        };
        const step = async (stepArguments: string[]) => {
          if (controller.signal.aborted) throw interrupted(request.signal, budgetMs, overrun);
          try {
            return await runBrowserStep(invocation, stepArguments, {
              timeoutMs: Math.max(1, remaining()),
              signal: controller.signal,
            });
          } catch (error) {
            // A step that failed because the render was being stopped reports the stop, not the
            // failure: a cancelled call is never a browser that could not render.
            if (error instanceof BrowserStepInterrupted || controller.signal.aborted)
              throw interrupted(request.signal, budgetMs, overrun || remaining() <= 0);
            if (error instanceof BrowserStepFailure) {
              const failure = await stepFailure(error, target, locate);
              if (controller.signal.aborted) throw interrupted(request.signal, budgetMs, overrun);
              throw failure;
            }
            throw error;
          } finally {
            if (daemonPid === undefined) await readDaemonPid();
          }
        };

        await step(['open', url]);
        await step(['wait', '--load', 'domcontentloaded']);
        await step(['wait', '--fn', domQuietPredicate()]);
        const read = async () => pageContent(await step(['eval', READ_PAGE_EXPRESSION]));
        const page = await readWithRetry(read, () =>
          sleep(REREAD_PAUSE_MS, undefined, { signal: controller.signal }).catch(() => {
            throw interrupted(request.signal, budgetMs, overrun);
          }),
        );
        // Where the tab is, asked after the read: a navigation that lands between the two is refused,
        // not answered; for an error page the tab shows the address that was tried.
        const location = await step(['get', 'url']);
        const finalUrl = typeof location.url === 'string' ? location.url : '';
        assertSameOrigin(finalUrl, target);
        const html = readablePage(page, target);
        if (remaining() > 0) {
          await runBrowserStep(invocation, ['close'], {
            timeoutMs: Math.min(CLOSE_TIMEOUT_MS, remaining()),
            signal: controller.signal,
          }).catch(() => undefined);
        }
        return { url: finalUrl, html, durationMs: performance.now() - startedAt };
      } catch (error) {
        if (WebToolError.isInstance(error)) throw error;
        if (controller.signal.aborted) throw interrupted(request.signal, budgetMs, overrun);
        throw error;
      } finally {
        release();
        await proxy?.close();
        await readDaemonPid();
        await killRenderProcesses({
          sessionId: daemonPid,
          environmentEntry: `TMPDIR=${root}`,
          startedAtTicks,
        });
        await rm(root, { recursive: true, force: true, maxRetries: 3 });
      }
    },
  };
}
