import { Agent } from '@mariozechner/pi-agent-core';
import {
  fauxAssistantMessage,
  fauxText,
  fauxToolCall,
  type Message,
  registerFauxProvider,
  type ToolResultMessage,
} from '@mariozechner/pi-ai';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { createEchoWebTools, FAILING_HOST } from '../../test/adapters/echo-web-tools.js';
import { WEB_FETCH_DESCRIPTION, WEB_SEARCH_DESCRIPTION } from '../tool-definitions.js';
import { webFetchJsonSchema, webSearchJsonSchema } from '../tool-json-schemas.js';
import { SEARCH_RESULTS_BEGIN, WEB_CONTENT_BEGIN } from '../untrusted-frame.js';
import { createPiAgentTools } from './pi-agent-tools.js';

const faux = registerFauxProvider();
afterEach(() => faux.setResponses([]));
afterAll(() => faux.unregister());

function toolResults(messages: readonly unknown[]): ToolResultMessage[] {
  return (messages as Message[]).filter(
    (message): message is ToolResultMessage => message.role === 'toolResult',
  );
}

function textOf(message: ToolResultMessage | undefined): string {
  const [block] = message?.content ?? [];
  if (block?.type !== 'text') throw new Error(`expected a text block, got ${JSON.stringify(message)}`);
  return block.text;
}

describe('createPiAgentTools', () => {
  it('declares both tools with labels, the package descriptions and JSON Schemas', () => {
    const [search, fetch] = createPiAgentTools(createEchoWebTools());
    expect(search).toMatchObject({
      name: 'WebSearch',
      label: 'Web search',
      description: WEB_SEARCH_DESCRIPTION,
    });
    expect(fetch).toMatchObject({ name: 'WebFetch', label: 'Web fetch', description: WEB_FETCH_DESCRIPTION });
    expect(search.parameters).toEqual(webSearchJsonSchema());
    expect(fetch.parameters).toEqual(webFetchJsonSchema());
  });

  it('runs WebFetch then WebSearch in a Pi agent and puts the framed text in the transcript', async () => {
    const implementation = createEchoWebTools();
    faux.setResponses([
      fauxAssistantMessage(
        fauxToolCall('WebFetch', { url: 'https://docs.example/guide' }, { id: 'call-fetch' }),
        {
          stopReason: 'toolUse',
        },
      ),
      fauxAssistantMessage(
        fauxToolCall('WebSearch', { query: 'undici pool', limit: 2 }, { id: 'call-search' }),
        {
          stopReason: 'toolUse',
        },
      ),
      (context) => {
        // The model's next turn sees both results.
        expect(toolResults(context.messages).map((message) => message.toolCallId)).toEqual([
          'call-fetch',
          'call-search',
        ]);
        return fauxAssistantMessage(fauxText('Done reading.'));
      },
    ]);
    const agent = new Agent({
      initialState: {
        systemPrompt: 'You read the web.',
        model: faux.getModel(),
        tools: createPiAgentTools(implementation),
      },
    });
    await agent.prompt('Read the guide, then search.');

    expect(agent.state.errorMessage).toBeUndefined();
    const results = toolResults(agent.state.messages);
    expect(results.map((message) => [message.toolName, message.toolCallId, message.isError])).toEqual([
      ['WebFetch', 'call-fetch', false],
      ['WebSearch', 'call-search', false],
    ]);
    const expectedFetch = await createEchoWebTools().webFetch({ url: 'https://docs.example/guide' });
    expect(textOf(results[0])).toBe(expectedFetch.text);
    expect(textOf(results[0])).toContain(`${WEB_CONTENT_BEGIN}\nURL: https://docs.example/guide`);
    expect(textOf(results[1])).toContain(`${SEARCH_RESULTS_BEGIN}\nQuery: undici pool`);
    const last = agent.state.messages.at(-1) as Message | undefined;
    expect(last).toMatchObject({ role: 'assistant', content: [{ type: 'text', text: 'Done reading.' }] });

    // The implementation got the validated arguments and the run's abort signal.
    expect(implementation.calls.map((call) => [call.tool, call.args])).toEqual([
      ['WebFetch', { url: 'https://docs.example/guide' }],
      ['WebSearch', { query: 'undici pool', limit: 2 }],
    ]);
    expect(implementation.calls[0]?.signal).toBeInstanceOf(AbortSignal);
  });

  it('reports a failed call as an error result carrying the implementation text', async () => {
    const implementation = createEchoWebTools();
    faux.setResponses([
      fauxAssistantMessage(
        [
          fauxToolCall('WebFetch', { url: `https://${FAILING_HOST}/page` }, { id: 'call-missing' }),
          fauxToolCall('WebSearch', { query: 'x', limit: 50 }, { id: 'call-bad' }),
        ],
        { stopReason: 'toolUse' },
      ),
      fauxAssistantMessage(fauxText('Nothing found.')),
    ]);
    const agent = new Agent({
      initialState: { systemPrompt: '', model: faux.getModel(), tools: createPiAgentTools(implementation) },
    });
    await agent.prompt('Read the missing page.');

    const [missing, bad] = toolResults(agent.state.messages);
    expect(missing?.isError).toBe(true);
    expect(textOf(missing)).toBe('WebFetch status: error | error: http_status | http status: 404');
    // Pi checks arguments against the JSON Schema before `execute`, so out-of-bounds calls never arrive.
    expect(bad?.isError).toBe(true);
    expect(textOf(bad)).toContain('limit');
    expect(implementation.calls.map((call) => call.tool)).toEqual(['WebFetch']);
  });

  it('aborts the signal the implementation holds when the agent is aborted', async () => {
    const implementation = createEchoWebTools();
    faux.setResponses([
      fauxAssistantMessage(fauxToolCall('WebFetch', { url: 'https://slow.example/hang' }), {
        stopReason: 'toolUse',
      }),
      fauxAssistantMessage(fauxText('Stopped.')),
    ]);
    const agent = new Agent({
      initialState: { systemPrompt: '', model: faux.getModel(), tools: createPiAgentTools(implementation) },
    });
    const run = agent.prompt('Read the slow page.');
    await expect.poll(() => implementation.calls.length).toBe(1);
    const signal = implementation.calls[0]?.signal;
    expect(signal?.aborted).toBe(false);
    agent.abort();
    await run;
    expect(signal?.aborted).toBe(true);
  });
});
