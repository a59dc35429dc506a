import { afterEach, describe, expect, it } from 'vitest';
import { MAX_MODEL_LIST_PAGES } from '../src/readiness.js';
import { createFakeHarness, type FakeHarness, shapes } from './fake-app-server.js';

const harnesses: FakeHarness[] = [];
const harness = (scenario: Record<string, unknown>) => {
  const created = createFakeHarness(scenario);
  harnesses.push(created);
  return created;
};
afterEach(async () => {
  await Promise.all(harnesses.splice(0).map((entry) => entry.dispose()));
});

const luna = shapes.live.modelLuna;
const sol = shapes.live.modelSol;

describe('readiness', () => {
  it('is ready with a ChatGPT account, web search and the model', async () => {
    const fake = harness({});
    await expect(fake.client.readiness()).resolves.toEqual({
      ready: true,
      account: true,
      webSearch: true,
      model: true,
    });
    expect(fake.requests('account/read')[0]?.params).toEqual({ refreshToken: false });
    expect(fake.requests('modelProvider/capabilities/read')[0]?.params).toEqual({});
  });

  it('is not ready when signed out, even though the other two checks pass', async () => {
    const fake = harness({ responses: { 'account/read': { result: shapes.live.accountSignedOut } } });
    await expect(fake.client.readiness()).resolves.toEqual({
      ready: false,
      account: false,
      webSearch: true,
      model: true,
      reason: 'not signed in to Codex with a ChatGPT account',
    });
  });

  it('does not count an API-key account as a ChatGPT sign-in', async () => {
    const fake = harness({ responses: { 'account/read': { result: shapes.schema.accountApiKey } } });
    expect(await fake.client.readiness()).toMatchObject({ ready: false, account: false });
  });

  it('is not ready without web search, naming each failed check', async () => {
    const fake = harness({
      responses: {
        'modelProvider/capabilities/read': { result: { imageGeneration: true, webSearch: false } },
      },
      modelPages: [[sol]],
    });
    await expect(fake.client.readiness()).resolves.toEqual({
      ready: false,
      account: true,
      webSearch: false,
      model: false,
      reason: 'the model provider does not offer web search; model "gpt-5.6-luna" is not in the model list',
    });
  });

  it('follows model/list cursors to a later page', async () => {
    const fake = harness({ modelPages: [[sol], [], [luna]] });
    expect((await fake.client.readiness()).model).toBe(true);
    expect(fake.requests('model/list').map((message) => message.params)).toEqual([
      { includeHidden: true },
      { includeHidden: true, cursor: '1' },
      { includeHidden: true, cursor: '2' },
    ]);
  });

  it(`reads up to ${MAX_MODEL_LIST_PAGES} pages and fails past them`, async () => {
    const pages = (count: number) =>
      Array.from({ length: count }, (_, index) => (index === count - 1 ? [luna] : [sol]));
    const atBound = harness({ modelPages: pages(MAX_MODEL_LIST_PAGES) });
    expect((await atBound.client.readiness()).model).toBe(true);
    const pastBound = harness({ modelPages: pages(MAX_MODEL_LIST_PAGES + 1) });
    await expect(pastBound.client.readiness()).rejects.toMatchObject({ code: 'protocol_error' });
    expect(pastBound.requests('model/list')).toHaveLength(MAX_MODEL_LIST_PAGES);
  });

  it('matches the model by its model field too, and takes a per-call model', async () => {
    const fake = harness({ modelPages: [[{ ...luna, id: 'luna-preset', model: 'gpt-5.6-luna' }, sol]] });
    expect((await fake.client.readiness()).model).toBe(true);
    expect((await fake.client.readiness({ model: 'gpt-6.2-sol' })).model).toBe(true);
    expect((await fake.client.readiness({ model: 'gpt-9' })).model).toBe(false);
  });
});
