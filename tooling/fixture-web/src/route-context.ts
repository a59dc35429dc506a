import type { IncomingMessage, ServerResponse } from 'node:http';
import type { RecordedRequest } from './request-log.js';

/** State that lives as long as one fixture server and is shared by all its listeners. */
export interface FixtureState {
  /** The port every listener shares, for building absolute URLs on another host. */
  readonly port: number;
  /** Attempts seen per `/flaky/<key>`, so the count survives across connections and hosts. */
  readonly flakyAttempts: Map<string, number>;
}

/** Everything a route needs to answer one request. */
export interface RouteContext {
  /** The request; its body has already been read into `body`. */
  readonly request: IncomingMessage;
  /** The response to write. */
  readonly response: ServerResponse;
  /** The request URL resolved against the Host header the client sent. */
  readonly url: URL;
  /** Values of the `:name` segments of the matched pattern. */
  readonly params: Readonly<Record<string, string>>;
  /** The whole request body. */
  readonly body: Buffer;
  /** Aborted when the client goes away or the fixture closes; routes hang their timers on it. */
  readonly signal: AbortSignal;
  /** The log entry of this request. */
  readonly record: RecordedRequest;
  /** Per-server state. */
  readonly state: FixtureState;
}

/** One built-in route. */
export interface Route {
  /** The path pattern, `:name` marking a segment parameter; also what the request log shows. */
  readonly pattern: string;
  /** Answers a request whose path matched `pattern`. */
  handle(context: RouteContext): void | Promise<void>;
}

/** A request the route cannot make sense of; the server answers 400 with the message. */
export class BadRequestError extends Error {
  /** The status to answer with; 400 unless a route needs something more specific. */
  readonly status: number;

  constructor(message: string, status = 400) {
    super(message);
    this.name = 'BadRequestError';
    this.status = status;
  }
}
