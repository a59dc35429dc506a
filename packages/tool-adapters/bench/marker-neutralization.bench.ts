// What neutralizing frame markers costs on an output of the largest size the bloat guard lets
// through (256 KiB), for the kinds of text pages really hold, against a plain scan of the same text
// for the exact closing marker in the same run (native, vectorised: the cheapest possible look), with
// a JavaScript loop that reads every character once as a second reference point.
import { compareWithBaseline } from '@mono-agent/bench';
import {
  neutralizeMarkers,
  TOOL_OUTPUT_TEXT_BUDGET_BYTES,
  utf8Prefix,
  WEB_CONTENT_END,
} from '../src/index.js';
import { ORDINARY_PARAGRAPHS, randomMarkerVariant, seededRandom } from '../src/marker-variants.js';

const fill = (unit: string) =>
  utf8Prefix(
    unit.repeat(Math.ceil(TOOL_OUTPUT_TEXT_BUDGET_BYTES / Buffer.byteLength(unit)) + 1),
    TOOL_OUTPUT_TEXT_BUDGET_BYTES,
  );

const random = seededRandom(42);
const inputs: { name: string; text: string }[] = [
  {
    name: 'English, ASCII only',
    text: fill('The harbour ferries keep their timetable through the weekend, says the report. '),
  },
  {
    name: 'English with typographic punctuation',
    text: fill('The harbour’s ferries — all six — keep their “timetable” through the weekend… '),
  },
  {
    name: 'an English security article (says "untrusted")',
    text: fill('Treat untrusted input with care; the end of the review found no untrusted code. '),
  },
  { name: 'Russian', text: fill(`${ORDINARY_PARAGRAPHS[0]} `) },
  { name: 'Chinese and Japanese', text: fill(`${ORDINARY_PARAGRAPHS[5]}${ORDINARY_PARAGRAPHS[6]}`) },
  { name: 'mixed scripts, emoji and bidi marks', text: fill(`${ORDINARY_PARAGRAPHS.join(' ')} `) },
  {
    name: 'hostile: a disguised marker every 1 KiB',
    text: fill(
      Array.from(
        { length: 64 },
        () => `${'calm seas and steady winds '.repeat(36)}${randomMarkerVariant(random)} `,
      ).join(''),
    ),
  },
];

function readEveryCharacter(text: string): number {
  let sum = 0;
  for (let index = 0; index < text.length; index += 1) sum += text.charCodeAt(index);
  return sum;
}

for (const input of inputs) {
  await compareWithBaseline({
    title: `neutralizeMarkers, 256 KiB: ${input.name}`,
    baseline: { name: 'indexOf of the exact marker', run: () => input.text.indexOf(WEB_CONTENT_END) },
    candidates: [
      { name: 'a loop reading every charCodeAt', run: () => readEveryCharacter(input.text) },
      { name: 'neutralizeMarkers', run: () => neutralizeMarkers(input.text) },
    ],
    timeMs: 400,
  });
}
