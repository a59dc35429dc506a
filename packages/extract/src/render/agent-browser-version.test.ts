import { describe, expect, it } from 'vitest';
import {
  compareVersions,
  judgeAgentBrowserVersion,
  MIN_AGENT_BROWSER_VERSION,
  parseAgentBrowserVersion,
} from './agent-browser-version.js';

describe('agent-browser version check', () => {
  it('reads only an agent-browser version line', () => {
    expect(parseAgentBrowserVersion('agent-browser 0.41.2\n')).toBe('0.41.2');
    expect(parseAgentBrowserVersion('Python 3.11.2')).toBeUndefined();
    expect(parseAgentBrowserVersion('codex-cli 0.50.0')).toBeUndefined();
    expect(parseAgentBrowserVersion('1.2.3')).toBeUndefined();
  });

  it(`accepts ${MIN_AGENT_BROWSER_VERSION} and newer, refuses older`, () => {
    expect(judgeAgentBrowserVersion('ab', 'agent-browser 0.33.1').ok).toBe(true);
    expect(judgeAgentBrowserVersion('ab', 'agent-browser 0.41.2').ok).toBe(true);
    const old = judgeAgentBrowserVersion('ab', 'agent-browser 0.33.0');
    expect(old.ok).toBe(false);
    expect(old.ok ? '' : old.reason).toContain('older than 0.33.1');
    expect(judgeAgentBrowserVersion('ab', 'agent-browser 0.27.0').ok).toBe(false);
    expect(compareVersions('0.100.0', '0.33.1')).toBeGreaterThan(0);
  });
});
