// Test helpers built on node:http, which unlike fetch never decodes Content-Encoding, so tests see the
// bytes exactly as the fixture sent them. Not exported from the package.
import { request as httpRequest, type IncomingHttpHeaders, type IncomingMessage } from 'node:http';

/** Options of `openRaw`. */
export interface RawRequestOptions {
  /** The method; GET by default. */
  readonly method?: string;
  /** Extra request headers. */
  readonly headers?: Readonly<Record<string, string>>;
  /** A body to send. */
  readonly body?: string | Uint8Array;
  /** Aborts the request and destroys its socket. */
  readonly signal?: AbortSignal;
}

/** Sends a request on a fresh connection (no agent, no keep-alive) and resolves with the unread response. */
export function openRaw(url: string, options: RawRequestOptions = {}): Promise<IncomingMessage> {
  return new Promise((resolve, reject) => {
    const request = httpRequest(url, {
      method: options.method ?? 'GET',
      headers: options.headers,
      agent: false,
      ...(options.signal ? { signal: options.signal } : {}),
    });
    request.once('response', resolve);
    request.once('error', reject);
    request.end(options.body);
  });
}

/** A response read to the end, body undecoded. */
export interface RawResponse {
  /** The status code. */
  readonly status: number;
  /** The response headers. */
  readonly headers: IncomingHttpHeaders;
  /** The body exactly as received. */
  readonly body: Buffer;
}

/** Reads a whole stream into one buffer. */
export async function readAll(stream: AsyncIterable<unknown>): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

/** Sends a request and reads the whole response, without decoding it. */
export async function rawRequest(url: string, options: RawRequestOptions = {}): Promise<RawResponse> {
  const response = await openRaw(url, options);
  const body = await readAll(response);
  return { status: response.statusCode ?? 0, headers: response.headers, body };
}

/** Polls `condition` until it holds, failing after `timeoutMs`. */
export async function waitFor(condition: () => boolean, timeoutMs = 5000, what = 'condition'): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}
