// Starts the fixture web in a process of its own for benchmarks that measure their own memory:
// prints `{"port":N}` once listening and closes when its stdin ends.
import { startFixtureWeb } from '@mono-agent/fixture-web';

const web = await startFixtureWeb();
process.stdout.write(`${JSON.stringify({ port: web.port })}\n`);
process.stdin.resume();
process.stdin.on('end', () => {
  void web.close().then(() => process.exit(0));
});
