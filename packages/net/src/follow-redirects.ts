// Redirect handling: each hop's target checked against the URL rules and the network policy before it
// is sent to, the method and body carried or dropped as browsers do, and the number of hops bounded.
import { WebToolError } from '@mono-agent/budget-policy';
import type { Agent } from 'undici';
import { checkHost } from './check-address.js';
import type { Deadline } from './deadline.js';
import { type Exchange, toResponse } from './exchange.js';
import { policyDenied } from './guarded-connector.js';
import type { PreparedRequest } from './prepare-request.js';
import type { HttpRequestOptions, HttpResponse } from './request-options.js';
import { type Progress, sendWithRetries } from './send-with-retries.js';
import { urlProblem } from './validate-request.js';

/** The most redirect hops followed; the next redirect is refused. */
export const MAX_REDIRECTS = 5;

/** Sends the request and follows its redirects as `prepared.redirect` says, up to {@link MAX_REDIRECTS}. */
export async function followRedirects(
  prepared: PreparedRequest,
  options: HttpRequestOptions,
  deadline: Deadline,
  agent: Agent,
  progress: Progress,
): Promise<HttpResponse> {
  let target = prepared.url;
  let method = prepared.method;
  let body = prepared.body;
  let redirects = 0;
  for (;;) {
    const port = Number(target.port) || (target.protocol === 'https:' ? 443 : 80);
    const decision = checkHost(prepared.policy, { host: target.hostname, port });
    if (decision !== undefined && !decision.allowed) {
      const host = target.hostname.replace(/^\[(.*)\]$/, '$1');
      throw policyDenied(decision, host, undefined, port);
    }
    const exchange = await sendWithRetries(
      target,
      method,
      body,
      prepared,
      options,
      deadline,
      agent,
      progress,
    );
    if (exchange.location === undefined) return toResponse(exchange, redirects, progress.attempts, prepared);
    if (prepared.redirect === 'error') {
      throw redirectRefused(
        `the server redirected (HTTP ${exchange.status}) and redirects are refused here`,
        { status: exchange.status, ...reportableLocation(exchange.location, exchange.url) },
      );
    }
    if (redirects >= MAX_REDIRECTS) {
      throw redirectRefused(`more than ${MAX_REDIRECTS} redirects`, {
        status: exchange.status,
        limit: MAX_REDIRECTS,
      });
    }
    target = redirectTarget(exchange);
    redirects += 1;
    // Browsers turn these into GETs without a body; 307 and 308 keep method and body.
    if (
      exchange.status === 303 ||
      ((exchange.status === 301 || exchange.status === 302) && method === 'POST')
    ) {
      method = 'GET';
      body = undefined;
    }
  }
}

/** The Location for error details, as sent, unless it carries credentials that must not be echoed. */
function reportableLocation(location: string, base: URL): { location?: string } {
  try {
    const parsed = new URL(location, base);
    if (parsed.username !== '' || parsed.password !== '') return {};
  } catch {
    return {};
  }
  return { location };
}

/** Where a redirect leads, checked like a request's own URL, without its fragment. */
function redirectTarget(exchange: Exchange): URL {
  let next: URL;
  try {
    next = new URL(exchange.location ?? '', exchange.url);
  } catch (error) {
    throw redirectRefused('the redirect Location cannot be parsed', { status: exchange.status }, error);
  }
  const problem = urlProblem(next);
  if (problem !== undefined) {
    throw redirectRefused(`refused redirect: ${problem}`, {
      status: exchange.status,
      ...reportableLocation(next.href, exchange.url),
    });
  }
  next.hash = '';
  return next;
}

function redirectRefused(message: string, details: Record<string, unknown>, cause?: unknown): WebToolError {
  return new WebToolError({ code: 'redirect_refused', message, details, cause });
}
