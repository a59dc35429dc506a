import type { Readable, Writable } from 'node:stream';
import type { Server } from '@modelcontextprotocol/sdk/server/index.js';
import type { CallToolResult, Tool } from '@modelcontextprotocol/sdk/types.js';
import { webToolCatalog } from './web-tool-catalog.js';
import type { WebTools } from './web-tools.js';

/** The server name an MCP client sees when the host names none. */
export const DEFAULT_MCP_SERVER_NAME = 'mono-agent-web';
/** The server version an MCP client sees when the host names none. */
export const DEFAULT_MCP_SERVER_VERSION = '0.0.0';

/**
 * How often a call that the client asked progress for reports that it is still running. Clients
 * that reset their request timeout on progress (`resetTimeoutOnProgress`) then keep waiting for a
 * slow page instead of giving up at their default timeout.
 */
export const MCP_PROGRESS_INTERVAL_MS = 5_000;

/** How the MCP server introduces itself to clients. */
export interface McpServerOptions {
  /** The server name in the `initialize` answer (default {@link DEFAULT_MCP_SERVER_NAME}). */
  name?: string;
  /** The server version in the `initialize` answer (default {@link DEFAULT_MCP_SERVER_VERSION}). */
  version?: string;
  /** How often a long call reports progress when the client asks for it (default {@link MCP_PROGRESS_INTERVAL_MS}). */
  progressIntervalMs?: number;
}

/** Options of {@link serveMcpOverStdio}: the server identity and the streams it talks over. */
export interface McpStdioOptions extends McpServerOptions {
  /** Where requests arrive (default `process.stdin`); its end closes the server. */
  stdin?: Readable;
  /** Where answers go (default `process.stdout`). */
  stdout?: Writable;
}

/**
 * An MCP server (the SDK's low-level `Server`, not yet connected) exposing `WebSearch` and `WebFetch`
 * with the package's own JSON Schemas and descriptions, annotated read-only and open-world.
 * `tools/call` answers with the implementation's text as one text block and its `isError`; the
 * client's cancellation aborts the call's signal; a call sent with a progress token gets a
 * `notifications/progress` every `progressIntervalMs` while it runs (elapsed seconds, no total).
 */
export async function createMcpServer(tools: WebTools, options: McpServerOptions = {}): Promise<Server> {
  // The low-level Server, because McpServer.registerTool only takes zod schemas (it throws on a plain
  // JSON Schema) and would re-derive, and change, the JSON Schemas the model is meant to see, and
  // validate with zod's messages instead of the implementation's.
  const [{ Server }, { CallToolRequestSchema, ErrorCode, ListToolsRequestSchema, McpError }] =
    await Promise.all([
      import('@modelcontextprotocol/sdk/server/index.js'),
      import('@modelcontextprotocol/sdk/types.js'),
    ]);
  const catalog = webToolCatalog(tools);
  const listed: Tool[] = catalog.map((tool) => ({
    name: tool.name,
    title: tool.title,
    description: tool.description,
    inputSchema: tool.inputSchema as Tool['inputSchema'],
    annotations: { title: tool.title, readOnlyHint: true, openWorldHint: true },
  }));
  const server = new Server(
    { name: options.name ?? DEFAULT_MCP_SERVER_NAME, version: options.version ?? DEFAULT_MCP_SERVER_VERSION },
    { capabilities: { tools: {} } },
  );
  server.setRequestHandler(ListToolsRequestSchema, () => ({ tools: listed }));
  server.setRequestHandler(CallToolRequestSchema, async (request, extra): Promise<CallToolResult> => {
    const tool = catalog.find((candidate) => candidate.name === request.params.name);
    if (tool === undefined) {
      throw new McpError(ErrorCode.InvalidParams, `Tool ${request.params.name} not found`);
    }
    const progressToken = request.params._meta?.progressToken;
    const interval = options.progressIntervalMs ?? MCP_PROGRESS_INTERVAL_MS;
    const started = Date.now();
    let reports = 0;
    const heartbeat =
      progressToken === undefined
        ? undefined
        : setInterval(() => {
            reports += 1;
            const seconds = Math.round((Date.now() - started) / 1000);
            // Progress must grow with every notification; the count does even within one second.
            void extra
              .sendNotification({
                method: 'notifications/progress',
                params: {
                  progressToken,
                  progress: reports,
                  message: `${tool.name} still running after ${seconds} s`,
                },
              })
              .catch(() => undefined);
          }, interval);
    try {
      // A call without arguments is still handed over, so the implementation reports the missing fields.
      const result = await tool.call(request.params.arguments ?? {}, { signal: extra.signal });
      return { content: [{ type: 'text', text: result.text }], isError: result.isError };
    } finally {
      clearInterval(heartbeat);
    }
  });
  return server;
}

/**
 * Serves the two tools over stdio (newline-delimited JSON-RPC on stdin/stdout) and resolves when the
 * transport closes: when stdin ends (the client went away) or the server is closed.
 */
export async function serveMcpOverStdio(tools: WebTools, options: McpStdioOptions = {}): Promise<void> {
  const server = await createMcpServer(tools, options);
  const { StdioServerTransport } = await import('@modelcontextprotocol/sdk/server/stdio.js');
  const stdin = options.stdin ?? process.stdin;
  const transport = new StdioServerTransport(stdin, options.stdout ?? process.stdout);
  const closed = new Promise<void>((resolve) => {
    server.onclose = resolve;
  });
  // The SDK's stdio transport never notices the end of stdin by itself.
  const closeOnEnd = (): void => {
    void server.close();
  };
  stdin.once('end', closeOnEnd);
  stdin.once('close', closeOnEnd);
  try {
    await server.connect(transport);
    await closed;
  } finally {
    stdin.off('end', closeOnEnd);
    stdin.off('close', closeOnEnd);
  }
}
