import { buildUrl, isLoopbackHost } from '../loopback-hosts.js';
import { parseInteger } from '../query-parameters.js';
import { BadRequestError, type Route } from '../route-context.js';
import { send, sendJson } from '../send.js';

/** The article a client-rendered page shows once its script has run. */
export const CLIENT_RENDERED_ARTICLE = {
  title: 'Rendered by JavaScript',
  paragraphs: [
    'This article exists only after the browser runs the page script: the server sends an empty application shell that says Loading, and the script fetches this text from a JSON endpoint and inserts it after a short timer.',
    'A static extractor sees only the shell. A browser that waits for DOMContentLoaded and then for the document to stop changing reads the full article, including this second paragraph about quiet windows.',
    'The third paragraph carries the marker phrase hello from the API, value 42, so tests can tell the rendered text from the loading notice.',
  ],
} as const;

const html = (title: string, head: string, body: string) =>
  `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>${title}</title>${head}</head><body>${body}</body></html>`;

/** What the described shell says of itself in its head, as a forum's app view does. */
export const CLIENT_RENDERED_DESCRIPTION =
  'A summary in the page head: the article below is rendered by the page script, & the server <b>sends</b> none of it.';

const shell = (script: string) =>
  html(
    'App',
    '<script type="module" src="/app-api/bundle.js"></script>',
    `<noscript>You need to enable JavaScript to run this app.</noscript><div id="root">Loading...</div><script>${script}</script>`,
  );

/** A shell whose body has no text at all (a splash of dots), with a description in its head. */
const describedShell = (script: string) =>
  html(
    'App',
    `<meta name="description" content="${CLIENT_RENDERED_DESCRIPTION.replaceAll('&', '&amp;').replaceAll('<', '&lt;').replaceAll('"', '&quot;')}"><meta property="og:description" content="A summary."><script type="module" src="/app-api/bundle.js"></script>`,
    `<section id="splash"><div class="dots"></div><div class="dots"></div></section><div id="root"></div><script>${script}</script>`,
  );

const insertArticle = (api: string, timerMs: number) => `
fetch(${JSON.stringify(api)}).then((response) => response.json()).then((article) => {
  setTimeout(() => {
    const root = document.getElementById('root');
    root.innerHTML = '<article><h1></h1></article>';
    root.querySelector('h1').textContent = article.title;
    for (const text of article.paragraphs) {
      const paragraph = document.createElement('p');
      paragraph.textContent = text;
      root.querySelector('article').append(paragraph);
    }
  }, ${timerMs});
});`;

function otherHost(value: string | null): string {
  const host = value ?? '127.0.0.2';
  if (!isLoopbackHost(host)) throw new BadRequestError(`other must be a loopback host name, got ${host}`);
  return host;
}

/**
 * `/app/<page>`: pages that need a browser.
 * - `client-rendered?api-delay=200&timer=300`: an application shell ("Loading...") whose script
 *   fetches `/app-api/article` (answered after `api-delay` ms) and inserts it after `timer` ms; with
 *   `described=1` the body has no text at all and the head describes the page
 *   ({@link CLIENT_RENDERED_DESCRIPTION}).
 * - `cross-host?other=127.0.0.2&navigate=1`: the same shell, plus an image, a script, a stylesheet and
 *   a `fetch()` on the other host; with `navigate` the page then sends the browser to the other
 *   host's `/app/landing`: `1` 400 ms after its script runs, `load` at its load event, `settling`
 *   400 ms after its load event while its DOM keeps changing (inside a render's settle wait), `read`
 *   when its root element's HTML is read (the read then fails). `unreadable=1` makes that read fail
 *   without going anywhere. The request log shows whether the other host was ever contacted.
 * - `landing`: a plain article page (the navigation target).
 * - `login`: a sign-in form with a password field.
 * - `challenge`: a "Just a moment..." bot-check interstitial with a challenge widget.
 */
