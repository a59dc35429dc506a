import { type ImportGraph, packageOf, repositoryPath } from './import-graph.js';

/** A set of nodes that all reach one another through imports, sorted by name. */
export type Cycle = string[];

/** The cycles of a workspace: among module files, and among packages. */
export interface ImportCycles {
  /** Module files (repository paths) that import one another in a circle, type imports included. */
  modules: Cycle[];
  /** Package names whose modules import one another in a circle. */
  packages: Cycle[];
}

/** Strongly connected components of more than one node, or of one node importing itself. */
export function findCycles(nodes: string[], edges: Map<string, Set<string>>): Cycle[] {
  // Tarjan's algorithm, iterative so a deep import chain cannot overflow the stack.
  const index = new Map<string, number>();
  const lowLink = new Map<string, number>();
  const onStack = new Set<string>();
  const stack: string[] = [];
  const cycles: Cycle[] = [];
  let counter = 0;
  for (const start of nodes) {
    if (index.has(start)) continue;
    const work: Array<{ node: string; next: Iterator<string> }> = [];
    const visit = (node: string) => {
      index.set(node, counter);
      lowLink.set(node, counter);
      counter += 1;
      stack.push(node);
      onStack.add(node);
      work.push({ node, next: (edges.get(node) ?? new Set<string>()).values() });
    };
    visit(start);
    while (work.length > 0) {
      const frame = work.at(-1)!;
      const step = frame.next.next();
      if (!step.done) {
        const target = step.value;
        if (!index.has(target)) visit(target);
        else if (onStack.has(target))
          lowLink.set(frame.node, Math.min(lowLink.get(frame.node)!, index.get(target)!));
        continue;
      }
      work.pop();
      const parent = work.at(-1);
      if (parent) lowLink.set(parent.node, Math.min(lowLink.get(parent.node)!, lowLink.get(frame.node)!));
      if (lowLink.get(frame.node) !== index.get(frame.node)) continue;
      const component: string[] = [];
      let member: string;
      do {
        member = stack.pop()!;
        onStack.delete(member);
        component.push(member);
      } while (member !== frame.node);
      if (component.length > 1 || edges.get(frame.node)?.has(frame.node)) cycles.push(component.sort());
    }
  }
  return cycles.sort((left, right) => left[0]!.localeCompare(right[0]!));
}

function addEdge(edges: Map<string, Set<string>>, from: string, to: string): void {
  let targets = edges.get(from);
  if (!targets) {
    targets = new Set();
    edges.set(from, targets);
  }
  targets.add(to);
}

/** Every import cycle of the workspace, between module files and between packages. */
export function findImportCycles(graph: ImportGraph): ImportCycles {
  const moduleEdges = new Map<string, Set<string>>();
  const packageEdges = new Map<string, Set<string>>();
  for (const edge of graph.edges) {
    if (edge.to === undefined) continue;
    addEdge(moduleEdges, repositoryPath(graph.root, edge.from), repositoryPath(graph.root, edge.to));
    const from = packageOf(edge.from, graph.packages);
    const to = packageOf(edge.to, graph.packages);
    if (from && to && from !== to) addEdge(packageEdges, from.name, to.name);
  }
  return {
    modules: findCycles(
      graph.files.map((file) => repositoryPath(graph.root, file)),
      moduleEdges,
    ),
    packages: findCycles(
      graph.packages.map((entry) => entry.name),
      packageEdges,
    ),
  };
}

/** What the allowlist says of today's cycles: those it does not cover, and entries that should shrink. */
export interface CycleVerdict {
  /** Cycles no allowlist entry covers: new ones, or old ones grown. */
  unlisted: Cycle[];
  /** Allowlist entries larger than any cycle still found: replace each with `now` (or drop it when empty). */
  stale: Array<{ listed: Cycle; now: Cycle[] }>;
}

/**
 * Holds found cycles against an allowlist that may only shrink: a cycle passes when one entry lists
 * all of its members; an entry passes only when the cycles inside it are exactly what it lists.
 */
export function judgeCycles(found: Cycle[], allowed: readonly (readonly string[])[]): CycleVerdict {
  const unlisted = found.filter(
    (cycle) => !allowed.some((entry) => cycle.every((node) => entry.includes(node))),
  );
  const stale: CycleVerdict['stale'] = [];
  for (const entry of allowed) {
    const inside = found.filter((cycle) => cycle.every((node) => entry.includes(node)));
    const exact = inside.length === 1 && inside[0]!.length === entry.length;
    if (!exact) stale.push({ listed: [...entry], now: inside });
  }
  return { unlisted, stale };
}
