import { WebToolError } from '@mono-agent/budget-policy';

/** How long one request waits for its response when the caller names no other timeout. */
export const DEFAULT_REQUEST_TIMEOUT_MS = 15_000;

/** The JSON-RPC error code `codex app-server` uses when its bounded queues are full; retryable. */
export const SERVER_OVERLOADED_CODE = -32001;

/** A JSON-RPC id as `codex app-server` echoes it back. */
export type RequestId = number | string;

/** A notification from the server. */
export interface ServerNotification {
  /** The notification method, e.g. `item/completed`. */
  method: string;
  /** Its params (an object for every method this client reads). */
  params: unknown;
}

/** A request from the server to the client (an approval, elicitation, ...). */
export interface ServerRequest {
  /** The id the reply must carry. */
  id: RequestId;
  /** The request method. */
  method: string;
  /** Its params. */
  params: unknown;
}

/** The reply to a server request: a result or a JSON-RPC error. */
export type ServerRequestReply = { result: unknown } | { error: { code: number; message: string } };

/** Options of {@link createJsonRpcConnection}. */
export interface JsonRpcConnectionOptions {
  /** Writes one serialized message; the connection adds the newline. */
  write(line: string): void;
  /** Answers a server request; called synchronously for every one. */
  answer(request: ServerRequest): ServerRequestReply;
  /** Default per-request timeout. */
  requestTimeoutMs?: number;
}

/** Options of one request. */
export interface RequestOptions {
  /** Overrides the connection's per-request timeout. */
  timeoutMs?: number;
}

/** One JSON-RPC peer over newline-delimited JSON, without the `jsonrpc` member. */
export interface JsonRpcConnection {
  /** Sends a request and resolves with its `result`, or rejects with a WebToolError. */
  request(method: string, params: unknown, options?: RequestOptions): Promise<unknown>;
  /** Sends a notification. */
  notify(method: string, params?: unknown): void;
  /** Feeds one line read from the server. */
  receive(line: string): void;
  /** Subscribes to notifications; returns the unsubscribe function. */
  onNotification(listener: (notification: ServerNotification) => void): () => void;
  /** Subscribes to server requests (after they are answered); returns the unsubscribe function. */
  onServerRequest(listener: (request: ServerRequest) => void): () => void;
  /** Calls `listener` once the transport is gone (at once if it already is); returns the unsubscribe. */
  onClose(listener: (error: WebToolError) => void): () => void;
  /** Rejects every pending request and refuses new ones; the transport is gone. */
  close(error: WebToolError): void;
  /** Lines that were not JSON-RPC messages, counted for diagnostics. */
  readonly ignoredLines: number;
}

interface Pending {
  method: string;
  resolve(result: unknown): void;
  reject(error: WebToolError): void;
  timer: ReturnType<typeof setTimeout>;
}

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

const isRequestId = (value: unknown): value is RequestId =>
  typeof value === 'string' || (typeof value === 'number' && Number.isInteger(value));

/** Creates a connection; the caller wires `write` to stdin and `receive` to stdout lines. */
export function createJsonRpcConnection(options: JsonRpcConnectionOptions): JsonRpcConnection {
  const defaultTimeoutMs = options.requestTimeoutMs ?? DEFAULT_REQUEST_TIMEOUT_MS;
  const pending = new Map<RequestId, Pending>();
  const notificationListeners = new Set<(notification: ServerNotification) => void>();
  const requestListeners = new Set<(request: ServerRequest) => void>();
  const closeListeners = new Set<(error: WebToolError) => void>();
  let nextId = 1;
  let closedWith: WebToolError | undefined;
  let ignoredLines = 0;

  const send = (message: Record<string, unknown>) => options.write(JSON.stringify(message));

  const settle = (id: RequestId, message: Record<string, unknown>) => {
    const entry = pending.get(id);
    if (entry === undefined) {
      ignoredLines += 1;
      return;
    }
    pending.delete(id);
    clearTimeout(entry.timer);
    if ('result' in message) {
      entry.resolve(message.result);
      return;
    }
    const error = isObject(message.error) ? message.error : {};
    const rpcCode = typeof error.code === 'number' ? error.code : undefined;
    const text = typeof error.message === 'string' ? error.message : 'no message';
    entry.reject(
      new WebToolError({
        code: rpcCode === SERVER_OVERLOADED_CODE ? 'backend_unavailable' : 'protocol_error',
        message: `codex app-server refused ${entry.method}: ${text}`,
        details: { method: entry.method, rpcCode, retryable: rpcCode === SERVER_OVERLOADED_CODE },
      }),
    );
  };

  return {
    get ignoredLines() {
      return ignoredLines;
    },

    request(method, params, requestOptions = {}) {
      if (closedWith !== undefined) return Promise.reject(closedWith);
      const id = nextId++;
      const timeoutMs = requestOptions.timeoutMs ?? defaultTimeoutMs;
      return new Promise<unknown>((resolve, reject) => {
        const timer = setTimeout(() => {
          pending.delete(id);
          reject(
            new WebToolError({
              code: 'timeout',
              message: `codex app-server did not answer ${method} within ${timeoutMs} ms`,
              details: { method, timeoutMs },
            }),
          );
        }, timeoutMs);
        pending.set(id, { method, resolve, reject, timer });
        send({ id, method, params });
      });
    },

    notify(method, params) {
      if (closedWith !== undefined) return;
      send(params === undefined ? { method } : { method, params });
    },

    receive(line) {
      let message: unknown;
      try {
        message = JSON.parse(line);
      } catch {
        ignoredLines += 1;
        return;
      }
      if (!isObject(message)) {
        ignoredLines += 1;
        return;
      }
      const { id, method } = message;
      if (typeof method === 'string' && isRequestId(id)) {
        const request: ServerRequest = { id, method, params: message.params };
        const reply = options.answer(request);
        if (closedWith === undefined) send({ id, ...reply });
        for (const listener of requestListeners) listener(request);
      } else if (typeof method === 'string') {
        const notification: ServerNotification = { method, params: message.params };
        for (const listener of notificationListeners) listener(notification);
      } else if (isRequestId(id) && ('result' in message || 'error' in message)) {
        settle(id, message);
      } else {
        ignoredLines += 1;
      }
    },

    onNotification(listener) {
      notificationListeners.add(listener);
      return () => notificationListeners.delete(listener);
    },

    onServerRequest(listener) {
      requestListeners.add(listener);
      return () => requestListeners.delete(listener);
    },

    onClose(listener) {
      if (closedWith !== undefined) {
        listener(closedWith);
        return () => {};
      }
      closeListeners.add(listener);
      return () => closeListeners.delete(listener);
    },

    close(error) {
      if (closedWith !== undefined) return;
      closedWith = error;
      for (const entry of pending.values()) {
        clearTimeout(entry.timer);
        entry.reject(error);
      }
      pending.clear();
      for (const listener of closeListeners) listener(error);
      closeListeners.clear();
    },
  };
}
