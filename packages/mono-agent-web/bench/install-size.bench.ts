// What `npm install @mono-agent/web` puts on disk: the package and its whole production dependency
// closure, walked from this workspace's installed tree (Node's resolution from each dependent), with
// the mono-agent packages counted as they are packed. Peer dependencies count unless optional, as npm
// installs those. Sizes are the files' own (`du --apparent-size`); on disk each file also fills its
// last block, which adds about a third for these many small files. Prints the total, the five
// largest dependencies with what each is there for, and the optional peers left out.
import { execFileSync } from 'node:child_process';
import { existsSync, lstatSync, readdirSync, readFileSync, realpathSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { formatTable } from '@mono-agent/bench';

/** Why the packages of this repository depend on what they depend on directly. */
const PURPOSE: Record<string, string> = {
  '@modelcontextprotocol/sdk': 'the MCP server of `mono-agent-web mcp` (loaded only by that command)',
  defuddle: 'article extraction (cleans the article block)',
  '@mozilla/readability': 'article extraction (finds the article block)',
  linkedom: 'the DOM HTML pages are parsed into',
  turndown: 'HTML to Markdown',
  '@mixmark-io/domino':
    "Turndown's own DOM: installed with it, never loaded (Turndown is handed linkedom nodes)",
  unpdf: 'PDF text (PDF.js without a worker)',
  'fast-xml-parser': 'XML, RSS and Atom',
  chardet: 'charset detection of undeclared bodies',
  'jsonc-parser': 'the line and column of a JSON error',
  undici: 'HTTP with the destination policy checked on the connected address',
  'ipaddr.js': 'address classification for the network policy',
  htmlparser2: 'parsing DuckDuckGo and Startpage result pages',
  domhandler: 'the DOM tree of keyless result pages',
  domutils: 'queries over keyless result pages',
  valibot: 'tool argument validation',
  '@valibot/to-json-schema': 'the JSON Schemas the model sees',
};

interface Installed {
  name: string;
  directory: string;
  bytes: number;
  /** The dependency path from @mono-agent/web that first reached it. */
  via: string[];
  description: string;
}

const webDirectory = fileURLToPath(new URL('..', import.meta.url));

function packageDirectory(name: string, from: string): string | undefined {
  for (let directory = from; ; directory = dirname(directory)) {
    const candidate = join(directory, 'node_modules', name);
    if (existsSync(join(candidate, 'package.json'))) return realpathSync(candidate);
    if (dirname(directory) === directory) return undefined;
  }
}

function directoryBytes(directory: string): number {
  let total = 0;
  for (const entry of readdirSync(directory)) {
    if (entry === 'node_modules') continue;
    const path = join(directory, entry);
    const stats = lstatSync(path);
    total += stats.isDirectory() ? directoryBytes(path) : stats.isSymbolicLink() ? 0 : stats.size;
  }
  return total;
}

/** A workspace package as npm would unpack its tarball (its `files`, README, LICENSE, package.json). */
function packedBytes(directory: string): number {
  const output = execFileSync('npm', ['pack', '--dry-run', '--json', '--ignore-scripts'], {
    cwd: directory,
    encoding: 'utf8',
  });
  return (JSON.parse(output) as { unpackedSize: number }[])[0]!.unpackedSize;
}

const installed = new Map<string, Installed>();
/** Optional peers of the packages walked: not installed with @mono-agent/web, so not counted. */
const optionalPeers = new Set<string>();
const queue: { directory: string; via: string[] }[] = [{ directory: realpathSync(webDirectory), via: [] }];
while (queue.length > 0) {
  const { directory, via } = queue.shift()!;
  const manifest = JSON.parse(readFileSync(join(directory, 'package.json'), 'utf8'));
  if (installed.has(directory)) continue;
  const isWorkspace = !directory.includes('/node_modules/');
  installed.set(directory, {
    name: manifest.name,
    directory,
    bytes: isWorkspace ? packedBytes(directory) : directoryBytes(directory),
    via,
    description: manifest.description ?? '',
  });
  const optional = new Set(
    Object.entries((manifest.peerDependenciesMeta ?? {}) as Record<string, { optional?: boolean }>)
      .filter(([, meta]) => meta.optional === true)
      .map(([name]) => name),
  );
  if (isWorkspace) for (const name of optional) optionalPeers.add(name);
  const requiredPeers = Object.fromEntries(
    Object.entries(manifest.peerDependencies ?? {}).filter(([name]) => !optional.has(name)),
  );
  const dependencies = { ...manifest.dependencies, ...manifest.optionalDependencies, ...requiredPeers };
  for (const name of Object.keys(dependencies)) {
    const dependency = packageDirectory(name, directory);
    if (dependency !== undefined && !installed.has(dependency)) {
      queue.push({ directory: dependency, via: [...via, manifest.name] });
    }
  }
}

const all = [...installed.values()];
const total = all.reduce((sum, entry) => sum + entry.bytes, 0);
const ours = all.filter((entry) => entry.name.startsWith('@mono-agent/'));
const megabytes = (bytes: number) => (bytes / 1024 / 1024).toFixed(2);
const thirdParty = all
  .filter((entry) => !entry.name.startsWith('@mono-agent/'))
  .sort((a, b) => b.bytes - a.bytes);

/** What a dependency is for: its own purpose when a package of ours names it, else whose it is. */
function purposeOf(entry: Installed): string {
  if (PURPOSE[entry.name] !== undefined) return PURPOSE[entry.name]!;
  const owner = [...entry.via].reverse().find((name) => PURPOSE[name] !== undefined);
  return owner === undefined ? entry.description.slice(0, 70) : `needed by ${owner}: ${PURPOSE[owner]}`;
}

console.log('Install size of @mono-agent/web with its production dependencies\n');
console.log(
  formatTable(
    ['', 'packages', 'MiB'],
    [
      ['total', String(all.length), megabytes(total)],
      [
        '@mono-agent/* (as packed)',
        String(ours.length),
        megabytes(ours.reduce((sum, entry) => sum + entry.bytes, 0)),
      ],
      [
        'third-party',
        String(thirdParty.length),
        megabytes(total - ours.reduce((sum, entry) => sum + entry.bytes, 0)),
      ],
    ],
  ),
);
console.log('\nThe five largest dependencies\n');
console.log(
  formatTable(
    ['dependency', 'MiB', 'share', 'reached through', 'what it is for'],
    thirdParty
      .slice(0, 5)
      .map((entry) => [
        entry.name,
        megabytes(entry.bytes),
        `${((entry.bytes / total) * 100).toFixed(1)}%`,
        entry.via.slice(1).join(' > ') || '@mono-agent/web',
        purposeOf(entry),
      ]),
  ),
);
const leftOut = [...optionalPeers].filter((name) => !all.some((entry) => entry.name === name)).sort();
console.log(`\nOptional peers left out, installed only by a user who needs them: ${leftOut.join(', ')}`);
