import { toJsonSchema } from '@valibot/to-json-schema';
import { WebFetchInput, WebSearchInput } from './tool-definitions.js';

/** JSON Schema (draft-07) of the WebSearch arguments, generated from the valibot schema. */
export function webSearchJsonSchema(): Record<string, unknown> {
  return toJsonSchema(WebSearchInput, { errorMode: 'ignore' }) as Record<string, unknown>;
}

/** JSON Schema (draft-07) of the WebFetch arguments, generated from the valibot schema. */
export function webFetchJsonSchema(): Record<string, unknown> {
  return toJsonSchema(WebFetchInput, { errorMode: 'ignore' }) as Record<string, unknown>;
}
