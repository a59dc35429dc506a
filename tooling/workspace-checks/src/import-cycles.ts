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
  const search = new ComponentSearch(edges);
  for (const start of nodes) search.searchFrom(start);
  return search.cycles.sort((left, right) => left[0]!.localeCompare(right[0]!));
}

/**
 * Tarjan's algorithm, iterative so a deep import chain cannot overflow the stack: each node gets an
 * index in the order it is reached and a low link, the smallest index it reaches back to through
 * nodes still on the stack; a node whose low link is its own index roots a component.
 */
class ComponentSearch {
  /** The cycles found so far, each sorted by name. */
  readonly cycles: Cycle[] = [];
  readonly #edges: Map<string, Set<string>>;
  readonly #index = new Map<string, number>();
  readonly #lowLink = new Map<string, number>();
  readonly #onStack = new Set<string>();
  readonly #stack: string[] = [];
  // The path being explored, each node with the imports it has still to follow.
  readonly #work: Array<{ node: string; next: Iterator<string> }> = [];
  #counter = 0;

  constructor(edges: Map<string, Set<string>>) {
    this.#edges = edges;
  }

  /** Explores everything `start` reaches, unless an earlier search reached `start` already. */
  searchFrom(start: string): void {
    if (this.#index.has(start)) return;
    this.#visit(start);
    while (this.#work.length > 0) {
      const frame = this.#work.at(-1)!;
      const step = frame.next.next();
      if (step.done) this.#leave(frame.node);
      else this.#follow(frame.node, step.value);
    }
  }

  #visit(node: string): void {
    this.#index.set(node, this.#counter);
    this.#lowLink.set(node, this.#counter);
    this.#counter += 1;
    this.#stack.push(node);
    this.#onStack.add(node);
    this.#work.push({ node, next: (this.#edges.get(node) ?? new Set<string>()).values() });
  }

  // An import of a node not reached yet is explored; one back into the stack lowers the link.
  #follow(node: string, target: string): void {
    if (!this.#index.has(target)) this.#visit(target);
    else if (this.#onStack.has(target)) this.#lower(node, this.#index.get(target)!);
  }

  // Every import of `node` is followed: its low link passes to the node that led to it.
  #leave(node: string): void {
    this.#work.pop();
    const parent = this.#work.at(-1);
    if (parent) this.#lower(parent.node, this.#lowLink.get(node)!);
    if (this.#lowLink.get(node) === this.#index.get(node)) this.#takeComponent(node);
  }

  #lower(node: string, link: number): void {
    this.#lowLink.set(node, Math.min(this.#lowLink.get(node)!, link));
  }

  // Pops the component `root` roots off the stack; it is a cycle if it has more than one node or
  // `root` imports itself.
  #takeComponent(root: string): void {
    const component: string[] = [];
    let member: string;
    do {
      member = this.#stack.pop()!;
      this.#onStack.delete(member);
      component.push(member);
    } while (member !== root);
    if (component.length > 1 || this.#edges.get(root)?.has(root)) this.cycles.push(component.sort());
  }
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
