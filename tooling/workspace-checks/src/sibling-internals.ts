import { dirname, relative, resolve, sep } from 'node:path';
import { type ImportGraph, packageOf, repositoryPath } from './import-graph.js';

/** Folders of a package that are its own business: siblings reach it through its name and exports. */
export const INTERNAL_FOLDERS = ['src', 'test', '__fixtures__'] as const;

/** An import that reaches into a sibling package's internals by path. */
export interface SiblingInternalImport {
  /** Importing file, relative to the repository root. */
  file: string;
  /** The specifier as written. */
  specifier: string;
  /** Name of the package whose internals it reaches. */
  sibling: string;
}

function isInternalPath(pathInPackage: string): boolean {
  const parts = pathInPackage.split(sep);
  if (parts[0] === '..' || parts.length < 2) return false;
  return parts.some((part) => (INTERNAL_FOLDERS as readonly string[]).includes(part));
}

/**
 * Imports from one workspace package into another's `src/`, `test/` or `__fixtures__/` by a path
 * (relative, absolute, or a deep `@scope/name/src/…` specifier) instead of by the package's name.
 */
export function findSiblingInternalImports(graph: ImportGraph): SiblingInternalImport[] {
  const found: SiblingInternalImport[] = [];
  for (const edge of graph.edges) {
    const importer = packageOf(edge.from, graph.packages);
    let target: string | undefined;
    if (edge.specifier.startsWith('.') || edge.specifier.startsWith('/')) {
      // Judged by where the path points, so a path to a file that is not there yet is caught too.
      target = resolve(dirname(edge.from), edge.specifier);
    } else {
      const named = graph.packages.find((entry) => edge.specifier.startsWith(`${entry.name}/`));
      if (named !== undefined) target = resolve(named.directory, edge.specifier.slice(named.name.length + 1));
    }
    if (target === undefined) continue;
    const owner = packageOf(target, graph.packages);
    if (owner === undefined || owner === importer) continue;
    if (isInternalPath(relative(owner.directory, target)))
      found.push({
        file: repositoryPath(graph.root, edge.from),
        specifier: edge.specifier,
        sibling: owner.name,
      });
  }
  return found;
}
