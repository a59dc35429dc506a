// extract() called in the main thread of a process of its own, as a library user calls it, with the
// process's built-ins watched over the call (see built-in-watch.ts and main-thread.test.ts).
import { extract } from '../../index.js';
import { changesToBuiltIns } from './built-in-watch.js';

const PAGE = `<!doctype html><html><head><title>A page</title></head><body><nav><a href="/">Home</a></nav>
<article><h1>A page</h1>${'<p>A paragraph of the article, <a href="/x">with a link</a> and <em>some</em> words.</p>'.repeat(12)}
<pre><code class="language-js">let x = 1;</code></pre><button onclick="go()">Go</button></article>
<footer><p class="small">Foot</p></footer></body></html>`;

/**
 * What the first extraction of an HTML page (which loads linkedom, Defuddle, Readability and
 * Turndown, and installs the speed-ups) changed of the built-ins, and the start of its content.
 */
export async function changesDuringFirstExtraction() {
  let content = '';
  const changes = await changesToBuiltIns(async () => {
    ({ content } = await extract({ body: PAGE, url: 'https://example.com/a', contentType: 'text/html' }));
  });
  return { changes, content: content.slice(0, 200) };
}
