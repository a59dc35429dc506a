import { WebToolError } from '@mono-agent/budget-policy';
import type { GetAccountParams } from './generated/protocol/v2/GetAccountParams.js';
import type { ModelListParams } from './generated/protocol/v2/ModelListParams.js';
import type { JsonRpcConnection } from './json-rpc-connection.js';

/** The model a search runs on unless the caller names another. */
export const DEFAULT_CODEX_MODEL = 'gpt-5.6-luna';

/** The most `model/list` pages read while looking for the model; a longer chain is a broken peer. */
export const MAX_MODEL_LIST_PAGES = 20;

/** The outcome of the three readiness checks; each check keeps its own boolean. */
export interface Readiness {
  /** All three checks passed. */
  ready: boolean;
  /** `account/read` reports a ChatGPT sign-in (the only check that proves one). */
  account: boolean;
  /** `modelProvider/capabilities/read` reports `webSearch: true`. */
  webSearch: boolean;
  /** `model/list` (every page) contains the model. */
  model: boolean;
  /** Why not ready, in words, when not ready. */
  reason?: string;
}

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** Whether an `account/read` result shows a ChatGPT account; any other kind (API key, ...) fails. */
export function hasChatgptAccount(result: unknown): boolean {
  return isObject(result) && isObject(result.account) && result.account.type === 'chatgpt';
}

/** Whether a `modelProvider/capabilities/read` result reports web search. */
export function reportsWebSearch(result: unknown): boolean {
  return isObject(result) && result.webSearch === true;
}

/** Reads every `model/list` page and says whether `model` is among them (by `id` or `model`). */
export async function listContainsModel(connection: JsonRpcConnection, model: string): Promise<boolean> {
  let cursor: string | null = null;
  for (let page = 1; page <= MAX_MODEL_LIST_PAGES; page += 1) {
    const params: ModelListParams = { includeHidden: true, ...(cursor === null ? {} : { cursor }) };
    const result = await connection.request('model/list', params);
    if (!isObject(result) || !Array.isArray(result.data)) {
      throw new WebToolError({ code: 'protocol_error', message: 'model/list answered without a data array' });
    }
    for (const entry of result.data) {
      if (isObject(entry) && (entry.id === model || entry.model === model)) return true;
    }
    const next = result.nextCursor;
    if (next === null || next === undefined) return false;
    if (typeof next !== 'string') {
      throw new WebToolError({
        code: 'protocol_error',
        message: 'model/list answered with a non-string cursor',
      });
    }
    cursor = next;
  }
  throw new WebToolError({
    code: 'protocol_error',
    message: `model/list did not end within ${MAX_MODEL_LIST_PAGES} pages`,
    details: { limit: MAX_MODEL_LIST_PAGES },
  });
}

/** Runs the three checks in parallel. Transport failures reject; answers become booleans. */
export async function checkReadiness(connection: JsonRpcConnection, model: string): Promise<Readiness> {
  const accountParams: GetAccountParams = { refreshToken: false };
  const [accountResult, capabilities, modelListed] = await Promise.all([
    connection.request('account/read', accountParams),
    connection.request('modelProvider/capabilities/read', {}),
    listContainsModel(connection, model),
  ]);
  const account = hasChatgptAccount(accountResult);
  const webSearch = reportsWebSearch(capabilities);
  const reasons = [
    account ? undefined : 'not signed in to Codex with a ChatGPT account',
    webSearch ? undefined : 'the model provider does not offer web search',
    modelListed ? undefined : `model ${JSON.stringify(model)} is not in the model list`,
  ].filter((reason) => reason !== undefined);
  const ready = account && webSearch && modelListed;
  return {
    ready,
    account,
    webSearch,
    model: modelListed,
    ...(ready ? {} : { reason: reasons.join('; ') }),
  };
}
