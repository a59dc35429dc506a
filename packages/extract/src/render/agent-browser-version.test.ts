import { describe, expect, it } from 'vitest';
import {
  BROWSER_COMMAND_ENV,
  BROWSER_COMMAND_SETTING,
  checkAgentBrowserVersion,
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

  it('names what to install and where to point it when refusing a program', async () => {
    const foreign = judgeAgentBrowserVersion('/usr/bin/chromium', 'Chromium 156.0.8078.108');
    const missing = await checkAgentBrowserVersion('/nonexistent/agent-browser');
    for (const check of [foreign, missing, judgeAgentBrowserVersion('ab', 'agent-browser 0.27.0')]) {
      expect(check.ok).toBe(false);
      const reason = check.ok ? '' : check.reason;
      for (const word of [
        'agent-browser',
        MIN_AGENT_BROWSER_VERSION,
        BROWSER_COMMAND_SETTING,
        BROWSER_COMMAND_ENV,
      ]) {
        expect(reason).toContain(word);
      }
    }
    expect(foreign.ok ? undefined : foreign.refusal).toBe('not_agent_browser');
    expect(missing.ok ? undefined : missing.refusal).toBe('browser_missing');
  });
});
