import { WebToolError } from '@mono-agent/budget-policy';
import type { ConfigReadParams } from './generated/protocol/v2/ConfigReadParams.js';
import type { ThreadUnsubscribeParams } from './generated/protocol/v2/ThreadUnsubscribeParams.js';
import type { JsonRpcConnection } from './json-rpc-connection.js';
import { buildThreadStartParams } from './search-parameters.js';

/** A started search thread. */
export interface SearchThread {
  /** The thread id. */
  id: string;
  /** The raw `thread/start` result, for diagnostics and tests. */
  response: Record<string, unknown>;
  /** The MCP servers configured for the scratch cwd, each disabled for this thread. */
  disabledMcpServers: string[];
  /** Unsubscribes from the thread; never throws. */
  release(): Promise<void>;
}

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** The names of the MCP servers the effective config for `cwd` defines. */
export async function readMcpServerNames(connection: JsonRpcConnection, cwd: string): Promise<string[]> {
  const params: ConfigReadParams = { includeLayers: false, cwd };
  const result = await connection.request('config/read', params);
  if (!isObject(result) || !isObject(result.config)) {
    throw new WebToolError({ code: 'protocol_error', message: 'config/read answered without a config' });
  }
  const servers = result.config.mcp_servers;
  return isObject(servers) ? Object.keys(servers) : [];
}

/**
 * Starts the ephemeral thread of one search in `cwd` with every configured MCP server disabled by
 * name, and checks what the server reports back: an ephemeral thread with no instruction file from
 * inside the scratch directory (the user's global instructions are not project instructions).
 */
export async function startSearchThread(
  connection: JsonRpcConnection,
  model: string,
  cwd: string,
): Promise<SearchThread> {
  const disabledMcpServers = await readMcpServerNames(connection, cwd);
  const response = await connection.request(
    'thread/start',
    buildThreadStartParams(model, cwd, disabledMcpServers),
  );
  const thread = isObject(response) && isObject(response.thread) ? response.thread : undefined;
  if (!isObject(response) || typeof thread?.id !== 'string') {
    throw new WebToolError({ code: 'protocol_error', message: 'thread/start answered without a thread id' });
  }
  const id = thread.id;
  const release = async () => {
    const params: ThreadUnsubscribeParams = { threadId: id };
    await connection.request('thread/unsubscribe', params).catch(() => undefined);
  };
  const sources = Array.isArray(response.instructionSources) ? response.instructionSources : [];
  const projectSources = sources.filter(
    (source) => typeof source === 'string' && source.startsWith(`${cwd}/`),
  );
  if (thread.ephemeral !== true || projectSources.length > 0) {
    await release();
    throw new WebToolError({
      code: 'protocol_error',
      message:
        thread.ephemeral !== true
          ? 'thread/start did not return an ephemeral thread'
          : 'the search thread loaded project instructions from its scratch directory',
    });
  }
  return { id, response, disabledMcpServers, release };
}
