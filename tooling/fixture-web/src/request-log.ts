import type { IncomingHttpHeaders, IncomingMessage, ServerResponse } from 'node:http';

/** How a request ended, as far as the server can tell. */
export type RequestOutcome = 'pending' | 'completed' | 'aborted';

/** One request as the server saw it; the response fields keep changing until `outcome` leaves `pending`. */
export interface RecordedRequest {
  /** Arrival order across all listeners of this fixture, starting at 1. */
  readonly id: number;
  /** The request method, upper case as sent. */
  readonly method: string;
  /** The path without the query string. */
  readonly path: string;
  /** The request target exactly as sent: path plus query string. */
  readonly target: string;
  /** The parsed query string. */
  readonly query: URLSearchParams;
  /** The request headers with lower-case names, as Node parsed them. */
  readonly headers: IncomingHttpHeaders;
  /** The Host header, port included (`127.0.0.2:41234`). */
  readonly host: string;
  /** The Host header without its port, brackets removed for IPv6. */
  readonly hostname: string;
  /** The address of the listener that accepted the connection, so tests see which address really answered. */
  readonly localAddress: string;
  /** The client's address. */
  readonly remoteAddress: string;
  /** `Date.now()` when the request head arrived. */
  readonly receivedAt: number;
  /** The request body; empty until it has been read in full. */
  readonly body: Buffer;
  /** The route that answered: a pattern like `/redirect/:hops`, `scenario`, or `not-found`. */
  readonly route: string;
  /** The status sent, once the response has ended or been cut off. */
  readonly status: number | undefined;
  /** Body bytes the handler handed to the response, counting writes after the client left. */
  readonly bodyBytesWritten: number;
  /** Whether the response ran to its end or the connection went away first. */
  readonly outcome: RequestOutcome;
}

/** The writable view of a record, for the server only. */
export type MutableRecordedRequest = { -readonly [Key in keyof RecordedRequest]: RecordedRequest[Key] };

/** The requests a fixture received, oldest first, capped so a long benchmark cannot grow it forever. */
export class RequestLog {
  readonly #records: MutableRecordedRequest[] = [];
  readonly #limit: number;
  #nextId = 1;

  /** `limit` is how many records are kept; older ones are dropped first. */
  constructor(limit: number) {
    this.#limit = limit;
  }

  /** Starts recording `request` and counts what is written to `response`. */
  record(request: IncomingMessage, response: ServerResponse, url: URL): MutableRecordedRequest {
    const host = request.headers.host ?? '';
    const record: MutableRecordedRequest = {
      id: this.#nextId++,
      method: request.method ?? 'GET',
      path: url.pathname,
      target: request.url ?? '/',
      query: url.searchParams,
      headers: request.headers,
      host,
      hostname: url.hostname.replace(/^\[(.*)\]$/, '$1'),
      localAddress: request.socket.localAddress ?? '',
      remoteAddress: request.socket.remoteAddress ?? '',
      receivedAt: Date.now(),
      body: Buffer.alloc(0),
      route: 'unrouted',
      status: undefined,
      bodyBytesWritten: 0,
      outcome: 'pending',
    };
    countBodyBytes(response, record);
    response.once('close', () => {
      record.status = response.headersSent ? response.statusCode : undefined;
      record.outcome = response.writableFinished ? 'completed' : 'aborted';
    });
    this.#records.push(record);
    if (this.#records.length > this.#limit) this.#records.splice(0, this.#records.length - this.#limit);
    return record;
  }

  /** A snapshot of the list; the records themselves stay live. */
  list(): readonly RecordedRequest[] {
    return [...this.#records];
  }

  /** Forgets every record; ids keep counting so old and new records never share one. */
  clear(): void {
    this.#records.length = 0;
  }
}

// Wrapping the two methods is the only hook that sees every body byte, including those written by
// `pipeline()` and by scenario handlers, and including writes made after the client went away.
function countBodyBytes(response: ServerResponse, record: MutableRecordedRequest): void {
  const write = response.write;
  const end = response.end;
  response.write = function (this: ServerResponse, chunk: unknown, ...rest: unknown[]) {
    record.bodyBytesWritten += chunkLength(chunk, rest[0]);
    return Reflect.apply(write, this, [chunk, ...rest]) as boolean;
  } as ServerResponse['write'];
  response.end = function (this: ServerResponse, chunk?: unknown, ...rest: unknown[]) {
    if (typeof chunk !== 'function') record.bodyBytesWritten += chunkLength(chunk, rest[0]);
    return Reflect.apply(end, this, [chunk, ...rest]) as ServerResponse;
  } as ServerResponse['end'];
}

function chunkLength(chunk: unknown, encoding: unknown): number {
  if (typeof chunk === 'string') {
    return Buffer.byteLength(chunk, typeof encoding === 'string' ? (encoding as BufferEncoding) : 'utf8');
  }
  if (chunk instanceof Uint8Array) return chunk.byteLength;
  return 0;
}
