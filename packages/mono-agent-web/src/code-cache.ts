// The bin runs its CommonJS bundle (dist/bin/cli-main.cjs) as `require()` would, except that it hands
// V8 the code cache built beside it (dist/bin/cli-main.cjs.cache): the bytecode of the bundle's
// top level and of every function one command of the CLI ran. With it V8 neither parses the bundle
// nor compiles those functions again, which is most of what a short command costs beyond starting
// Node. V8 checks the cache against the text compiled and its own version and flags, and compiles
// afresh when it does not fit (another Node, an edited bundle): the cache can only make a start
// faster, never change what runs.
//
// A code cache also carries how its script was compiled, and on Node 20 what lets `import()` work
// inside a `vm` script does not survive into another process: from a cached script `import()` fails.
// So the bundle holds no `import()`: when the package is built, scripts/finish-cli-bundle.mjs turns
// each `import("…")` of the bundle into a call of the same length to the function named by
// {@link BUNDLE_IMPORT}, which this module passes in beside `require`, and which imports from this
// file (in the same folder, so every specifier resolves as before). Then it writes the cache by
// running one command with MONO_AGENT_WEB_WRITE_CODE_CACHE naming the file to write.

/** Beside a bundle, the file holding its code cache: the bundle's name plus this. */
export const CODE_CACHE_SUFFIX = '.cache';

/**
 * What the finished bundle calls where its source said `import(`: as long as `import`, so that
 * columns, and the source map, stay as they were.
 */
export const BUNDLE_IMPORT = 'esmImp';

/**
 * The script name the bundle is compiled under, wherever it is installed. V8 keeps the name a code
 * cache was written under and puts it in stack traces of every run that uses the cache, so a cache
 * written under the bundle's path would print the build machine's folder from an installed copy.
 * One fixed name, relative to the package, is true for every copy.
 */
export const BUNDLE_SCRIPT_NAME = '@mono-agent/web/dist/bin/cli-main.cjs';

/** The environment variable naming a file to write the bundle's code cache to when the command ends. */
export const WRITE_CODE_CACHE_VARIABLE = 'MONO_AGENT_WEB_WRITE_CODE_CACHE';

/**
 * A CommonJS module's source in the function Node wraps it in. The source starts on the first line,
 * so line numbers in stack traces are the file's own.
 */
function wrapCommonJs(source: string): string {
  return `(function (exports, require, module, __filename, __dirname, ${BUNDLE_IMPORT}) { ${source}\n});`;
}

/**
 * Compiles a CommonJS file's source as the bin runs it, under `scriptName`; the writer and the reader
 * of a cache both call it.
 */
export function compileCommonJs(
  scriptName: string,
  source: string,
  cachedData?: Buffer,
): import('node:vm').Script {
  const vm = process.getBuiltinModule('node:vm');
  return new vm.Script(wrapCommonJs(source), {
    filename: scriptName,
    ...(cachedData === undefined ? {} : { cachedData }),
  });
}

/** What became of the code cache when a bundle was run. */
export type CodeCacheUse = 'used' | 'rejected' | 'absent';

/**
 * Runs the CommonJS file `file` (which runs the CLI when it loads) with its code cache when V8
 * accepts it. Throws what compiling or running the file throws.
 */
export function runCommonJsBundle(
  file: string,
  environment: NodeJS.ProcessEnv = process.env,
  scriptName: string = BUNDLE_SCRIPT_NAME,
): CodeCacheUse {
  const { readFileSync, writeFileSync } = process.getBuiltinModule('node:fs');
  const Module = process.getBuiltinModule('node:module');
  const { dirname } = process.getBuiltinModule('node:path');
  const source = readFileSync(file, 'utf8');
  let cachedData: Buffer | undefined;
  try {
    cachedData = readFileSync(`${file}${CODE_CACHE_SUFFIX}`);
  } catch {
    // No cache (a development build, or a package copied without it): compile as require() does.
  }
  const script = compileCommonJs(scriptName, source, cachedData);
  const use: CodeCacheUse =
    cachedData === undefined ? 'absent' : script.cachedDataRejected === true ? 'rejected' : 'used';
  const writeTo = environment[WRITE_CODE_CACHE_VARIABLE];
  if (writeTo !== undefined && writeTo !== '') {
    // At exit the cache holds every function the command ran, not only the top level.
    process.once('exit', () => writeFileSync(writeTo, script.createCachedData()));
  }
  // The module as require() would have made it, in the same module cache.
  const module = new Module(file);
  module.filename = file;
  const require = Module.createRequire(file);
  require.cache[file] = module;
  const run = script.runInThisContext() as (
    exports: unknown,
    require: NodeJS.Require,
    module: unknown,
    filename: string,
    dirname: string,
    bundleImport: (specifier: string) => Promise<unknown>,
  ) => void;
  try {
    run.call(module.exports, module.exports, require, module, file, dirname(file), importFor(file));
  } catch (error) {
    delete require.cache[file];
    throw error;
  }
  module.loaded = true;
  return use;
}

/**
 * `import()` for the bundle `file`, from this file, which Node loaded itself. A relative specifier
 * is taken from the bundle's folder; a package name resolves from this file's folder, which for the
 * bin is the bundle's own.
 */
function importFor(file: string): (specifier: string) => Promise<unknown> {
  const { dirname, resolve } = process.getBuiltinModule('node:path');
  const { pathToFileURL } = process.getBuiltinModule('node:url');
  return (specifier) =>
    import(/^\.\.?\//.test(specifier) ? pathToFileURL(resolve(dirname(file), specifier)).href : specifier);
}
