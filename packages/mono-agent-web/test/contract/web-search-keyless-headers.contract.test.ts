// What the keyless engines receive, through createWebRuntime against loopback servers standing in for
// DuckDuckGo's and Startpage's endpoints: the request a browser sends from each engine's own search form.
// Issue: "Send the headers a browser's submission of DuckDuckGo's and Startpage's own search forms
// carries (a stable browser User-Agent, Accept, Accept-Language, the engine's own page as Referer)".
// Contract: "No credentials are ever sent to these endpoints".
import { type FixtureWeb, startFixtureWeb } from '@mono-agent/fixture-web';
import type { SearchOutcome } from '@mono-agent/search-providers';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import {
  contractRuntime,
  DUCKDUCKGO_CHALLENGE_PAGE,
  STARTPAGE_PAGE,
  serveDuckDuckGo,
} from './web-search-support.js';

let web: FixtureWeb;
beforeAll(async () => {
  web = await startFixtureWeb();
});
afterAll(async () => {
  await web.close();
});
beforeEach(() => web.reset());

const dataOf = (result: { data?: unknown }) => result.data as SearchOutcome;
// A desktop browser's User-Agent, as the engines' own pages are used from one.
const BROWSER_USER_AGENT = /^Mozilla\/5\.0 \((Windows|Macintosh|X11)[^)]*\) .*(Firefox|Chrome)\/\d+/;
const BROWSER_ACCEPT = /^text\/html,application\/xhtml\+xml,.*\*\/\*;q=0\.\d$/;

function expectBrowserForm(headers: Record<string, string | string[] | undefined>, referer: string) {
  expect(headers['user-agent']).toMatch(BROWSER_USER_AGENT);
  expect(headers.accept).toMatch(BROWSER_ACCEPT);
  expect(headers['accept-language']).toEqual(expect.any(String));
  expect(headers.referer).toBe(referer);
  expect(headers).not.toHaveProperty('cookie');
  expect(headers).not.toHaveProperty('authorization');
}

describe("keyless requests look like the engines' own forms", () => {
  it("DuckDuckGo gets a form POST with a browser's User-Agent, Accept, Accept-Language and its page as Referer", async () => {
    serveDuckDuckGo(web);
    const host = await contractRuntime(web, { env: { MONO_AGENT_WEB_SEARCH_BACKEND: 'keyless' } });
    const run = host.startRun();
    expect(dataOf(await run.webSearch({ query: 'foo' })).status).toBe('results');
    expect(dataOf(await run.webSearch({ query: 'foo fighters', language: 'de-DE' })).status).toBe('results');
    const [plain, german] = web.requestsTo('/html/');
    expect(plain!.method).toBe('POST');
    expect(plain!.headers['content-type']).toBe('application/x-www-form-urlencoded');
    // The engine's own page, at the address the runtime was pointed at.
    expectBrowserForm(plain!.headers, `${web.baseUrl}/`);
    expect(plain!.headers['accept-language']).toBe('en-US,en;q=0.5');
    expect(german!.headers['accept-language']).toBe('de-DE,de;q=0.9,en;q=0.5');
    // The same browser on every request: a stable User-Agent.
    expect(german!.headers['user-agent']).toBe(plain!.headers['user-agent']);
    await host.close();
  });

  it("Startpage gets a GET with a browser's User-Agent, Accept, Accept-Language and its home page as Referer", async () => {
    // DuckDuckGo throttles, so the keyless chain goes on to Startpage.
    serveDuckDuckGo(web, DUCKDUCKGO_CHALLENGE_PAGE, 202);
    web.scenario('/sp/search', {
      status: 200,
      headers: { 'content-type': 'text/html; charset=utf-8' },
      body: STARTPAGE_PAGE,
    });
    const host = await contractRuntime(web, { env: { MONO_AGENT_WEB_SEARCH_BACKEND: 'keyless' } });
    const outcome = dataOf(await host.startRun().webSearch({ query: 'javascript tutorial', language: 'fr' }));
    expect(outcome).toMatchObject({ status: 'results', backend: 'startpage' });
    const [request] = web.requestsTo('/sp/search');
    expect(request!.method).toBe('GET');
    expectBrowserForm(request!.headers, `${web.baseUrl}/`);
    // Startpage receives no language (its filter support says so): the browser's default stays.
    expect(request!.headers['accept-language']).toBe('en-US,en;q=0.5');
    expect(request!.headers['user-agent']).toBe(web.requestsTo('/html/')[0]!.headers['user-agent']);
    await host.close();
  });
});
