import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';
import ts from 'typescript';

/** Folders that hold the workspace's packages, relative to the repository root. */
export const WORKSPACE_FOLDERS = ['packages', 'apps', 'tooling'] as const;

// Build output, installed dependencies and recorded data are not modules of the workspace.
const SKIPPED_DIRECTORIES = new Set([
  'node_modules',
  'dist',
  '.turbo',
  'coverage',
  '__fixtures__',
  'fixtures',
]);
const MODULE_EXTENSIONS = ['.ts', '.tsx', '.mts', '.cts', '.js', '.mjs', '.cjs'];
// NodeNext imports name the emitted file; the source beside it has the TypeScript extension.
const SOURCE_FOR_EMITTED: Record<string, string[]> = {
  '.js': ['.ts', '.tsx'],
  '.mjs': ['.mts'],
  '.cjs': ['.cts'],
};

/** One package of the workspace: its folder and the name its manifest gives it. */
export interface GraphPackage {
  /** npm name from package.json. */
  name: string;
  /** Absolute path of the package folder. */
  directory: string;
  /** Its `exports` map (or undefined), used to resolve imports of it by name. */
  exports: unknown;
}

/** An import of one workspace file by another, as written and as resolved. */
export interface ImportEdge {
  /** Absolute path of the importing file. */
  from: string;
  /** The specifier as written. */
  specifier: string;
  /** Absolute path of the imported workspace file, or undefined for anything outside the workspace. */
  to: string | undefined;
}

/** Every module of the workspace and the imports between them. */
export interface ImportGraph {
  /** Repository root the paths are under. */
  root: string;
  /** The workspace packages. */
  packages: GraphPackage[];
  /** Absolute paths of every module file. */
  files: string[];
  /** Every import found, resolved or not. */
  edges: ImportEdge[];
}

/** The workspace packages under `packages/`, `apps/` and `tooling/` of a repository. */
export function listGraphPackages(root: string): GraphPackage[] {
  const found: GraphPackage[] = [];
  for (const folder of WORKSPACE_FOLDERS) {
    const parent = join(root, folder);
    if (!existsSync(parent)) continue;
    for (const entry of readdirSync(parent, { withFileTypes: true })) {
      if (!entry.isDirectory()) continue;
      const directory = join(parent, entry.name);
      const manifestPath = join(directory, 'package.json');
      if (!existsSync(manifestPath)) continue;
      const manifest = JSON.parse(readFileSync(manifestPath, 'utf8'));
      found.push({ name: manifest.name, directory, exports: manifest.exports });
    }
  }
  return found;
}

function listModules(directory: string, into: string[]): void {
  for (const entry of readdirSync(directory, { withFileTypes: true })) {
    if (entry.isDirectory()) {
      if (!SKIPPED_DIRECTORIES.has(entry.name)) listModules(join(directory, entry.name), into);
    } else if (
      MODULE_EXTENSIONS.some((extension) => entry.name.endsWith(extension)) &&
      !/\.d\.[mc]?ts$/.test(entry.name)
    ) {
      into.push(join(directory, entry.name));
    }
  }
}

/** The specifiers a module imports: static, type-only, re-exports, literal `import()` and `require()`. */
export function readSpecifiers(text: string): string[] {
  // The compiler's own pre-scan skips comments and strings that merely look like imports.
  return ts.preProcessFile(text, true, true).importedFiles.map((file) => file.fileName);
}

function isFile(path: string): boolean {
  return existsSync(path) && statSync(path).isFile();
}

function resolveFilePath(path: string): string | undefined {
  for (const [emitted, sources] of Object.entries(SOURCE_FOR_EMITTED)) {
    if (!path.endsWith(emitted)) continue;
    const stem = path.slice(0, -emitted.length);
    for (const source of sources) if (isFile(stem + source)) return stem + source;
  }
  if (isFile(path)) return path;
  for (const extension of MODULE_EXTENSIONS) if (isFile(path + extension)) return path + extension;
  for (const extension of MODULE_EXTENSIONS) {
    const index = join(path, `index${extension}`);
    if (isFile(index)) return index;
  }
  return undefined;
}

// Inside the workspace a sibling is read from its source, so the `@mono-agent/source` condition wins.
function exportTarget(target: unknown): string | undefined {
  if (typeof target === 'string') return target;
  if (target === null || typeof target !== 'object') return undefined;
  const conditions = target as Record<string, unknown>;
  for (const condition of ['@mono-agent/source', 'import', 'default']) {
    const found = exportTarget(conditions[condition]);
    if (found !== undefined) return found;
  }
  return undefined;
}

function resolvePackageImport(specifier: string, packages: GraphPackage[]): string | undefined {
  const owner = packages.find((entry) => specifier === entry.name || specifier.startsWith(`${entry.name}/`));
  if (owner === undefined) return undefined;
  const subpath = `.${specifier.slice(owner.name.length)}`;
  const exportsField = owner.exports;
  const mapped =
    exportsField !== null && typeof exportsField === 'object' && !Array.isArray(exportsField)
      ? Object.keys(exportsField).some((key) => key.startsWith('.'))
        ? exportTarget((exportsField as Record<string, unknown>)[subpath])
        : subpath === '.'
          ? exportTarget(exportsField)
          : undefined
      : subpath === '.'
        ? exportTarget(exportsField)
        : undefined;
  // A path the exports map does not name is still followed on disk, so a deep import is seen for what it is.
  return resolveFilePath(join(owner.directory, mapped ?? subpath));
}

/** Resolves one specifier written in `from` to a workspace file, or undefined when it leads elsewhere. */
export function resolveSpecifier(
  specifier: string,
  from: string,
  packages: GraphPackage[],
): string | undefined {
  if (specifier.startsWith('.') || specifier.startsWith('/')) {
    return resolveFilePath(resolve(dirname(from), specifier));
  }
  return resolvePackageImport(specifier, packages);
}

/** Reads every module of the workspace at `root` and resolves its imports. */
export function buildImportGraph(root: string): ImportGraph {
  const packages = listGraphPackages(root);
  const files: string[] = [];
  for (const entry of packages) listModules(entry.directory, files);
  const edges: ImportEdge[] = [];
  for (const file of files) {
    for (const specifier of readSpecifiers(readFileSync(file, 'utf8'))) {
      edges.push({ from: file, specifier, to: resolveSpecifier(specifier, file, packages) });
    }
  }
  return { root, packages, files, edges };
}

/** The package a file belongs to: the one whose folder holds it most closely. */
export function packageOf(file: string, packages: GraphPackage[]): GraphPackage | undefined {
  let owner: GraphPackage | undefined;
  for (const entry of packages) {
    if (file.startsWith(entry.directory + sep) && (!owner || entry.directory.length > owner.directory.length))
      owner = entry;
  }
  return owner;
}

/** A path relative to the repository root, with forward slashes, for messages and allowlists. */
export function repositoryPath(root: string, file: string): string {
  return relative(root, file).split(sep).join('/');
}
