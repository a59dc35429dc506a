import { type FailureCode, WebToolError } from '@mono-agent/budget-policy';
import type { ThreadItem } from './generated/protocol/v2/ThreadItem.js';
import type { TurnInterruptParams } from './generated/protocol/v2/TurnInterruptParams.js';
import type { TurnStartParams } from './generated/protocol/v2/TurnStartParams.js';
import type { JsonRpcConnection, ServerNotification, ServerRequest } from './json-rpc-connection.js';

/** The longest a search turn may run before it is interrupted and rejected. */
export const DEFAULT_TURN_TIMEOUT_MS = 45_000;

/** How long the client waits for `turn/interrupt` to be acknowledged before giving up on it. */
export const INTERRUPT_TIMEOUT_MS = 3_000;

type ItemType = ThreadItem['type'];

/** Item types that carry prose or bookkeeping; they are read past, never used. */
export const IGNORED_ITEM_TYPES: readonly ItemType[] = [
  'userMessage',
  'agentMessage',
  'reasoning',
  'plan',
  'hookPrompt',
  'contextCompaction',
];

// Every other known type is a tool the search must not use; unknown future types are treated alike.
const ignored = new Set<string>(IGNORED_ITEM_TYPES);

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

const rejectTurn = (code: FailureCode, message: string, details: Record<string, unknown> = {}) =>
  new WebToolError({ code, message, details: { backend: 'codex', ...details } });

/** The failure code of a `turn/completed` whose status is `failed`, read off `codexErrorInfo`. */
export function classifyTurnError(error: unknown): FailureCode {
  const info = isObject(error) ? error.codexErrorInfo : undefined;
  const kind = typeof info === 'string' ? info : isObject(info) ? Object.keys(info)[0] : undefined;
  switch (kind) {
    case 'usageLimitExceeded':
    case 'rateLimitExceeded':
      return 'rate_limited';
    case 'unauthorized':
    case 'modelNotFound':
      return 'configuration_error';
    case 'badRequest':
      return 'protocol_error';
    default:
      return 'backend_unavailable';
  }
}

/** Options of {@link runSearchTurn}. */
export interface SearchTurnOptions {
  /** The connection to the running app-server. */
  connection: JsonRpcConnection;
  /** The `turn/start` params (their `threadId` names the thread to watch). */
  params: TurnStartParams;
  /** Interrupts and rejects a turn still running after this long. */
  timeoutMs?: number;
}

/**
 * Starts one turn and resolves with the `results` of its single completed `webSearch` item once the
 * turn completes. A server request, a second search item, any other tool item, a search item
 * without results, a failed or interrupted turn, a timeout or a lost transport interrupts the turn
 * (when one is running) and rejects.
 */
