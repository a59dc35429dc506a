import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';

// Installed dependencies, build output and version control hold Markdown that is not ours.
const SKIPPED_DIRECTORIES = new Set(['node_modules', 'dist', '.git', '.turbo', 'coverage']);

/** A relative link in a Markdown file whose target, or whose heading anchor, does not exist. */
export interface BrokenLink {
  /** The Markdown file, relative to the repository root. */
  file: string;
  /** 1-based line of the link. */
  line: number;
  /** The link target as written. */
  target: string;
  /** Why it does not resolve. */
  reason: string;
}

/** Every Markdown file under `root`, outside dependencies and build output. */
export function listMarkdownFiles(root: string): string[] {
  const found: string[] = [];
  const walk = (directory: string) => {
    for (const entry of readdirSync(directory, { withFileTypes: true })) {
      if (entry.isDirectory()) {
        if (!SKIPPED_DIRECTORIES.has(entry.name)) walk(join(directory, entry.name));
      } else if (entry.name.endsWith('.md')) {
        found.push(join(directory, entry.name));
      }
    }
  };
  walk(root);
  return found.sort();
}

// Code is shown, not linked: fenced blocks and inline code spans are blanked, keeping line numbers.
function blankCode(text: string): string {
  const withoutFences = text.replace(/^( {0,3})(```+|~~~+)[^\n]*\n[\s\S]*?^ {0,3}\2[^\n]*$/gm, (block) =>
    block.replace(/[^\n]/g, ' '),
  );
  return withoutFences.replace(/(`+)[^`\n][\s\S]*?\1/g, (span) => span.replace(/[^\n]/g, ' '));
}

/** The anchors GitHub gives a Markdown file's headings (and any explicit `id` or `name`). */
export function headingAnchors(text: string): Set<string> {
  const anchors = new Set<string>();
  const seen = new Map<string, number>();
  const source = text.replace(/^( {0,3})(```+|~~~+)[^\n]*\n[\s\S]*?^ {0,3}\2[^\n]*$/gm, '');
  for (const match of source.matchAll(/^ {0,3}#{1,6}\s+(.+?)\s*#*\s*$/gm)) {
    const plain = match[1]!
      .replace(/!?\[([^\]]*)\]\([^)]*\)/g, '$1')
      .replace(/<[^>]+>/g, '')
      .replace(/[`*]/g, '');
    const slug = plain
      .toLowerCase()
      .replace(/[^\p{L}\p{N}\p{M}\s_-]/gu, '')
      .replace(/\s/g, '-');
    const count = seen.get(slug) ?? 0;
    seen.set(slug, count + 1);
    anchors.add(count === 0 ? slug : `${slug}-${count}`);
  }
  for (const match of source.matchAll(/<[^>]+\s(?:id|name)="([^"]+)"/g)) anchors.add(match[1]!);
  return anchors;
}

/** The link targets of a Markdown text (inline links, images and reference definitions, not footnotes), with their lines. */
export function readLinkTargets(text: string): Array<{ target: string; line: number }> {
  const source = blankCode(text);
  const targets: Array<{ target: string; line: number }> = [];
  const lineAt = (offset: number) => source.slice(0, offset).split('\n').length;
  for (const match of source.matchAll(/\]\(\s*(<[^>]*>|[^)\s]+)(?:\s+["'(][^)]*)?\)/g)) {
    targets.push({ target: match[1]!.replace(/^<|>$/g, ''), line: lineAt(match.index!) });
  }
  // `[^1]: …` defines a footnote, not a link.
  for (const match of source.matchAll(/^ {0,3}\[(?!\^)[^\]]+\]:\s*(<[^>]*>|\S+)/gm)) {
    targets.push({ target: match[1]!.replace(/^<|>$/g, ''), line: lineAt(match.index!) });
  }
  return targets;
}

// Web addresses, mail and other schemes are outside the repository; only paths are checked.
function isExternalTarget(target: string): boolean {
  return /^[a-z][a-z0-9+.-]*:/i.test(target) || target.startsWith('//');
}

/** Why the relative link `target` in `file` does not resolve, or `undefined` when it does. */
function linkProblem(
  file: string,
  target: string,
  anchorsFor: (file: string) => Set<string>,
): string | undefined {
  const hashAt = target.indexOf('#');
  const pathPart = decodeURIComponent(hashAt === -1 ? target : target.slice(0, hashAt));
  const anchor = hashAt === -1 ? undefined : decodeURIComponent(target.slice(hashAt + 1));
  const destination = pathPart === '' ? file : resolve(dirname(file), pathPart);
  if (!existsSync(destination)) return 'no such file';
  // Only a Markdown file has headings to check an anchor against.
  if (!anchor || !destination.endsWith('.md') || !statSync(destination).isFile()) return undefined;
  return anchorsFor(destination).has(anchor) ? undefined : `no heading with anchor #${anchor}`;
}

/** Relative links of every Markdown file under `root` that point at a missing file or heading. */
export function findBrokenLinks(root: string): BrokenLink[] {
  const broken: BrokenLink[] = [];
  const anchorsOf = new Map<string, Set<string>>();
  const anchorsFor = (file: string) => {
    let anchors = anchorsOf.get(file);
    if (!anchors) {
      anchors = headingAnchors(readFileSync(file, 'utf8'));
      anchorsOf.set(file, anchors);
    }
    return anchors;
  };
  for (const file of listMarkdownFiles(root)) {
    for (const { target, line } of readLinkTargets(readFileSync(file, 'utf8'))) {
      if (isExternalTarget(target)) continue;
      const reason = linkProblem(file, target, anchorsFor);
      if (reason !== undefined) {
        broken.push({ file: relative(root, file).split(sep).join('/'), line, target, reason });
      }
    }
  }
  return broken;
}
