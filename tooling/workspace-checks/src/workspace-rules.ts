import { ALLOWED_SIBLING_INTERNAL_IMPORTS } from './import-allowlist.js';
import { buildImportGraph } from './import-graph.js';
import { findBrokenLinks } from './markdown-links.js';
import { findSiblingInternalImports } from './sibling-internals.js';

/** What the import checks tolerate; the defaults are today's shrink-only lists. */
export interface Allowlists {
  /** Path imports of a sibling's internals tolerated, by file and specifier. */
  siblingInternalImports: readonly { file: string; specifier: string }[];
}

/** The allowlists in `import-allowlist.ts`. */
export const DEFAULT_ALLOWLISTS: Allowlists = {
  siblingInternalImports: ALLOWED_SIBLING_INTERNAL_IMPORTS,
};

/** The outcome of the workspace rules: failures, and what an allowlist let through. */
export interface WorkspaceReport {
  /** Each line is one failure; any failure fails the check. */
  problems: string[];
  /** Each line is one tolerated finding, printed so it stays in sight. */
  tolerated: string[];
}

/** Checks Markdown links and path imports of siblings' internals of the workspace at `root`. */
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

  return { problems, tolerated };
}
