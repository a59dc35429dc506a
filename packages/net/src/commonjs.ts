import { createRequire } from 'node:module';
import type Ipaddr from 'ipaddr.js';

/**
 * Loads this package's CommonJS dependencies with require(). Importing a CommonJS module from an ES
 * module makes Node start its CommonJS export scanner first (a WebAssembly module, compiled at first
 * use), about 50 ms of every process start that does it; a command-line run pays that each time.
 */
export const requireCommonJs = createRequire(import.meta.url);

let ipaddrModule: typeof Ipaddr | undefined;

/** ipaddr.js, loaded with require() (see {@link requireCommonJs}) at the first call. */
export function ipaddr(): typeof Ipaddr {
  ipaddrModule ??= requireCommonJs('ipaddr.js') as typeof Ipaddr;
  return ipaddrModule;
}
