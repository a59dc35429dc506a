// Prints the README command of the given kind ("run" or "test"): the single line inside the fenced
// block that follows the `<!-- command: KIND -->` marker. CI runs the test command through this, so
// the README and CI cannot drift apart.
import { readFileSync } from 'node:fs';

const kind = process.argv[2];
const readme = readFileSync(new URL('../../README.md', import.meta.url), 'utf8');
const match = new RegExp(`<!-- command: ${kind} -->\\s*\`\`\`(?:sh|bash)?\\n([^\\n]+)\\n\`\`\``).exec(readme);
if (!match) {
  console.error(`README.md has no command marked <!-- command: ${kind} -->`);
  process.exit(1);
}
console.log(match[1]);
