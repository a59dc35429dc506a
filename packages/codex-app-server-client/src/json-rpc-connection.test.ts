import { WebToolError } from '@mono-agent/budget-policy';
import { describe, expect, it } from 'vitest';
import { createJsonRpcConnection, type ServerNotification } from './json-rpc-connection.js';

const setup = (requestTimeoutMs?: number) => {
  const written: Record<string, unknown>[] = [];
  const connection = createJsonRpcConnection({
    write: (line) => written.push(JSON.parse(line) as Record<string, unknown>),
    answer: () => ({ error: { code: -32601, message: 'no' } }),
    requestTimeoutMs,
  });
  return { connection, written };
};

describe('createJsonRpcConnection', () => {
  it('matches answers to requests by id, in any order, without a jsonrpc member', async () => {
    const { connection, written } = setup();
    const first = connection.request('a', {});
    const second = connection.request('b', { x: 1 });
    expect(written).toEqual([
      { id: 1, method: 'a', params: {} },
      { id: 2, method: 'b', params: { x: 1 } },
    ]);
    connection.receive('{"id":2,"result":"two"}');
    connection.receive('{"id":1,"result":{"one":true}}');
    await expect(first).resolves.toEqual({ one: true });
    await expect(second).resolves.toBe('two');
  });

  it('maps JSON-RPC errors to protocol_error, and -32001 to a retryable backend_unavailable', async () => {
    const { connection } = setup();
    const refused = connection.request('x', {});
    const busy = connection.request('y', {});
    connection.receive('{"error":{"code":-32600,"message":"Not initialized"},"id":1}');
    connection.receive('{"error":{"code":-32001,"message":"Server overloaded; retry later."},"id":2}');
    await expect(refused).rejects.toMatchObject({
      code: 'protocol_error',
      details: { rpcCode: -32600, retryable: false },
    });
    await expect(busy).rejects.toMatchObject({
      code: 'backend_unavailable',
      details: { rpcCode: -32001, retryable: true },
    });
  });

  it('times out a request that is never answered and ignores the late answer', async () => {
    const { connection } = setup(20);
    await expect(connection.request('silent', {})).rejects.toMatchObject({ code: 'timeout' });
    connection.receive('{"id":1,"result":{}}');
    expect(connection.ignoredLines).toBe(1);
  });

  it('answers server requests with string or number ids and routes notifications', () => {
    const { connection, written } = setup();
    const notifications: ServerNotification[] = [];
    connection.onNotification((notification) => notifications.push(notification));
    connection.receive('{"id":"s-1","method":"item/tool/call","params":{}}');
    connection.receive('{"id":7,"method":"attestation/generate","params":{}}');
    connection.receive('{"method":"warning","params":{"message":"m"},"emittedAtMs":1}');
    expect(written).toEqual([
      { id: 's-1', error: { code: -32601, message: 'no' } },
      { id: 7, error: { code: -32601, message: 'no' } },
    ]);
    expect(notifications).toEqual([{ method: 'warning', params: { message: 'm' } }]);
  });

  it('counts and drops lines that are not JSON-RPC messages', () => {
    const { connection, written } = setup();
    for (const line of ['Content-Length: 10', '', 'null', '[]', '{"foo":1}', '{"id":{},"result":1}'])
      connection.receive(line);
    expect(connection.ignoredLines).toBe(6);
    expect(written).toEqual([]);
  });

  it('rejects pending and later requests once closed, and tells close listeners', async () => {
    const { connection, written } = setup();
    const pending = connection.request('a', {});
    const reasons: string[] = [];
    connection.onClose((error) => reasons.push(error.code));
    const gone = new WebToolError({ code: 'backend_unavailable', message: 'exited' });
    connection.close(gone);
    await expect(pending).rejects.toBe(gone);
    await expect(connection.request('b', {})).rejects.toBe(gone);
    connection.onClose((error) => reasons.push(`late ${error.code}`));
    expect(reasons).toEqual(['backend_unavailable', 'late backend_unavailable']);
    expect(written).toHaveLength(1);
  });
});