export const appPageRoute: Route = {
  pattern: '/app/:page',
  handle(context) {
    const { url, state } = context;
    const page = context.params['page'];
    const headers = { 'content-type': 'text/html; charset=utf-8', 'cache-control': 'no-store' };
    switch (page) {
      case 'client-rendered': {
        const apiDelay = parseInteger('api-delay', url.searchParams.get('api-delay'), {
          min: 0,
          max: 60_000,
          fallback: 200,
        });
        const timer = parseInteger('timer', url.searchParams.get('timer'), {
          min: 0,
          max: 60_000,
          fallback: 300,
        });
        const page = url.searchParams.get('described') === '1' ? describedShell : shell;
        send(context, 200, headers, page(insertArticle(`/app-api/article?delay=${apiDelay}`, timer)));
        return;
      }
      case 'cross-host': {
        const other = otherHost(url.searchParams.get('other'));
        const elsewhere = (path: string) => buildUrl(other, state.port, path);
        const leave = `location.href = ${JSON.stringify(elsewhere('/app/landing'))};`;
        const navigation: Record<string, string> = {
          '1': `setTimeout(() => { ${leave} }, 400);`,
          load: `addEventListener('load', () => { ${leave} });`,
          settling: `addEventListener('load', () => { let tick = 0; setInterval(() => { document.title = 'App ' + tick++; }, 50); setTimeout(() => { ${leave} }, 400); });`,
          read: `Object.defineProperty(document.documentElement, 'outerHTML', { get() { ${leave} throw new Error('the page is leaving'); } });`,
        };
        const when = url.searchParams.get('navigate') ?? '';
        const unreadable =
          url.searchParams.get('unreadable') === '1'
            ? `Object.defineProperty(document.documentElement, 'outerHTML', { get() { throw new Error('this page cannot be read'); } });`
            : '';
        const script = `${insertArticle('/app-api/article?delay=50', 100)}
fetch(${JSON.stringify(elsewhere('/app-api/beacon'))}).catch(() => {});
${Object.hasOwn(navigation, when) ? navigation[when] : ''}${unreadable}`;
        send(
          context,
          200,
          headers,
          html(
            'App',
            `<link rel="stylesheet" href="${elsewhere('/app-api/style.css')}"><script src="${elsewhere('/app-api/tracker.js')}"></script>`,
            `<div id="root">Loading...</div><img src="${elsewhere('/app-api/pixel.gif')}" alt=""><script>${script}</script>`,
          ),
        );
        return;
      }
      case 'landing':
        send(
          context,
          200,
          headers,
          html(
            'Landing',
            '',
            `<main><h1>Landing page</h1><p>${CLIENT_RENDERED_ARTICLE.paragraphs.join('</p><p>')}</p></main>`,
          ),
        );
        return;
      case 'login':
        send(
          context,
          200,
          headers,
          html(
            'Sign in',
            '',
            '<main><h1>Sign in to continue</h1><form method="post" action="/app/login"><label>Email <input type="email" name="email"></label><label>Password <input type="password" name="password"></label><button type="submit">Log in</button></form></main>',
          ),
        );
        return;
      case 'challenge':
        send(
          context,
          403,
          headers,
          html(
            'Just a moment...',
            '<script src="/cdn-cgi/challenge-platform/h/b/orchestrate/chl_page/v1"></script>',
            '<div id="challenge-body"><h1>Checking your browser before accessing the site.</h1><div class="cf-turnstile" data-sitekey="fixture"></div></div>',
          ),
        );
        return;
      default:
        throw new BadRequestError(
          `unknown app page ${page}; try client-rendered, cross-host, landing, login or challenge`,
          404,
        );
    }
  },
};

/** `/app-api/<name>`: what the app pages load: the article JSON (after `delay` ms) and empty sub-resources. */
export const appApiRoute: Route = {
  pattern: '/app-api/:name',
  async handle(context) {
    const name = context.params['name'];
    if (name === 'article') {
      const delay = parseInteger('delay', context.url.searchParams.get('delay'), {
        min: 0,
        max: 60_000,
        fallback: 0,
      });
      if (delay > 0) {
        await new Promise<void>((resolve) => {
          const timer = setTimeout(resolve, delay);
          context.signal.addEventListener('abort', () => {
            clearTimeout(timer);
            resolve();
          });
        });
        if (context.signal.aborted) return;
      }
      sendJson(context, 200, CLIENT_RENDERED_ARTICLE, {
        'cache-control': 'no-store',
        'access-control-allow-origin': '*',
      });
      return;
    }
    const types: Record<string, string> = {
      'bundle.js': 'text/javascript',
      'tracker.js': 'text/javascript',
      'style.css': 'text/css',
      'pixel.gif': 'image/gif',
      beacon: 'text/plain',
    };
    const type = name === undefined ? undefined : types[name];
    if (type === undefined) throw new BadRequestError(`unknown app resource ${name}`, 404);
    send(context, 200, { 'content-type': type, 'access-control-allow-origin': '*' }, '');
  },
};
