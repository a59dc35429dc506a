// What the import checks tolerate today, and nothing more. The lists may only shrink: the checks
// fail on any cycle or reach into a sibling that is not listed here, and also on an entry that no
// longer matches what the code does, so a fixed one is struck off and cannot come back unnoticed.
// Do not add entries; remove the import instead.

/**
 * Import cycles between modules (repository paths; type imports count, since they tie the files'
 * design together even when erased from the build).
 */
export const ALLOWED_IMPORT_CYCLES: readonly (readonly string[])[] = [];

/** Import cycles between packages (npm names). */
export const ALLOWED_PACKAGE_CYCLES: readonly (readonly string[])[] = [];

/**
 * Imports (file, specifier as written) that reach a sibling's `src/`, `test/` or `__fixtures__/` by
 * path. None is left: a helper that several packages share lives in `tooling/` (the fixture web, the
 * test services), and what a sibling does not export through its name is not for others to import.
 */
export const ALLOWED_SIBLING_INTERNAL_IMPORTS: readonly { file: string; specifier: string }[] = [];
