import { WebToolError } from '@mono-agent/budget-policy';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type LoopbackWeb, startLoopbackWeb } from '../test/loopback-web.js';
import { MAX_DEADLINE_MS } from './deadline.js';
import { type HttpRequestOptions, httpRequest } from './http-request.js';
import type { NetworkPolicy } from './network-policy.js';
import { MAX_DECODED_BYTES, MAX_WIRE_BYTES } from './read-body.js';
import { MAX_RETRIES } from './retry-policy.js';
import { MAX_HEADER_VALUE_LENGTH, MAX_URL_LENGTH } from './validate-request.js';

let web: LoopbackWeb;
const policy: NetworkPolicy = { mode: 'localhost' };

beforeAll(async () => {
  web = await startLoopbackWeb();
  web.scenario('/headers', (request, response) => {
    response.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(request.headers));
  });
});
afterAll(() => web.close());

async function validationError(url: string | URL, options: HttpRequestOptions): Promise<WebToolError> {
  const before = web.connectionCount();
  const error = await httpRequest(url, options).then(
    () => undefined,
    (caught: unknown) => caught,
  );
  if (!WebToolError.isInstance(error, 'validation_error'))
    throw new Error(`expected validation_error, got ${error}`);
  expect(web.connectionCount()).toBe(before);
  return error;
}

describe('request headers', () => {
  it('passes Accept, Accept-Language, Range and User-Agent through to the server', async () => {
    const response = await httpRequest(web.url('/headers'), {
      policy,
      headers: {
        Accept: 'text/html',
        'Accept-Language': 'de-CH, en;q=0.5',
        Range: 'bytes=0-',
        'User-Agent': 'mono-agent-test/1.0',
      },
    });
    const received = JSON.parse(Buffer.from(response.body).toString('utf8')) as Record<string, string>;
    expect(received).toMatchObject({
      accept: 'text/html',
      'accept-language': 'de-CH, en;q=0.5',
      range: 'bytes=0-',
      'user-agent': 'mono-agent-test/1.0',
      'accept-encoding': 'gzip, deflate, br',
    });
    expect(received.cookie).toBeUndefined();
    expect(received.authorization).toBeUndefined();
  });

  it.each([
    'Cookie',
    'Authorization',
    'X-Forwarded-For',
    'Forwarded',
    'Proxy-Authorization',
    'Host',
    'Content-Type',
    'Accept-Encoding',
    'X-Custom',
  ])('rejects %s', async (name) => {
    const error = await validationError(web.url('/headers'), { policy, headers: { [name]: 'value' } });
    expect(error.details).toMatchObject({ header: name });
  });

  it('rejects a header given twice in different cases, and values with line breaks', async () => {
    await validationError(web.url('/headers'), { policy, headers: { accept: 'a', Accept: 'b' } });
    await validationError(web.url('/headers'), { policy, headers: { accept: 'a\r\nCookie: x' } });
  });

  it(`accepts a ${MAX_HEADER_VALUE_LENGTH}-character value and refuses one more`, async () => {
    const atBound = 'a'.repeat(MAX_HEADER_VALUE_LENGTH);
    expect(
      (await httpRequest(web.url('/headers'), { policy, headers: { 'user-agent': atBound } })).status,
    ).toBe(200);
    const error = await validationError(web.url('/headers'), {
      policy,
      headers: { 'user-agent': `${atBound}a` },
    });
    expect(error.details).toMatchObject({ limit: MAX_HEADER_VALUE_LENGTH });
  });
});

describe('URLs', () => {
  it.each([
    'ftp://127.0.0.1/file',
    'file:///etc/passwd',
    'data:text/plain,hi',
    'javascript:alert(1)',
    'ws://127.0.0.1/',
  ])('rejects the non-http scheme of %s', async (url) => {
    await validationError(url, { policy });
  });

  it('rejects credentials embedded in the URL', async () => {
    await validationError(`http://user:secret@127.0.0.1:${web.port}/headers`, { policy });
    await validationError(`http://user@127.0.0.1:${web.port}/headers`, { policy });
  });

  it('rejects what is not a URL', async () => {
    await validationError('not a url', { policy });
    await validationError('http://', { policy });
  });

  it(`accepts a URL of ${MAX_URL_LENGTH} characters and refuses a longer one`, async () => {
    const base = web.url('/headers?q=');
    const atBound = base + 'a'.repeat(MAX_URL_LENGTH - base.length);
    expect((await httpRequest(atBound, { policy })).status).toBe(200);
    await validationError(`${atBound}a`, { policy });
  });

  it('accepts URL objects and drops the fragment', async () => {
    const response = await httpRequest(new URL(web.url('/headers#part')), { policy });
    expect(response.url).toBe(web.url('/headers'));
  });
});

describe('options', () => {
  it.each<[string, Partial<HttpRequestOptions>]>([
    ['a body on GET', { body: 'x' }],
    ['contentType without body', { method: 'POST', contentType: 'text/plain' }],
    ['an unknown method', { method: 'PUT' as 'GET' }],
    ['an unknown redirect mode', { redirect: 'loop' as 'follow' }],
    ['a zero deadline', { deadlineMs: 0 }],
    ['a deadline past what a timer holds', { deadlineMs: MAX_DEADLINE_MS + 1 }],
    ['negative retries', { retries: -1 }],
    [`retries past ${MAX_RETRIES}`, { retries: MAX_RETRIES + 1 }],
    ['fractional retries', { retries: 1.5 }],
    ['a wire cap past the bound', { maxWireBytes: MAX_WIRE_BYTES + 1 }],
    ['a decoded cap past the bound', { maxDecodedBytes: MAX_DECODED_BYTES + 1 }],
    ['a bad policy', { policy: { mode: 'everything' as 'all' } }],
  ])('rejects %s', async (_name, options) => {
    await validationError(web.url('/headers'), { policy, ...options });
  });

  it('accepts the longest deadline a timer holds', async () => {
    expect((await httpRequest(web.url('/headers'), { policy, deadlineMs: MAX_DEADLINE_MS })).status).toBe(
      200,
    );
  });

  it('requires a policy', async () => {
    await validationError(web.url('/headers'), {} as HttpRequestOptions);
  });
});
