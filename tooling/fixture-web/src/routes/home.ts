import { recordedPages } from '../recorded-pages.js';
import type { Route } from '../route-context.js';
import { send } from '../send.js';
import { CONTENT_KINDS } from './content.js';

/** `/`: an HTML page linking to every page and document, a starting point for crawls in demos. */
export const homeRoute: Route = {
  pattern: '/',
  handle(context) {
    const pageLinks = recordedPages()
      .map((page) => `      <li><a href="/pages/${page.name}">${page.name}</a>: ${page.description}</li>`)
      .join('\n');
    const contentLinks = Object.keys(CONTENT_KINDS)
      .map((kind) => `      <li><a href="/content/${kind}">${kind}</a></li>`)
      .join('\n');
    const html = `<!DOCTYPE html>
<html lang="en">
  <head>
    <meta charset="utf-8">
    <title>fixture-web</title>
  </head>
  <body>
    <h1>fixture-web</h1>
    <p>A loopback stand-in for the web. Nothing here leaves this machine.</p>
    <h2>Recorded pages</h2>
    <ul>
${pageLinks}
    </ul>
    <h2>Documents</h2>
    <ul>
${contentLinks}
    </ul>
  </body>
</html>
`;
    send(context, 200, { 'content-type': 'text/html; charset=utf-8' }, html);
  },
};
