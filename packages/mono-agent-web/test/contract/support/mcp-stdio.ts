import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { BUILT_CLI } from './built-cli.js';

/** A connected MCP client talking to `mono-agent-web mcp` (the built bin) over stdio. */
export interface McpSession {
  /** The SDK client. */
  client: Client;
  /** Calls one tool and returns its text and error flag. */
  call(
    name: 'WebFetch' | 'WebSearch',
    args: Record<string, unknown>,
  ): Promise<{ text: string; isError: boolean }>;
  /** Closes the client, which ends the server process. */
  close(): Promise<void>;
}

/** Starts the built MCP server as a child process with only PATH, HOME and `env`. */
export async function startMcp(env: Record<string, string>, home: string): Promise<McpSession> {
  const client = new Client({ name: 'web-fetch-contract', version: '1.0.0' });
  await client.connect(
    new StdioClientTransport({
      command: process.execPath,
      args: [BUILT_CLI, 'mcp'],
      env: { PATH: process.env.PATH ?? '', HOME: home, ...env },
      stderr: 'pipe',
    }),
  );
  return {
    client,
    async call(name, args) {
      const result = await client.callTool({ name, arguments: args });
      const text = (result.content as { type: string; text: string }[]).map((block) => block.text).join('\n');
      return { text, isError: result.isError === true };
    },
    close: () => client.close(),
  };
}
