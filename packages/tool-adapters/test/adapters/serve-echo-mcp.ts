// Child process of the MCP stdio test: serves the echo implementation over this process's stdio.
import { serveMcpOverStdio } from '../../src/adapters/mcp-server.js';
import { createEchoWebTools, SERVER_CLOSED_MARKER } from './echo-web-tools.js';

await serveMcpOverStdio(createEchoWebTools(), { name: 'echo-web', version: '1.2.3' });
process.stderr.write(`${SERVER_CLOSED_MARKER}\n`);