export function runSearchTurn(options: SearchTurnOptions): Promise<unknown[]> {
  const { connection, params } = options;
  const threadId = params.threadId;
  const timeoutMs = options.timeoutMs ?? DEFAULT_TURN_TIMEOUT_MS;

  return new Promise<unknown[]>((resolve, reject) => {
    let turnId: string | undefined;
    let searchItemId: string | undefined;
    let results: unknown[] | undefined;
    let failure: WebToolError | undefined;
    let settled = false;
    const early: ServerNotification[] = [];

    const cleanup = () => {
      clearTimeout(timer);
      stopNotifications();
      stopRequests();
      stopClose();
    };

    const succeed = (value: unknown[]) => {
      if (settled) return;
      settled = true;
      cleanup();
      resolve(value);
    };

    // Rejects once; a running turn is interrupted first. Before the turn id is known, the interrupt
    // waits for it (the turn/start answer), so no turn is left running.
    const fail = (error: WebToolError, interrupt: boolean) => {
      if (settled || failure !== undefined) return;
      failure = error;
      if (interrupt && turnId === undefined) return;
      settled = true;
      cleanup();
      if (!interrupt || turnId === undefined) {
        reject(error);
        return;
      }
      const interruptParams: TurnInterruptParams = { threadId, turnId };
      void connection
        .request('turn/interrupt', interruptParams, { timeoutMs: INTERRUPT_TIMEOUT_MS })
        .catch(() => undefined)
        .then(() => reject(error));
    };

    const learnTurnId = (id: string) => {
      if (turnId !== undefined) return;
      turnId = id;
      if (failure !== undefined) {
        const pendingFailure = failure;
        failure = undefined;
        fail(pendingFailure, true);
        return;
      }
      for (const notification of early.splice(0)) handle(notification);
    };

    const handleItem = (method: string, item: unknown) => {
      if (!isObject(item)) return fail(rejectTurn('protocol_error', `${method} without an item`), true);
      const type = typeof item.type === 'string' ? item.type : 'unknown';
      const id = typeof item.id === 'string' ? item.id : undefined;
      if (ignored.has(type)) return;
      if (type !== 'webSearch') {
        return fail(
          rejectTurn('protocol_error', `the search turn used a non-search tool item (${type})`, {
            itemType: type,
          }),
          true,
        );
      }
      if ((searchItemId !== undefined && id !== searchItemId) || results !== undefined) {
        return fail(rejectTurn('protocol_error', 'the search turn produced a second webSearch item'), true);
      }
      searchItemId = id;
      if (method === 'item/started') return;
      if (!Array.isArray(item.results)) {
        return fail(
          rejectTurn('protocol_error', 'the webSearch item completed without structured results'),
          true,
        );
      }
      results = item.results;
    };

    const handle = (notification: ServerNotification) => {
      const { method, params: payload } = notification;
      if (!isObject(payload) || payload.threadId !== threadId) return;
      if (method === 'turn/started' && isObject(payload.turn) && typeof payload.turn.id === 'string') {
        learnTurnId(payload.turn.id);
        return;
      }
      if (method !== 'item/started' && method !== 'item/completed' && method !== 'turn/completed') return;
      const eventTurnId =
        method === 'turn/completed' ? (isObject(payload.turn) ? payload.turn.id : undefined) : payload.turnId;
      if (turnId === undefined) {
        early.push(notification);
        return;
      }
      if (eventTurnId !== turnId) return;
      if (method !== 'turn/completed') return handleItem(method, payload.item);
      const turn = payload.turn as Record<string, unknown>;
      if (turn.status === 'completed') {
        if (results === undefined) {
          return fail(
            rejectTurn('protocol_error', 'the search turn completed without a webSearch item'),
            false,
          );
        }
        return succeed(results);
      }
      if (turn.status === 'interrupted') {
        return fail(
          rejectTurn('backend_unavailable', 'the search turn was interrupted by the server'),
          false,
        );
      }
      const code = classifyTurnError(turn.error);
      const message =
        isObject(turn.error) && typeof turn.error.message === 'string' ? turn.error.message : 'no message';
      return fail(rejectTurn(code, `the search turn failed: ${message}`, { status: turn.status }), false);
    };

    // Any interaction while the turn runs ends the search, whichever thread it names: the server has
    // already been refused, and nothing else of this client's can be asking.
    const onRequest = (request: ServerRequest) => {
      fail(
        rejectTurn('protocol_error', `codex app-server asked for interaction (${request.method}); refused`, {
          serverRequest: request.method,
        }),
        true,
      );
    };

    const stopNotifications = connection.onNotification(handle);
    const stopRequests = connection.onServerRequest(onRequest);
    const stopClose = connection.onClose((error) => {
      if (settled) return;
      settled = true;
      cleanup();
      reject(failure ?? error);
    });
    const timer = setTimeout(
      () =>
        fail(
          rejectTurn('timeout', `the search turn did not finish within ${timeoutMs} ms`, { timeoutMs }),
          true,
        ),
      timeoutMs,
    );

    connection.request('turn/start', params).then(
      (result) => {
        const id = isObject(result) && isObject(result.turn) ? result.turn.id : undefined;
        if (typeof id !== 'string') {
          fail(rejectTurn('protocol_error', 'turn/start answered without a turn id'), false);
          return;
        }
        learnTurnId(id);
      },
      (error: unknown) => {
        if (settled) return;
        const pendingFailure = failure;
        failure = undefined;
        fail(pendingFailure ?? (error as WebToolError), false);
      },
    );
  });
}
