import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { WebToolError } from '@mono-agent/budget-policy';
import { afterAll, beforeAll, expect } from 'vitest';
import type { ConfigProblem, ConfigRule } from '../src/config/config-problem.js';
import { loadWebConfig } from '../src/config/load-web-config.js';
import type { WebConfig } from '../src/config/web-config.js';

// Shared by the configuration tests, which are split by subject. It lives outside src so that it is
// never published with the package.

// Live bindings: a test file reads the temp folder and the count of files written so far.
export let directory: string;
export let counter = 0;

/** Gives the calling test file a temp folder for its config files, removed when the file is done. */
export function useConfigDirectory(): void {
  beforeAll(async () => {
    directory = await mkdtemp(join(tmpdir(), 'mono-agent-web-config-'));
  });
  afterAll(async () => {
    await rm(directory, { recursive: true, force: true });
  });
}

/** Writes an agent config (an object as JSON, or raw text) to a fresh temp file. */
export async function writeConfig(content: unknown): Promise<string> {
  counter += 1;
  const path = join(directory, `agent-${counter}.json`);
  await writeFile(path, typeof content === 'string' ? content : JSON.stringify(content, null, 2));
  return path;
}

/** An agent config with `web` under `tools.web`. */
export function web(settings: Record<string, unknown>, rest: Record<string, unknown> = {}) {
  return { tools: { web: settings }, ...rest };
}

/** Loads from a temp file holding `content` (no file when undefined) and `env`. */
export async function load(
  content: unknown,
  env: Record<string, string | undefined> = {},
): Promise<WebConfig> {
  const file = content === undefined ? undefined : await writeConfig(content);
  return loadWebConfig({ ...(file === undefined ? {} : { file }), env, cwd: directory });
}

/** The validation error a load ends in. */
export async function failure(promise: Promise<unknown>): Promise<WebToolError> {
  const error = await promise.then(
    () => undefined,
    (thrown: unknown) => thrown,
  );
  expect(WebToolError.isInstance(error, 'validation_error'), String(error)).toBe(true);
  return error as WebToolError;
}

/** The problems a load ends in, as `[key, rule]` pairs. */
export async function problemsOf(promise: Promise<unknown>): Promise<[string, ConfigRule][]> {
  const error = await failure(promise);
  return (error.details.problems as ConfigProblem[]).map((problem) => [problem.key, problem.rule]);
}
