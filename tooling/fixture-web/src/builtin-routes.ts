import type { Route } from './route-context.js';
import { appApiRoute, appPageRoute } from './routes/app-pages.js';
import { bombRoute } from './routes/bomb.js';
import { bytesRoute } from './routes/bytes.js';
import { charsetRoute } from './routes/charset.js';
import { compressedRoute } from './routes/compressed.js';
import { contentRoute } from './routes/content.js';
import { delayRoute } from './routes/delay.js';
import { echoRoute } from './routes/echo.js';
import { flakyRoute } from './routes/flaky.js';
import { homeRoute } from './routes/home.js';
import { hostileRoute } from './routes/hostile.js';
import { legacyTextRoute } from './routes/legacy-text.js';
import { pageIndexRoute, pageRoute } from './routes/pages.js';
import { redirectChainRoute } from './routes/redirect-chain.js';
import { redirectLoopRoute } from './routes/redirect-loop.js';
import { redirectToRoute } from './routes/redirect-to.js';
import { sequenceRoute } from './routes/sequence.js';
import { statusRoute } from './routes/status.js';
import { trickleRoute } from './routes/trickle.js';

/** The routes every fixture answers unless a scenario claims the path first. */
export const BUILTIN_ROUTES: readonly Route[] = [
  homeRoute,
  echoRoute,
  pageIndexRoute,
  pageRoute,
  charsetRoute,
  redirectChainRoute,
  redirectToRoute,
  redirectLoopRoute,
  statusRoute,
  flakyRoute,
  sequenceRoute,
  delayRoute,
  trickleRoute,
  bytesRoute,
  compressedRoute,
  bombRoute,
  contentRoute,
  hostileRoute,
  legacyTextRoute,
  appPageRoute,
  appApiRoute,
];
