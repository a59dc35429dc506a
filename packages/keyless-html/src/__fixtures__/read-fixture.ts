import { readFileSync } from 'node:fs';

/** The text of one page under `src/__fixtures__/` (a recorded one, or `derived/<name>`). */
export function readFixture(name: string): string {
  return readFileSync(new URL(`./${name}`, import.meta.url), 'utf8');
}
