import { abortableSleep } from '../abortable-sleep.js';
import { parseInteger } from '../query-parameters.js';
import type { Route } from '../route-context.js';
import { sendText } from '../send.js';

/** The longest `/delay/<ms>`; long enough for any deadline test, short enough to not hang a suite. */
export const MAX_DELAY_MS = 120_000;

/** `/delay/<ms>`: sends nothing, not even headers, for `ms` milliseconds, then a short 200. */
export const delayRoute: Route = {
  pattern: '/delay/:ms',
  async handle(context) {
    const ms = parseInteger('ms', context.params['ms'], { min: 0, max: MAX_DELAY_MS });
    if (!(await abortableSleep(ms, context.signal))) return;
    sendText(context, 200, `delayed ${ms} ms\n`);
  },
};
