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

/** The notifications that belong to a running turn, once its id is known. */
const TURN_EVENTS = new Set(['item/started', 'item/completed', 'turn/completed']);

/** The id of the turn a `turn/started` notification announces, if it is one that names its turn. */
function startedTurnId(method: string, payload: Record<string, unknown>): string | undefined {
  if (method !== 'turn/started' || !isObject(payload.turn)) return undefined;
  return typeof payload.turn.id === 'string' ? payload.turn.id : undefined;
}

/**
 * The turn a turn event belongs to: `turn/completed` names it inside its `turn`, item events beside
 * the item.
 */
function eventTurnId(method: string, payload: Record<string, unknown>): unknown {
  if (method !== 'turn/completed') return payload.turnId;
  return isObject(payload.turn) ? payload.turn.id : undefined;
}

/** What an item event tells a search turn: the search item's id and, once it completed, its results. */
interface SearchItemProgress {
  id: string | undefined;
  results?: unknown[];
}

/**
 * Reads one `item/started` or `item/completed` event of a search turn that has seen the search item
 * `searchItemId` so far (and its results, when `searchDone`): `undefined` for an item read past, the
 * search item's progress, or the error that ends the turn (any other tool item, a second search
 * item, a search item completed without results).
 */
function readSearchItem(
  method: string,
  item: unknown,
  searchItemId: string | undefined,
  searchDone: boolean,
): SearchItemProgress | WebToolError | undefined {
  if (!isObject(item)) return rejectTurn('protocol_error', `${method} without an item`);
  const type = typeof item.type === 'string' ? item.type : 'unknown';
  if (ignored.has(type)) return undefined;
  if (type !== 'webSearch') {
    return rejectTurn('protocol_error', `the search turn used a non-search tool item (${type})`, {
      itemType: type,
    });
  }
  const id = typeof item.id === 'string' ? item.id : undefined;
  if ((searchItemId !== undefined && id !== searchItemId) || searchDone) {
    return rejectTurn('protocol_error', 'the search turn produced a second webSearch item');
  }
  if (method === 'item/started') return { id };
  if (!Array.isArray(item.results)) {
    return rejectTurn('protocol_error', 'the webSearch item completed without structured results');
  }
  return { id, results: item.results };
}

/**
 * Why a completed turn fails the search: it completed without a search item, the server interrupted
 * it, or it failed (its error says how).
 */
function turnFailure(turn: Record<string, unknown>): WebToolError {
  if (turn.status === 'completed') {
    return rejectTurn('protocol_error', 'the search turn completed without a webSearch item');
  }
  if (turn.status === 'interrupted') {
    return rejectTurn('backend_unavailable', 'the search turn was interrupted by the server');
  }
  const code = classifyTurnError(turn.error);
  const message =
    isObject(turn.error) && typeof turn.error.message === 'string' ? turn.error.message : 'no message';
  return rejectTurn(code, `the search turn failed: ${message}`, { status: turn.status });
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
      const read = readSearchItem(method, item, searchItemId, results !== undefined);
      if (read === undefined) return;
      if (WebToolError.isInstance(read)) return fail(read, true);
      searchItemId = read.id;
      if (read.results !== undefined) results = read.results;
    };

    const handle = (notification: ServerNotification) => {
      const { method, params: payload } = notification;
      if (!isObject(payload) || payload.threadId !== threadId) return;
      const startedId = startedTurnId(method, payload);
      if (startedId !== undefined) {
        learnTurnId(startedId);
        return;
      }
      if (!TURN_EVENTS.has(method)) return;
      if (turnId === undefined) {
        early.push(notification);
        return;
      }
      if (eventTurnId(method, payload) !== turnId) return;
      if (method !== 'turn/completed') return handleItem(method, payload.item);
      const turn = payload.turn as Record<string, unknown>;
      if (turn.status === 'completed' && results !== undefined) return succeed(results);
      return fail(turnFailure(turn), false);
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
