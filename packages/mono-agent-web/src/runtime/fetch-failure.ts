import type { FailureCode, WebToolError } from '@mono-agent/budget-policy';
import type { ArgumentProblem } from '@mono-agent/tool-adapters';
import type { OriginCooldown } from './fetch-admission.js';
import { fetchFailureReason } from './fetch-failure-reason.js';
import { explainPolicyDenial, type PolicyDenial } from './policy-denial.js';
import type { FetchContext } from './run-context.js';

/** A failed WebFetch call as `--json` and hosts see it: the rendered outcome's fields plus details. */
export interface FetchFailureData {
  /** Always `error`. */
  status: 'error';
  /** The failure category. */
  code: FailureCode;
  /** What went wrong, in words an operator can act on. */
  message?: string;
  /** For `validation_error`: each rejected argument. */
  problems?: ArgumentProblem[];
  /** The HTTP status, when an answer arrived. */
  httpStatus?: number;
  /** Attempts sent, counting retries and redirect hops. */
  attempts?: number;
  /** Epoch milliseconds after which trying again can help. */
  retryAt?: number;
  /** The origin cooldown behind the failure (host mode). */
  cooldown?: OriginCooldown;
  /** For `policy_denied`: what was refused and why. */
  policy?: PolicyDenial;
  /** For `policy_denied`: the settings that would admit the destination. */
  allowWith?: string[];
  /** Where the whole document was saved, for a line too long to return. */
  artifact?: string;
}

/** One step of a WebFetch call: its value, or the failure that ends the call. */
export type Step<Value> = { ok: true; value: Value } | { ok: false; failure: FetchFailureData };

/** Failure codes whose message is written by this project (never server text) and says what to do. */
const EXPLAINED_CODES = new Set<FailureCode>([
  'validation_error',
  // A missing or wrong browser, or no temporary folder: the operator's setup, named with its remedy.
  'configuration_error',
  'too_large',
  'policy_denied',
  'cooldown',
  'backend_unavailable',
  'timeout',
  'charset_error',
]);

/** A failure as data: the code, its HTTP status and retry hints, and for refusals why and what would allow them. */
export function failureFrom(context: FetchContext, error: WebToolError): FetchFailureData {
  const details = error.details as Record<string, unknown>;
  const status = details.status;
  const attempts = details.attempts;
  const cooldown = details.cooldown as OriginCooldown | undefined;
  const policy = error.code === 'policy_denied' ? explainPolicyDenial(error, context.policy) : undefined;
  const explained = EXPLAINED_CODES.has(error.code) || cooldown !== undefined;
  return {
    status: 'error',
    code: error.code,
    ...(policy !== undefined
      ? { message: policy.reason, policy, allowWith: policy.allowWith }
      : {
          message: explained
            ? error.message
            : fetchFailureReason(error.code, {
                ...(typeof status === 'number' ? { status } : {}),
                ...(typeof attempts === 'number' ? { attempts } : {}),
                details,
              }),
        }),
    ...(typeof status === 'number' ? { httpStatus: status } : {}),
    ...(typeof attempts === 'number' ? { attempts } : {}),
    ...(error.retryAt === undefined ? {} : { retryAt: error.retryAt }),
    ...(cooldown === undefined ? {} : { cooldown }),
  };
}
