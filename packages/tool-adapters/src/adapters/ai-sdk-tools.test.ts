import { generateText, stepCountIs } from 'ai';
import { MockLanguageModelV3 } from 'ai/test';
import { describe, expect, it } from 'vitest';
import { createEchoWebTools } from '../../test/adapters/echo-web-tools.js';
import { WEB_FETCH_DESCRIPTION, WEB_SEARCH_DESCRIPTION } from '../tool-definitions.js';
import { webFetchJsonSchema, webSearchJsonSchema } from '../tool-json-schemas.js';
import { SEARCH_RESULTS_BEGIN, WEB_CONTENT_BEGIN } from '../untrusted-frame.js';
import { createAiSdkTools } from './ai-sdk-tools.js';

const usage = {
  inputTokens: { total: 10, noCache: 10, cacheRead: undefined, cacheWrite: undefined },
  outputTokens: { total: 5, text: 5, reasoning: undefined },
};

function toolCallStep(calls: { id: string; name: string; input: unknown }[]) {
  return {
    content: calls.map((call) => ({
      type: 'tool-call' as const,
      toolCallId: call.id,
      toolName: call.name,
      input: JSON.stringify(call.input),
    })),
    finishReason: { unified: 'tool-calls' as const, raw: 'tool_use' },
    usage,
    warnings: [],
  };
}

/** A model scripted to fetch a page, then search (once validly, once not), then answer. */
function scriptedModel() {
  return new MockLanguageModelV3({
    doGenerate: [
      toolCallStep([{ id: 'call-fetch', name: 'WebFetch', input: { url: 'https://docs.example/guide' } }]),
      toolCallStep([
        { id: 'call-search', name: 'WebSearch', input: { query: 'undici pool', limit: 2 } },
        { id: 'call-bad', name: 'WebSearch', input: { query: '', limit: 50 } },
      ]),
      {
        content: [{ type: 'text', text: 'Done reading.' }],
        finishReason: { unified: 'stop', raw: 'end_turn' },
        usage,
        warnings: [],
      },
    ],
  });
}

describe('createAiSdkTools', () => {
  it('declares both tools with the package descriptions and JSON Schemas', async () => {
    const tools = await createAiSdkTools(createEchoWebTools());
    const model = scriptedModel();
    await generateText({ model, tools, prompt: 'Read the guide.', stopWhen: stepCountIs(5) });
    const declared = model.doGenerateCalls[0]?.tools;
    expect(declared).toEqual([
      expect.objectContaining({
        type: 'function',
        name: 'WebSearch',
        description: WEB_SEARCH_DESCRIPTION,
        inputSchema: webSearchJsonSchema(),
      }),
      expect.objectContaining({
        type: 'function',
        name: 'WebFetch',
        description: WEB_FETCH_DESCRIPTION,
        inputSchema: webFetchJsonSchema(),
      }),
    ]);
  });

  it('runs WebFetch then WebSearch through generateText and feeds the framed text back to the model', async () => {
    const implementation = createEchoWebTools();
    const tools = await createAiSdkTools(implementation);
    const model = scriptedModel();
    const controller = new AbortController();
    const result = await generateText({
      model,
      tools,
      prompt: 'Read the guide, then search.',
      stopWhen: stepCountIs(5),
      abortSignal: controller.signal,
    });

    expect(result.text).toBe('Done reading.');
    expect(result.steps).toHaveLength(3);
    const [fetchStep, searchStep] = result.steps;
    expect(fetchStep?.toolResults).toEqual([
      expect.objectContaining({
        toolName: 'WebFetch',
        toolCallId: 'call-fetch',
        output: {
          isError: false,
          text: expect.stringContaining(`${WEB_CONTENT_BEGIN}\nURL: https://docs.example/guide`),
        },
      }),
    ]);
    expect(searchStep?.toolResults.map((part) => [part.toolCallId, part.output])).toEqual([
      [
        'call-search',
        { isError: false, text: expect.stringContaining(`${SEARCH_RESULTS_BEGIN}\nQuery: undici pool`) },
      ],
      ['call-bad', { isError: true, text: expect.stringMatching(/^invalid arguments: query: .*; limit: /) }],
    ]);

    // What the model reads: the response messages carry the exact text, the invalid call as error-text.
    const toolParts = result.response.messages
      .filter((message) => message.role === 'tool')
      .flatMap((message) => message.content)
      .filter((part) => part.type === 'tool-result');
    expect(toolParts.map((part) => [part.toolName, part.output.type])).toEqual([
      ['WebFetch', 'text'],
      ['WebSearch', 'text'],
      ['WebSearch', 'error-text'],
    ]);
    const expected = await createEchoWebTools().webFetch({ url: 'https://docs.example/guide' });
    expect(toolParts[0]?.output).toEqual({ type: 'text', value: expected.text });
    const finalPrompt = JSON.stringify(model.doGenerateCalls[2]?.prompt);
    expect(finalPrompt).toContain('invalid arguments: query: must not be empty');

    // The implementation got the raw arguments and the generation's abort signal.
    expect(implementation.calls.map((call) => [call.tool, call.args])).toEqual([
      ['WebFetch', { url: 'https://docs.example/guide' }],
      ['WebSearch', { query: 'undici pool', limit: 2 }],
      ['WebSearch', { query: '', limit: 50 }],
    ]);
    const signal = implementation.calls[0]?.signal;
    expect(signal).toBeInstanceOf(AbortSignal);
    expect(signal?.aborted).toBe(false);
    controller.abort();
    expect(signal?.aborted).toBe(true);
  });
});
