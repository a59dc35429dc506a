import type { Options } from 'tsup';

/** The shared library build, with per-package overrides (usually `entry`). */
export declare function libraryPreset(overrides?: Options): Options;
