// Parsing cost of the keyless pages against the floor of building their DOM with htmlparser2 alone:
// the ratio is what finding results and block markers adds on top of tokenising the page.
import { readFileSync } from 'node:fs';
import { compareWithBaseline } from '@mono-agent/bench';
import { parseDocument } from 'htmlparser2';
import { parseDuckDuckGoHtml, parseStartpageHtml } from '../src/index.js';

function page(name: string): string {
  return readFileSync(new URL(`../src/__fixtures__/${name}`, import.meta.url), 'utf8');
}

const duckDuckGoResults = page('lofi_duckduckgo-html-get-foo.html');
const duckDuckGoChallenge = page('clele_challenge-202.html');
const startpageResults = page('websearchmcp_startpage-http.html');

await compareWithBaseline({
  title: `DuckDuckGo HTML result page (${duckDuckGoResults.length} chars, 10 results)`,
  baseline: { name: 'htmlparser2 parseDocument only', run: () => parseDocument(duckDuckGoResults) },
  candidates: [
    {
      name: 'parseDuckDuckGoHtml',
      run: () => parseDuckDuckGoHtml({ status: 200, headers: {}, body: duckDuckGoResults }),
    },
  ],
});

await compareWithBaseline({
  title: `DuckDuckGo challenge page served with 200 (${duckDuckGoChallenge.length} chars, markers scanned)`,
  baseline: { name: 'htmlparser2 parseDocument only', run: () => parseDocument(duckDuckGoChallenge) },
  candidates: [
    {
      name: 'parseDuckDuckGoHtml',
      run: () => parseDuckDuckGoHtml({ status: 200, headers: {}, body: duckDuckGoChallenge }),
    },
  ],
});

await compareWithBaseline({
  title: `Startpage result page (${startpageResults.length} chars, 10 results)`,
  baseline: { name: 'htmlparser2 parseDocument only', run: () => parseDocument(startpageResults) },
  candidates: [
    {
      name: 'parseStartpageHtml',
      run: () => parseStartpageHtml({ status: 200, headers: {}, body: startpageResults }),
    },
  ],
});
