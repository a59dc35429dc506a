import { TOOL_NAMES, WEB_FETCH_DESCRIPTION, WEB_SEARCH_DESCRIPTION } from '../tool-definitions.js';
import { webFetchJsonSchema, webSearchJsonSchema } from '../tool-json-schemas.js';
import type { ToolCallOptions, ToolCallResult, WebTools } from './web-tools.js';

/** One tool as every adapter declares it, bound to the implementation that runs it. */
export interface CatalogTool {
  /** The model-facing name (`WebSearch` or `WebFetch`). */
  name: (typeof TOOL_NAMES)[keyof typeof TOOL_NAMES];
  /** A short human-readable title for host UIs. */
  title: string;
  /** What the model reads about the tool. */
  description: string;
  /** JSON Schema (draft-07) of the arguments. */
  inputSchema: Record<string, unknown>;
  /** Runs the tool on unvalidated arguments. */
  call(args: unknown, options?: ToolCallOptions): Promise<ToolCallResult>;
}

/** The two tools with names, descriptions and schemas, so every adapter declares them identically. */
export function webToolCatalog(tools: WebTools): readonly [CatalogTool, CatalogTool] {
  return [
    {
      name: TOOL_NAMES.search,
      title: 'Web search',
      description: WEB_SEARCH_DESCRIPTION,
      inputSchema: webSearchJsonSchema(),
      // Bound through a closure so implementations written as classes keep their `this`.
      call: (args, options) => tools.webSearch(args, options),
    },
    {
      name: TOOL_NAMES.fetch,
      title: 'Web fetch',
      description: WEB_FETCH_DESCRIPTION,
      inputSchema: webFetchJsonSchema(),
      call: (args, options) => tools.webFetch(args, options),
    },
  ];
}
