import { resolveWebConfig } from '@mono-agent/web';
import { describe, expect, it } from 'vitest';
import { searchSpendBound } from './console-server.js';

const bound = (env: Record<string, string>) => searchSpendBound(resolveWebConfig({ env }));

describe('searchSpendBound', () => {
  it('counts one request per backend of the chain the configuration selects', () => {
    // auto without endpoints: Codex, DuckDuckGo, Startpage.
    expect(bound({})).toBe(3);
    expect(bound({ MONO_AGENT_WEB_SEARCH_SEARXNG_ENDPOINT: 'http://127.0.0.1:8888' })).toBe(4);
    expect(bound({ MONO_AGENT_WEB_SEARCH_BACKEND: 'keyless' })).toBe(2);
    expect(
      bound({
        MONO_AGENT_WEB_SEARCH_BACKEND: 'searxng',
        MONO_AGENT_WEB_SEARCH_SEARXNG_ENDPOINT: 'http://127.0.0.1:8888',
      }),
    ).toBe(1);
  });

  it('leaves out public backends the policy refuses without a lookup, which are never charged', () => {
    expect(bound({ MONO_AGENT_NETWORK_MODE: 'none' })).toBe(0);
    expect(bound({ MONO_AGENT_NETWORK_MODE: 'localhost' })).toBe(0);
    expect(
      bound({
        MONO_AGENT_NETWORK_MODE: 'localhost',
        MONO_AGENT_WEB_SEARCH_SEARXNG_ENDPOINT: 'http://127.0.0.1:8888',
      }),
    ).toBe(1);
  });
});
