import type { FailureCode } from '@mono-agent/budget-policy';

/** What a reason may draw on besides the code: the error's details, never its (possibly server) text. */
export interface FailureFacts {
  /** The HTTP status, when an answer arrived. */
  status?: number;
  /** Attempts sent, counting retries and redirect hops. */
  attempts?: number;
  /** The error's details as the failing layer recorded them. */
  details: Readonly<Record<string, unknown>>;
}

const PARSED_KINDS: Readonly<Record<string, string>> = { json: 'JSON', xml: 'XML', pdf: 'PDF' };

function where(details: FailureFacts['details']): string {
  const { line, column } = details;
  return typeof line === 'number' && typeof column === 'number' ? ` at line ${line}, column ${column}` : '';
}

/**
 * One sentence per failure code saying what happened and what the reader can do about it, written
 * by this project from the code and the error's details alone: a server's status text, a parser's
 * message or a redirect's Location never reach it. Typed over every code, so a new code cannot be
 * added without a reason.
 */
export const FETCH_FAILURE_REASONS: Readonly<Record<FailureCode, (facts: FailureFacts) => string>> = {
  validation_error: () => 'the arguments of the call break a documented rule; fix them and call again',
  configuration_error: () =>
    'the browser renderer is not usable as configured (tools.web.fetch.render, tools.web.fetch.browserCommand); the operator can check it with `mono-agent-web validate`',
  policy_denied: () =>
    'the network policy refused this destination and no connection was made; the operator can widen network.mode or network.allow',
  rate_limited: ({ status }) =>
    `the server is throttling requests${status === undefined ? '' : ` (HTTP ${status})`}; do not fetch this origin again before the retry time, use other sources meanwhile`,
  backend_unavailable: ({ attempts }) =>
    `the server could not be reached or broke the connection${attempts === undefined ? '' : ` (${attempts} attempts)`}; try again later or use another source`,
  timeout: () =>
    'the page did not arrive within the 45-second deadline of a WebFetch call; try again later or use another source',
  cancelled: () =>
    'the call was cancelled (by its caller, or because the run ended) before the page arrived; nothing was kept, so call again if the page is still needed',
  too_large: () =>
    'the response passed a size bound of WebFetch; read a smaller part (start_line, max_lines, max_output_chars) or another copy of the page',
  http_status: ({ status, attempts }) => {
    if (status === undefined) return 'the server answered with a non-success HTTP status; check the URL';
    if (status >= 500) {
      return `the server failed with HTTP ${status}${attempts === undefined ? '' : ` after ${attempts} attempts`}; try again later or use another source`;
    }
    if (status === 401 || status === 403) {
      return `the server refused access with HTTP ${status}; the page is not public, so use another source`;
    }
    if (status === 404 || status === 410) {
      return `the server has no page at this URL (HTTP ${status}); check the URL or search for where the page moved`;
    }
    return `the server answered HTTP ${status}, not a page; check the URL and the request headers`;
  },
  redirect_refused: ({ details }) =>
    typeof details.limit === 'number'
      ? `the page redirected more than ${details.limit} times (a loop or a long chain); fetch the final address directly if you know it`
      : 'the server redirected to an address WebFetch does not follow (not a public http(s) URL, one with credentials, or one that cannot be parsed); fetch a public http(s) URL directly',
  unsupported_content: () =>
    'the response is a kind of content WebFetch cannot read (it reads HTML, plain text, JSON, XML, RSS/Atom and PDF); look for an HTML or text version of the resource',
  charset_error: () =>
    'the page declares a character set WebFetch cannot decode, or its bytes are not valid in it; look for another copy of the page',
  parse_error: ({ details }) => {
    const kind = typeof details.kind === 'string' ? PARSED_KINDS[details.kind] : undefined;
    return kind === undefined
      ? 'the body is not valid in the format it declares; fetch it with format "raw" to read it as sent'
      : `the body declared as ${kind} is not valid ${kind}${where(details)}; the server sent malformed data, so fetch it with format "raw" to read it as sent`;
  },
  search_budget_exhausted: () =>
    "the run's search request budget is spent; answer from the evidence already gathered",
  cooldown: () =>
    'the origin is cooling down after throttling or failures and no request was sent; do not fetch it again before the cooldown ends',
  quota_unavailable: () =>
    'a subscription quota is near its limit or unknown and no request was sent; use other sources',
  authentication_required: () =>
    'the page asks to sign in; WebFetch reads public pages only and never signs in, so use a public source',
  access_challenge: () =>
    'the site answered with a CAPTCHA or access challenge; WebFetch does not solve challenges, so use another source',
  state_unsafe: () =>
    'the shared host state under ~/.mono-agent/web-control is unsafe or corrupt, so no request was sent; the operator must inspect it (`mono-agent-web web-control status --json`)',
  capacity_exceeded: () =>
    'the shared host state has no room for another origin, so no request was sent; try again once cooldowns end, or the operator can run `mono-agent-web web-control reset --json`',
  protocol_error: () =>
    'the browser renderer broke its protocol; the operator should check the agent-browser install (0.33.1 or newer)',
  internal_error: () =>
    'WebFetch failed on an internal error, a bug to report with the time of the call; another attempt may work',
};

/** The reason line of a failure that has no reason of its own. */
export function fetchFailureReason(code: FailureCode, facts: FailureFacts): string {
  return FETCH_FAILURE_REASONS[code](facts);
}
