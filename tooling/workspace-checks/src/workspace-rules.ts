import {
  ALLOWED_IMPORT_CYCLES,
  ALLOWED_PACKAGE_CYCLES,
  ALLOWED_SIBLING_INTERNAL_IMPORTS,
} from './import-allowlist.js';
import { findImportCycles, judgeCycles } from './import-cycles.js';
import { buildImportGraph } from './import-graph.js';
import { findBrokenLinks } from './markdown-links.js';
import { findSiblingInternalImports } from './sibling-internals.js';

/** What the import checks tolerate; the defaults are today's shrink-only lists. */
export interface Allowlists {
  /** Module cycles tolerated, each as its sorted repository paths. */
  moduleCycles: readonly (readonly string[])[];
  /** Package cycles tolerated, each as its sorted package names. */
  packageCycles: readonly (readonly string[])[];
  /** Path imports of a sibling's internals tolerated, by file and specifier. */
  siblingInternalImports: readonly { file: string; specifier: string }[];
}

/** The allowlists in `import-allowlist.ts`. */
export const DEFAULT_ALLOWLISTS: Allowlists = {
  moduleCycles: ALLOWED_IMPORT_CYCLES,
  packageCycles: ALLOWED_PACKAGE_CYCLES,
  siblingInternalImports: ALLOWED_SIBLING_INTERNAL_IMPORTS,
};

/** The outcome of the workspace rules: failures, and what an allowlist let through. */
export interface WorkspaceReport {
  /** Each line is one failure; any failure fails the check. */
  problems: string[];
  /** Each line is one tolerated finding, printed so it stays in sight. */
  tolerated: string[];
}

/** Checks Markdown links, path imports of siblings' internals and import cycles of the workspace at `root`. */
export function checkWorkspace(root: string, allowlists: Allowlists = DEFAULT_ALLOWLISTS): WorkspaceReport {
  const problems: string[] = [];
  const tolerated: string[] = [];

  for (const link of findBrokenLinks(root))
    problems.push(`${link.file}:${link.line}: link ${link.target}: ${link.reason}`);

  const graph = buildImportGraph(root);
  const reaches = findSiblingInternalImports(graph);
  const isListed = (reach: { file: string; specifier: string }) =>
    allowlists.siblingInternalImports.some(
      (entry) => entry.file === reach.file && entry.specifier === reach.specifier,
    );
  for (const reach of reaches) {
    const line = `${reach.file} imports ${reach.specifier}, inside ${reach.sibling}`;
    if (isListed(reach)) tolerated.push(line);
    else problems.push(`${line}: import the package by name, or move what both need into tooling/`);
  }
  for (const entry of allowlists.siblingInternalImports) {
    if (!reaches.some((reach) => reach.file === entry.file && reach.specifier === entry.specifier))
      problems.push(
        `${entry.file} no longer imports ${entry.specifier}: remove it from ALLOWED_SIBLING_INTERNAL_IMPORTS`,
      );
  }

  const cycles = findImportCycles(graph);
  const kinds = [
    ['module', cycles.modules, allowlists.moduleCycles, 'ALLOWED_IMPORT_CYCLES'],
    ['package', cycles.packages, allowlists.packageCycles, 'ALLOWED_PACKAGE_CYCLES'],
  ] as const;
  for (const [kind, found, allowed, listName] of kinds) {
    const verdict = judgeCycles(found, allowed);
    for (const cycle of found) {
      const line = `${kind} import cycle: ${cycle.join(' <-> ')}`;
      if (verdict.unlisted.includes(cycle)) problems.push(`${line}: break it (type imports count)`);
      else tolerated.push(line);
    }
    for (const { listed, now } of verdict.stale) {
      const replacement =
        now.length === 0
          ? 'remove the entry'
          : `replace it with ${now.map((cycle) => cycle.join(', ')).join(' and ')}`;
      problems.push(`${listName} lists ${listed.join(', ')}, which is no longer one cycle: ${replacement}`);
    }
  }
  return { problems, tolerated };
}
