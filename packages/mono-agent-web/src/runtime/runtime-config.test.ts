import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { loadWebConfig } from '../config/index.js';
import { createWebRuntime } from './web-runtime.js';

const directory = mkdtempSync(join(tmpdir(), 'runtime-config-'));
afterAll(() => rmSync(directory, { recursive: true, force: true }));

describe('createWebRuntime without a whole configuration', () => {
  it('with no arguments uses the defaults and the environment, as the CLI loads them', async () => {
    const runtime = await createWebRuntime();
    expect(runtime.config).toEqual(await loadWebConfig({ env: process.env }));
    const run = runtime.startRun();
    expect(typeof run.webFetch).toBe('function');
    await runtime.close();
  });

  it('reads the given environment and configuration file for what it is not given', async () => {
    const file = join(directory, 'agent.json');
    writeFileSync(file, JSON.stringify({ tools: { web: { search: { maxRequestsPerRun: 6 } } } }));
    const runtime = await createWebRuntime({ configFile: file, env: { MONO_AGENT_NETWORK_MODE: 'none' } });
    expect(runtime.config.search.maxRequestsPerRun).toBe(6);
    expect(runtime.config.network).toEqual({ mode: 'none', allow: [] });
    expect(runtime.config.sources).toMatchObject({
      'tools.web.search.maxRequestsPerRun': 'file',
      'network.mode': 'env',
    });
    // The policy the run applies is the loaded one: nothing leaves under `none`.
    const run = runtime.startRun();
    expect((await run.webFetch({ url: 'https://example.com/' })).text).toContain('error: policy_denied');
    await runtime.close();
  });

  it('lays a partial configuration over the defaults, section by section', async () => {
    const networkOnly = await createWebRuntime({ config: { network: { mode: 'localhost' } } });
    expect(networkOnly.config.network).toEqual({ mode: 'localhost', allow: [] });
    expect(networkOnly.config.search.backend).toBe('auto');
    expect(networkOnly.config.fetch.render).toBe('never');
    await networkOnly.close();

    const searchField = await createWebRuntime({ config: { search: { maxRequestsPerRun: 2 } }, env: {} });
    expect(searchField.config.search).toMatchObject({ maxRequestsPerRun: 2, backend: 'auto' });
    expect(searchField.config.search.codex.model).toBeTypeOf('string');
    await searchField.close();
  });

  it('reports a broken configuration file as the CLI does, naming the file', async () => {
    const file = join(directory, 'broken.json');
    writeFileSync(file, '{ "tools": ');
    await expect(createWebRuntime({ configFile: file, env: {} })).rejects.toMatchObject({
      code: 'validation_error',
    });
  });
});
