import type { Tool } from 'ai';
import { type CatalogTool, webToolCatalog } from './web-tool-catalog.js';
import type { ToolCallResult, WebTools } from './web-tools.js';

/**
 * One of the two tools as an AI SDK tool: raw arguments in, the implementation's result out (in
 * `steps[].toolResults[].output`); the model reads its text, as `error-text` when `isError`.
 */
export type AiSdkWebTool = Tool<unknown, ToolCallResult>;

/**
 * The two tools keyed by their model-facing names, ready for `generateText({ tools })` (a type alias,
 * not an interface, so it is assignable to the SDK's indexed `ToolSet`).
 */
export type AiSdkWebTools = {
  /** The WebSearch tool. */
  WebSearch: AiSdkWebTool;
  /** The WebFetch tool. */
  WebFetch: AiSdkWebTool;
};

/**
 * The two tools as AI SDK v6 tools (`tool({ description, inputSchema: jsonSchema(...), execute })`).
 * Arguments reach the implementation unvalidated (it validates them itself); the step's abort signal
 * is passed through. Async because the `ai` package is loaded here, not when this module is imported.
 */
export async function createAiSdkTools(tools: WebTools): Promise<AiSdkWebTools> {
  const { jsonSchema, tool } = await import('ai');
  const adapt = (entry: CatalogTool): AiSdkWebTool =>
    tool<unknown, ToolCallResult>({
      description: entry.description,
      // No `validate`: the implementation is the one place that validates, with its own messages.
      inputSchema: jsonSchema<unknown>(entry.inputSchema as Parameters<typeof jsonSchema>[0]),
      execute: (input, { abortSignal }) => entry.call(input, { signal: abortSignal }),
      // A failed call stays a result (not a thrown error), so hosts keep `isError` and the exact text,
      // and the model still sees it marked as an error.
      toModelOutput: ({ output }) =>
        output.isError ? { type: 'error-text', value: output.text } : { type: 'text', value: output.text },
    });
  const [search, fetch] = webToolCatalog(tools);
  return { WebSearch: adapt(search), WebFetch: adapt(fetch) };
}
