import { afterEach, describe, expect, it } from 'vitest';
import { findImportCycles, judgeCycles } from './import-cycles.js';
import { buildImportGraph } from './import-graph.js';
import { sourceManifest, type ThrowawayWorkspace, writeWorkspace } from './throwaway-workspace.js';

let workspace: ThrowawayWorkspace | undefined;
afterEach(() => workspace?.remove());

describe('import cycles', () => {
  it('are found between modules of one package through type imports too', () => {
    workspace = writeWorkspace({
      'packages/alpha/package.json': sourceManifest('@x/alpha'),
      'packages/alpha/src/index.ts': "export { run } from './run.js';\n",
      'packages/alpha/src/run.ts': "import type { Options } from './options.js';\nexport const run = 1;\n",
      'packages/alpha/src/options.ts':
        "import type { run } from './run.js';\nexport type Options = typeof run;\n",
    });
    expect(findImportCycles(buildImportGraph(workspace.root))).toEqual({
      modules: [['packages/alpha/src/options.ts', 'packages/alpha/src/run.ts']],
      packages: [],
    });
  });

  it('are not found in a chain that never comes back', () => {
    workspace = writeWorkspace({
      'packages/alpha/package.json': sourceManifest('@x/alpha'),
      'packages/alpha/src/index.ts': "export { run } from './run.js';\n",
      'packages/alpha/src/run.ts': "import type { Options } from './options.js';\nexport const run = 1;\n",
      'packages/alpha/src/options.ts': 'export type Options = number;\n',
    });
    expect(findImportCycles(buildImportGraph(workspace.root))).toEqual({ modules: [], packages: [] });
  });

  it('are found between packages imported by name', () => {
    workspace = writeWorkspace({
      'packages/alpha/package.json': sourceManifest('@x/alpha'),
      'packages/alpha/src/index.ts': "import type { B } from '@x/beta';\nexport type A = B;\n",
      'packages/beta/package.json': sourceManifest('@x/beta'),
      'packages/beta/src/index.ts': "export type B = string;\nexport { helper } from './helper.js';\n",
      'packages/beta/src/helper.ts': "import type { A } from '@x/alpha';\nexport const helper = '' as A;\n",
    });
    const cycles = findImportCycles(buildImportGraph(workspace.root));
    expect(cycles.packages).toEqual([['@x/alpha', '@x/beta']]);
    expect(cycles.modules).toEqual([
      ['packages/alpha/src/index.ts', 'packages/beta/src/helper.ts', 'packages/beta/src/index.ts'],
    ]);
  });

  it('pass the allowlist only as listed: a grown cycle fails, and a shrunk one asks for its entry to shrink', () => {
    const listed = [['a.ts', 'b.ts', 'c.ts']];
    expect(judgeCycles([['a.ts', 'b.ts', 'c.ts']], listed)).toEqual({ unlisted: [], stale: [] });
    expect(judgeCycles([['a.ts', 'b.ts', 'c.ts', 'd.ts']], listed).unlisted).toHaveLength(1);
    expect(judgeCycles([['a.ts', 'b.ts']], listed)).toEqual({
      unlisted: [],
      stale: [{ listed: ['a.ts', 'b.ts', 'c.ts'], now: [['a.ts', 'b.ts']] }],
    });
    expect(judgeCycles([], listed).stale).toEqual([{ listed: ['a.ts', 'b.ts', 'c.ts'], now: [] }]);
  });
});
