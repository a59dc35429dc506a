import { parseInteger } from '../query-parameters.js';
import { BadRequestError, type Route } from '../route-context.js';
import { send, sendJson } from '../send.js';

/** The most steps one `/sequence` script may list. */
export const MAX_SEQUENCE_STEPS = 64;
/** The longest Retry-After, in seconds, a step may announce. */
export const MAX_SEQUENCE_RETRY_AFTER_SECONDS = 86_400;

/** One scripted answer: a status (with an optional Retry-After), a dropped connection, or silence. */
type SequenceStep =
  | { kind: 'status'; status: number; retryAfter?: string }
  | { kind: 'reset' }
  | { kind: 'cut' }
  | { kind: 'hang' };

function parseStep(text: string): SequenceStep {
  if (text === 'reset') return { kind: 'reset' };
  if (text === 'hang') return { kind: 'hang' };
  if (text === 'cut') return { kind: 'cut' };
  const [statusText, retryAfter, ...rest] = text.split(':');
  if (rest.length > 0) throw new BadRequestError(`step "${text}" has more than one ":"`);
  const status = parseInteger('step status', statusText, { min: 200, max: 599 });
  if (retryAfter === undefined) return { kind: 'status', status };
  parseInteger('step Retry-After', retryAfter, { min: 0, max: MAX_SEQUENCE_RETRY_AFTER_SECONDS });
  return { kind: 'status', status, retryAfter };
}

/** Parses `steps=503,429:2,reset,hang,200`; the last step repeats once the script has run out. */
export function parseSequence(raw: string | null): SequenceStep[] {
  if (raw === null || raw === '') throw new BadRequestError('steps is required, e.g. steps=503,503,200');
  const steps = raw.split(',').map((step) => parseStep(step.trim()));
  if (steps.length > MAX_SEQUENCE_STEPS) {
    throw new BadRequestError(`steps lists at most ${MAX_SEQUENCE_STEPS} answers, got ${steps.length}`);
  }
  return steps;
}

/**
 * `/sequence/<key>?steps=503,429:2,reset,200`: the n-th request for `key` gets the n-th step, and
 * every request after the script the last step. A step is a status (`429:2` adds `Retry-After: 2`),
 * `reset` (the connection is dropped without an answer), `cut` (a 200 whose body stops after a few
 * bytes of the promised 1000) or `hang` (no answer until the client leaves). A 2xx answers JSON `{ key, attempt }`; others a short text. Counts are per fixture and key,
 * shared with `/flaky` by `reset()`; `X-Fixture-Attempt` carries the attempt number.
 */
export const sequenceRoute: Route = {
  pattern: '/sequence/:key',
  handle(context): void | Promise<void> {
    const { url, state, response } = context;
    const key = context.params['key'] ?? '';
    const steps = parseSequence(url.searchParams.get('steps'));
    const counter = `sequence:${key}`;
    const attempt = (state.flakyAttempts.get(counter) ?? 0) + 1;
    state.flakyAttempts.set(counter, attempt);
    const step = steps[Math.min(attempt, steps.length) - 1] as SequenceStep;
    const attemptHeader = { 'x-fixture-attempt': String(attempt) };
    if (step.kind === 'reset') {
      response.socket?.destroy();
      return;
    }
    if (step.kind === 'cut') {
      // Headers and the start of a body that promises more, then the connection goes away.
      response.writeHead(200, { 'content-type': 'text/plain', 'content-length': '1000', ...attemptHeader });
      response.write('the start of a body', () => response.socket?.destroy());
      return;
    }
    if (step.kind === 'hang')
      return new Promise<void>((resolve) => {
        context.signal.addEventListener('abort', () => resolve(), { once: true });
      });
    if (step.status >= 200 && step.status <= 299) {
      sendJson(context, step.status, { key, attempt }, attemptHeader);
      return;
    }
    send(
      context,
      step.status,
      {
        'content-type': 'text/plain; charset=utf-8',
        ...(step.retryAfter === undefined ? {} : { 'retry-after': step.retryAfter }),
        ...attemptHeader,
      },
      `attempt ${attempt} of the ${key} sequence: HTTP ${step.status}\n`,
    );
  },
};
