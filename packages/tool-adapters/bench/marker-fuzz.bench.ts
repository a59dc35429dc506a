// Fixed-seed fuzzing of marker neutralization: 100,000 random disguises of the real markers must all
// be found and none may survive neutralization (nor a second pass change anything), and 10,000
// samples of ordinary multilingual text must come back unchanged. Exits non-zero on any failure, so
// `pnpm bench -- marker-fuzz` doubles as a check; the unit tests run a smaller sample of the same.
import { formatTable } from '@mono-agent/bench';
import { findMarkerSpans, neutralizeMarkers } from '../src/index.js';
import { randomMarkerVariant, randomOrdinaryText, seededRandom } from '../src/marker-variants.js';

const SEED = 0x5eed_2026;
const VARIANTS = 100_000;
const ORDINARY_SAMPLES = 10_000;

const random = seededRandom(SEED);
const survivors: string[] = [];
const unstable: string[] = [];
let started = performance.now();
for (let index = 0; index < VARIANTS; index += 1) {
  const text = `${randomOrdinaryText(random)} ${randomMarkerVariant(random)} ${randomOrdinaryText(random)}`;
  const neutralized = neutralizeMarkers(text);
  if (neutralized === text || findMarkerSpans(neutralized).length > 0) survivors.push(text);
  else if (neutralizeMarkers(neutralized) !== neutralized) unstable.push(text);
}
const variantMs = performance.now() - started;

const changed: string[] = [];
let ordinaryCharacters = 0;
started = performance.now();
for (let index = 0; index < ORDINARY_SAMPLES; index += 1) {
  const text = randomOrdinaryText(random);
  ordinaryCharacters += text.length;
  if (neutralizeMarkers(text) !== text) changed.push(text);
}
const ordinaryMs = performance.now() - started;

console.log(`\nmarker neutralization fuzz, seed ${SEED.toString(16)}`);
console.log(
  formatTable(
    ['inputs', 'count', 'failures', 'ms'],
    [
      [
        'disguised markers inside ordinary text',
        String(VARIANTS),
        String(survivors.length),
        variantMs.toFixed(0),
      ],
      ['…of which not stable on a second pass', String(VARIANTS), String(unstable.length), '-'],
      [
        `ordinary multilingual text (${ordinaryCharacters} characters)`,
        String(ORDINARY_SAMPLES),
        String(changed.length),
        ordinaryMs.toFixed(0),
      ],
    ],
  ),
);
for (const text of [...survivors, ...unstable, ...changed].slice(0, 10))
  console.log(`  failed: ${JSON.stringify(text)}`);
if (survivors.length + unstable.length + changed.length > 0) process.exitCode = 1;
