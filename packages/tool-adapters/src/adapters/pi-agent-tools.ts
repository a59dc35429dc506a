import type { AgentTool } from '@mariozechner/pi-agent-core';
import { type CatalogTool, webToolCatalog } from './web-tool-catalog.js';
import type { WebTools } from './web-tools.js';

/** One of the two tools as a Pi agent tool; `details` stays empty, the text is the whole result. */
export type PiWebTool = AgentTool<AgentTool['parameters'], undefined>;

/**
 * The two tools as `@mariozechner/pi-agent-core` `AgentTool`s, for `new Agent({ initialState: { tools } })`.
 * Parameters are the package's JSON Schemas (Pi validates plain JSON Schema as well as TypeBox before
 * `execute`); the run's abort signal is passed through. Nothing from Pi is loaded: the tools are plain
 * objects, typed against Pi's declarations only.
 */
export function createPiAgentTools(tools: WebTools): [PiWebTool, PiWebTool] {
  const adapt = (entry: CatalogTool): PiWebTool => ({
    name: entry.name,
    label: entry.title,
    description: entry.description,
    // TypeBox schemas are JSON Schemas with extra symbols; Pi checks plain ones the same way.
    parameters: entry.inputSchema as PiWebTool['parameters'],
    execute: async (_toolCallId, params, signal) => {
      const result = await entry.call(params, { signal });
      // Pi marks a tool result as an error only when `execute` throws; the message becomes its text.
      if (result.isError) throw new Error(result.text);
      return { content: [{ type: 'text', text: result.text }], details: undefined };
    },
  });
  const [search, fetch] = webToolCatalog(tools);
  return [adapt(search), adapt(fetch)];
}
