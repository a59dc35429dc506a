import { afterEach, describe, expect, it } from 'vitest';
import { buildImportGraph, readSpecifiers } from './import-graph.js';
import { findSiblingInternalImports } from './sibling-internals.js';
import { sourceManifest, type ThrowawayWorkspace, writeWorkspace } from './throwaway-workspace.js';

let workspace: ThrowawayWorkspace | undefined;
afterEach(() => workspace?.remove());

describe('reading imports', () => {
  it('finds static, type-only, re-exported, dynamic and required specifiers, not ones in comments', () => {
    const text = [
      "import { a } from './a.js';",
      "import type { B } from './b.js';",
      "export { c } from './c.js';",
      "const d = await import('./d.js');",
      "const e = require('./e.cjs');",
      "// import { f } from './f.js';",
      'const g = \'import("./g.js")\';',
    ].join('\n');
    expect(readSpecifiers(text).sort()).toEqual(['./a.js', './b.js', './c.js', './d.js', './e.cjs']);
  });
});

describe('path imports of a sibling package', () => {
  it('are found in src/, test/ and __fixtures__/ of a sibling, while imports by name pass', () => {
    workspace = writeWorkspace({
      'packages/alpha/package.json': sourceManifest('@x/alpha'),
      'packages/alpha/src/index.ts': 'export const alpha = 1;\n',
      'packages/alpha/test/helper.ts': 'export const helper = 1;\n',
      'packages/alpha/src/__fixtures__/page.ts': "export const page = '';\n",
      'packages/beta/package.json': sourceManifest('@x/beta'),
      'packages/beta/src/index.ts': [
        "import { alpha } from '@x/alpha';",
        "import { helper } from '../../alpha/test/helper.js';",
        "import { page } from '../../alpha/src/__fixtures__/page.js';",
        "import type { Deep } from '@x/alpha/src/index.js';",
        'export const beta = alpha + helper + page.length;',
      ].join('\n'),
    });
    expect(findSiblingInternalImports(buildImportGraph(workspace.root))).toEqual([
      { file: 'packages/beta/src/index.ts', specifier: '../../alpha/test/helper.js', sibling: '@x/alpha' },
      {
        file: 'packages/beta/src/index.ts',
        specifier: '../../alpha/src/__fixtures__/page.js',
        sibling: '@x/alpha',
      },
      { file: 'packages/beta/src/index.ts', specifier: '@x/alpha/src/index.js', sibling: '@x/alpha' },
    ]);
  });

  it('are found in every folder of a package: benchmarks, scripts and configs as well as src/ and test/', () => {
    workspace = writeWorkspace({
      'packages/alpha/package.json': sourceManifest('@x/alpha'),
      'packages/alpha/src/index.ts': 'export const alpha = 1;\n',
      'packages/alpha/src/parse.ts': 'export const parse = 1;\n',
      'packages/alpha/test/helper.ts': 'export const helper = 1;\n',
      'packages/beta/package.json': sourceManifest('@x/beta'),
      'packages/beta/src/index.ts': "import { alpha } from '@x/alpha';\nexport const beta = alpha;\n",
      'packages/beta/bench/parse.bench.ts': "import { parse } from '../../alpha/src/parse.js';\n",
      'packages/beta/scripts/generate.mjs':
        "const { helper } = await import('../../alpha/test/helper.js');\n",
      'packages/beta/vitest.config.ts': "import { helper } from '../alpha/test/helper.js';\n",
      'tooling/gamma/package.json': { name: '@x/gamma' },
      'tooling/gamma/scripts/report.cjs':
        "const { alpha } = require('../../../packages/alpha/src/index.js');\n",
    });
    expect(findSiblingInternalImports(buildImportGraph(workspace.root))).toEqual([
      {
        file: 'packages/beta/bench/parse.bench.ts',
        specifier: '../../alpha/src/parse.js',
        sibling: '@x/alpha',
      },
      {
        file: 'packages/beta/scripts/generate.mjs',
        specifier: '../../alpha/test/helper.js',
        sibling: '@x/alpha',
      },
      { file: 'packages/beta/vitest.config.ts', specifier: '../alpha/test/helper.js', sibling: '@x/alpha' },
      {
        file: 'tooling/gamma/scripts/report.cjs',
        specifier: '../../../packages/alpha/src/index.js',
        sibling: '@x/alpha',
      },
    ]);
  });

  it('are found from a package under tooling/ or apps/ too, and within one package are its own business', () => {
    workspace = writeWorkspace({
      'packages/alpha/package.json': sourceManifest('@x/alpha'),
      'packages/alpha/src/index.ts': 'export const alpha = 1;\n',
      'packages/alpha/test/alpha.test.ts': "import { alpha } from '../src/index.js';\n",
      'tooling/gamma/package.json': { name: '@x/gamma' },
      'tooling/gamma/src/check.ts': "import { alpha } from '../../../packages/alpha/src/index.js';\n",
    });
    expect(findSiblingInternalImports(buildImportGraph(workspace.root))).toEqual([
      {
        file: 'tooling/gamma/src/check.ts',
        specifier: '../../../packages/alpha/src/index.js',
        sibling: '@x/alpha',
      },
    ]);
  });
});
