// `pnpm demo`: the research console, a local web page that shows what WebSearch and WebFetch give a
// model. With the public web reachable it searches it; without it (or with --fixtures) it says so and
// serves the loopback fixture web and a local searx instead, so every panel works offline.
import { parseArgs } from 'node:util';
import { startDemo } from './start-demo.js';

const USAGE = `usage: pnpm demo [-- --fixtures] [-- --port N] [-- --config FILE]

  --fixtures     serve the loopback fixture web and a local searx instead of the public web
  --port N       listen on this loopback port (default: a free one)
  --config FILE  agent configuration file for the public-web mode (as for mono-agent-web)
`;

function fail(message: string): never {
  process.stderr.write(`demo: ${message}\n${USAGE}`);
  process.exit(2);
}

let values: { fixtures?: boolean; port?: string; config?: string; help?: boolean } = {};
try {
  ({ values } = parseArgs({
    args: process.argv.slice(2).filter((argument) => argument !== '--'),
    options: {
      fixtures: { type: 'boolean' },
      port: { type: 'string' },
      config: { type: 'string' },
      help: { type: 'boolean', short: 'h' },
    },
  }));
} catch (error) {
  fail((error as Error).message);
}
if (values.help) {
  process.stdout.write(USAGE);
  process.exit(0);
}
const port = values.port === undefined ? 0 : Number(values.port);
if (!/^\d+$/.test(values.port ?? '0') || port > 65_535)
  fail(`--port must be a port number from 0 to 65535, not ${values.port}`);

const demo = await startDemo({
  ...(values.fixtures ? { fixtures: true } : {}),
  port,
  ...(values.config === undefined ? {} : { configFile: values.config }),
  print: (line) => process.stdout.write(`${line}\n`),
}).catch((error: unknown) => {
  process.stderr.write(`demo: could not start: ${(error as Error).message}\n`);
  process.exit(1);
});
const serving = demo.offline?.description ?? 'the public web';
process.stdout.write(`demo: serving ${serving}\ndemo: research console at ${demo.url}  (Ctrl-C stops it)\n`);

let stopping = false;
const stop = async () => {
  if (stopping) return;
  stopping = true;
  process.stdout.write('demo: stopping\n');
  await demo.close();
  process.stdout.write('demo: stopped\n');
  process.exit(0);
};
process.on('SIGINT', () => void stop());
process.on('SIGTERM', () => void stop());
