// Child process of the lazy-loading test. Records every module resolved while importing the package
// entry and every adapter module, then prints the resolved URLs as JSON on stdout. With
// `--use-adapters` it also builds each adapter, which must load its SDK (the positive control).
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { register } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const directory = mkdtempSync(join(tmpdir(), 'import-probe-'));
const logPath = join(directory, 'resolved.log');
register('./record-resolutions.mjs', import.meta.url, { data: { logPath } });

// Dynamic imports only: static ones would be resolved before the hook is registered.
await import('../../src/index.js');
const [{ createMcpServer }, { createAiSdkTools }, { createPiAgentTools }] = await Promise.all([
  import('../../src/adapters/mcp-server.js'),
  import('../../src/adapters/ai-sdk-tools.js'),
  import('../../src/adapters/pi-agent-tools.js'),
  import('../../src/adapters/web-tool-catalog.js'),
  import('../../src/adapters/web-tools.js'),
]);
if (process.argv.includes('--use-adapters')) {
  const { createEchoWebTools } = await import('./echo-web-tools.js');
  const tools = createEchoWebTools();
  await createMcpServer(tools);
  await createAiSdkTools(tools);
  createPiAgentTools(tools);
  // Pi tools load nothing from Pi; resolving its agent (what a host using them does) shows the probe
  // would see it, without the seconds that loading every Pi provider takes.
  import.meta.resolve('@mariozechner/pi-agent-core');
}
const resolved = readFileSync(logPath, 'utf8').split('\n').filter(Boolean);
rmSync(directory, { recursive: true, force: true });
process.stdout.write(JSON.stringify(resolved));
