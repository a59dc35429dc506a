import { findBrokenLinks } from './markdown-links.js';

/** The outcome of the workspace rules: failures, and what an allowlist let through. */
export interface WorkspaceReport {
  /** Each line is one failure; any failure fails the check. */
  problems: string[];
  /** Each line is one tolerated finding, printed so it stays in sight. */
  tolerated: string[];
}

/** Checks the Markdown links of the workspace at `root`. */
export function checkWorkspace(root: string): WorkspaceReport {
  const problems: string[] = [];
  const tolerated: string[] = [];
  for (const link of findBrokenLinks(root))
    problems.push(`${link.file}:${link.line}: link ${link.target}: ${link.reason}`);
  return { problems, tolerated };
}
