import { readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:https';
import type { AddressInfo } from 'node:net';
import type { TLSSocket } from 'node:tls';
import { WebToolError } from '@mono-agent/budget-policy';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { LookupFunction } from './guarded-connector.js';
import { httpRequest } from './http-request.js';
import type { NetworkPolicy } from './network-policy.js';

// A self-signed certificate for the name pinned.test only (no IP addresses in it).
const certificate = readFileSync(new URL('./__fixtures__/tls-pinned-test.crt', import.meta.url));
const key = readFileSync(new URL('./__fixtures__/tls-pinned-test.key', import.meta.url));

let server: Server;
let port: number;
const serverNames: Array<string | false | null> = [];

beforeAll(async () => {
  server = createServer({ cert: certificate, key }, (request, response) => {
    serverNames.push((request.socket as TLSSocket).servername);
    response.writeHead(200, { 'content-type': 'text/plain' }).end('secure');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  port = (server.address() as AddressInfo).port;
});
afterAll(async () => {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
});

const lookup: LookupFunction = async () => [{ address: '127.0.0.1', family: 4 }];
const policy: NetworkPolicy = { mode: 'allowlist', allow: ['pinned.test'] };

describe('HTTPS through the pinned address', () => {
  it('connects to the checked address while SNI and the certificate check use the host name', async () => {
    const response = await httpRequest(`https://pinned.test:${port}/`, { policy, lookup, ca: certificate });
    expect(Buffer.from(response.body).toString('utf8')).toBe('secure');
    expect(serverNames.at(-1)).toBe('pinned.test');
  });

  it('still verifies certificates: the address itself is not a name on the certificate', async () => {
    const error = await httpRequest(`https://127.0.0.1:${port}/`, {
      policy: { mode: 'localhost' },
      ca: certificate,
    }).catch((caught: unknown) => caught);
    expect(WebToolError.isInstance(error, 'backend_unavailable')).toBe(true);
    expect((error as WebToolError).details).toMatchObject({
      cause: 'ERR_TLS_CERT_ALTNAME_INVALID',
      attempts: 1,
    });
  });

  it('refuses an untrusted certificate', async () => {
    const error = await httpRequest(`https://pinned.test:${port}/`, { policy, lookup }).catch(
      (caught: unknown) => caught,
    );
    expect(WebToolError.isInstance(error, 'backend_unavailable')).toBe(true);
  });
});
