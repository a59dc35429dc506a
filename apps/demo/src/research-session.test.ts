import { createWebRuntime, resolveWebConfig } from '@mono-agent/web';
import { describe, expect, it } from 'vitest';
import { FIXTURE_QUERY, startFixtureResearchWeb } from './fixture-setup.js';
import { resultUrls, runResearchSession } from './research-session.js';

describe('the offline research session', () => {
  it('searches, then fetches the top result, printing framed text', async () => {
    const web = await startFixtureResearchWeb();
    try {
      const config = resolveWebConfig({
        env: {
          MONO_AGENT_NETWORK_MODE: 'allowlist',
          MONO_AGENT_NETWORK_ALLOW: `127.0.0.1:${web.port}`,
          MONO_AGENT_WEB_SEARCH_SEARXNG_ENDPOINT: web.baseUrl,
        },
      });
      const run = (await createWebRuntime({ config })).startRun();
      let printed = '';
      const ok = await runResearchSession({ run, query: FIXTURE_QUERY, print: (text) => (printed += text) });
      await run.close();
      expect(ok).toBe(true);
      expect(resultUrls(printed)[0]).toBe(web.url('/pages/blog-post'));
      expect(printed).toContain('[BEGIN UNTRUSTED WEB SEARCH RESULTS]');
      expect(printed).toContain('[BEGIN UNTRUSTED WEB CONTENT]');
      expect(printed).toMatch(/Retry-After/);
      expect(web.requestsTo('/pages/blog-post')).toHaveLength(1);
    } finally {
      await web.close();
    }
  });
});
