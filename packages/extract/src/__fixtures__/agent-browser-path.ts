// The lookup lives in the fixture web so every package's real-browser tests share one copy.
export { agentBrowserPath, PINNED_AGENT_BROWSER_VERSION } from '@mono-agent/fixture-web';
