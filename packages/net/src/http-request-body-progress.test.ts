import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type LoopbackWeb, startLoopbackWeb } from '../test/loopback-web.js';
import { httpRequest } from './http-request.js';
import type { NetworkPolicy } from './network-policy.js';

let web: LoopbackWeb;
const policy: NetworkPolicy = { mode: 'localhost' };

/** Serves `size` bytes in chunks of `chunk`, with or without a Content-Length. */
function serve(path: string, size: number, chunk: number, withLength: boolean): void {
  web.scenario(path, (_request, response) => {
    response.writeHead(200, {
      'content-type': 'application/octet-stream',
      ...(withLength ? { 'content-length': String(size) } : {}),
    });
    for (let offset = 0; offset < size; offset += chunk)
      response.write(Buffer.alloc(Math.min(chunk, size - offset), 97));
    response.end();
  });
}

beforeAll(async () => {
  web = await startLoopbackWeb();
});
afterAll(async () => {
  await web.close();
});

describe('onBodyBytes', () => {
  it('is told the wire bytes so far, growing to the whole body, with the declared length', async () => {
    serve('/declared', 200_000, 16 * 1024, true);
    const seen: [number, number | undefined][] = [];
    const response = await httpRequest(web.url('/declared'), {
      policy,
      onBodyBytes: (received, declared) => seen.push([received, declared]),
    });
    expect(response.body.length).toBe(200_000);
    expect(seen.length).toBeGreaterThan(0);
    expect(seen.at(-1)).toEqual([200_000, 200_000]);
    for (let index = 1; index < seen.length; index++)
      expect(seen[index]![0]).toBeGreaterThan(seen[index - 1]![0]);
  });

  it('passes no declared length when the server sent none, and a throwing callback fails nothing', async () => {
    serve('/undeclared', 5000, 1000, false);
    const seen: (number | undefined)[] = [];
    const response = await httpRequest(web.url('/undeclared'), {
      policy,
      onBodyBytes: (_received, declared) => {
        seen.push(declared);
        throw new Error('a broken display');
      },
    });
    expect(response.body.length).toBe(5000);
    expect(seen.length).toBeGreaterThan(0);
    expect(seen.every((declared) => declared === undefined)).toBe(true);
  });
});
