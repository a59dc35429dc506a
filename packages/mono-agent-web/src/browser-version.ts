// The library's re-export of the extraction package's agent-browser floor, kept out of the modules the
// CLI bundle reaches: the bundle is CommonJS and loads the extraction package only by import().
export { MIN_AGENT_BROWSER_VERSION } from '@mono-agent/extract';
