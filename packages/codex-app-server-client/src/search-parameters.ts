import { WebToolError } from '@mono-agent/budget-policy';
import type { InitializeParams } from './generated/protocol/InitializeParams.js';
import type { ThreadStartParams } from './generated/protocol/v2/ThreadStartParams.js';
import type { TurnStartParams } from './generated/protocol/v2/TurnStartParams.js';
import type { UserInput } from './generated/protocol/v2/UserInput.js';

/** The time ranges a search may prefer (advisory for Codex). */
export const TIME_RANGES = ['day', 'month', 'year'] as const;

/** One preferred time range. */
export type TimeRange = (typeof TIME_RANGES)[number];

/** The longest language tag accepted (BCP 47 tags in practice stay far below it). */
export const MAX_LANGUAGE_TAG_LENGTH = 35;

const LANGUAGE_TAG = /^[A-Za-z]{2,8}(?:-[A-Za-z0-9]{1,8})*$/;

const TIME_RANGE_WORDS: Record<TimeRange, string> = {
  day: 'past day',
  month: 'past month',
  year: 'past year',
};

/** The `initialize` params: experimental API on, for the empty environment and tool lists. */
export function buildInitializeParams(version: string): InitializeParams {
  return {
    clientInfo: { name: 'mono_agent_codex_app_server_client', title: 'mono-agent web search', version },
    capabilities: {
      experimentalApi: true,
      requestAttestation: false,
      optOutNotificationMethods: ['item/agentMessage/delta', 'item/reasoning/summaryTextDelta'],
    },
  };
}

/**
 * The `thread/start` params of a search: ephemeral, read-only, no approvals, a private scratch cwd,
 * and no MCP servers (each configured one disabled by name), apps, plugins, environments, dynamic
 * tools or capability roots.
 */
export function buildThreadStartParams(
  model: string,
  cwd: string,
  mcpServerNames: readonly string[],
): ThreadStartParams {
  const mcpServers = Object.fromEntries(mcpServerNames.map((name) => [name, { enabled: false }]));
  return {
    model,
    cwd,
    approvalPolicy: 'never',
    sandbox: 'read-only',
    ephemeral: true,
    config: {
      web_search: 'live',
      'features.apps': false,
      'features.plugins': false,
      ...(mcpServerNames.length === 0 ? {} : { mcp_servers: mcpServers }),
    },
    environments: [],
    dynamicTools: [],
    selectedCapabilityRoots: [],
  };
}

/** The preferences line sent beside the query, or undefined when there are none. */
export function describePreferences(language?: string, timeRange?: TimeRange): string | undefined {
  const parts = [
    language === undefined ? undefined : `language=${language}`,
    timeRange === undefined ? undefined : `time range=${TIME_RANGE_WORDS[timeRange]}`,
  ].filter((part) => part !== undefined);
  return parts.length === 0 ? undefined : `Search preferences (advisory): ${parts.join('; ')}`;
}

/** Checks the preferences, which reach the model as text and so must stay plain. */
export function validatePreferences(language: unknown, timeRange: unknown): void {
  if (
    language !== undefined &&
    (typeof language !== 'string' ||
      language.length > MAX_LANGUAGE_TAG_LENGTH ||
      !LANGUAGE_TAG.test(language))
  ) {
    throw new WebToolError({
      code: 'validation_error',
      message: 'language must be a language tag such as "en" or "pt-BR"',
      details: { field: 'language', limit: MAX_LANGUAGE_TAG_LENGTH },
    });
  }
  if (timeRange !== undefined && !TIME_RANGES.includes(timeRange as TimeRange)) {
    throw new WebToolError({
      code: 'validation_error',
      message: `timeRange must be one of ${TIME_RANGES.join(', ')}`,
      details: { field: 'timeRange' },
    });
  }
}

/**
 * The `turn/start` params of a search: low effort, no summary, the query as the first text item
 * exactly as given, and the preferences (if any) as a separate second item.
 */
export function buildTurnStartParams(
  threadId: string,
  query: string,
  language?: string,
  timeRange?: TimeRange,
): TurnStartParams {
  const preferences = describePreferences(language, timeRange);
  const input: UserInput[] = [{ type: 'text', text: query, text_elements: [] }];
  if (preferences !== undefined) input.push({ type: 'text', text: preferences, text_elements: [] });
  return { threadId, input, effort: 'low', summary: 'none' };
}
