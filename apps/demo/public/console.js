import { api, byId, cell, labelled, text, timeOf } from './console-api.js';
import { renderMarkdown } from './markdown-preview.js';
import { refreshStatus, reset } from './status-panel.js';

/** A search or fetch shows its progress indicator only once it has taken this long. */
const PROGRESS_DELAY_MS = 300;
const STATUS_REFRESH_MS = 2000;

/** Runs `work` with the busy indicator `progressId` shown after the delay, and `button` disabled. */
async function withProgress(progressId, button, work) {
  const progress = byId(progressId);
  const timer = setTimeout(() => progress.classList.add('visible'), PROGRESS_DELAY_MS);
  button.disabled = true;
  document.body.setAttribute('aria-busy', 'true');
  try {
    return await work();
  } finally {
    clearTimeout(timer);
    progress.classList.remove('visible');
    button.disabled = false;
    document.body.removeAttribute('aria-busy');
  }
}

/** Counts finished calls on the panel, so a reader (or a test) can tell a new answer from the last. */
function markCompleted(panelId) {
  const panel = byId(panelId);
  panel.dataset.completed = String(Number(panel.dataset.completed ?? '0') + 1);
}

let suggestedQueries = [];

/**
 * The suggested queries, each with what it shows and the most it may spend; one that needs more than
 * the run has left is not sent (it would end in a budget error), and says so.
 */
function showSuggestions(run) {
  const suggestions = byId('suggestions');
  suggestions.replaceChildren();
  for (const suggestion of suggestedQueries) {
    const button = document.createElement('button');
    button.type = 'button';
    button.className = 'suggestion';
    const query = document.createElement('span');
    query.className = 'suggestion-query';
    query.textContent = suggestion.query;
    const cost = document.createElement('span');
    cost.className = 'suggestion-cost';
    const affordable = run === undefined || suggestion.maxRequests <= run.budget.remaining;
    cost.textContent = affordable
      ? `shows ${suggestion.shows} · spends up to ${plural(suggestion.maxRequests, 'request')} of ${run?.budget.limit ?? '?'}`
      : `needs up to ${plural(suggestion.maxRequests, 'request')}, ${run.budget.remaining} left: start a fresh run`;
    button.append(query, cost);
    button.disabled = !affordable;
    button.addEventListener('click', () => {
      byId('query').value = suggestion.query;
      void runSearch();
    });
    suggestions.append(button);
  }
}

function showRun(run) {
  if (run === undefined) return;
  showSuggestions(run);
  text('run-number', `#${run.number}`);
  text('run-started', timeOf(run.startedAt));
  text('run-searches', String(run.searches));
  text('budget-used', `${run.budget.used} of ${run.budget.limit}`);
  text('budget-remaining', String(run.budget.remaining));
}

const list = (value) =>
  value
    .split(/[\s,]+/)
    .map((entry) => entry.trim())
    .filter((entry) => entry !== '');

function searchArguments() {
  const args = { query: byId('query').value };
  const alternates = byId('alternates')
    .value.split('\n')
    .map((line) => line.trim())
    .filter((line) => line !== '');
  if (alternates.length > 0) args.alternate_queries = alternates;
  const limit = byId('limit').value;
  if (limit !== '') args.limit = Number(limit);
  const domains = list(byId('domains').value);
  if (domains.length > 0) args.domains = domains;
  const exclude = list(byId('exclude').value);
  if (exclude.length > 0) args.exclude_domains = exclude;
  const language = byId('language').value.trim();
  if (language !== '') args.language = language;
  const timeRange = byId('time-range').value;
  if (timeRange !== '') args.time_range = timeRange;
  return args;
}

function domainOf(url) {
  try {
    return new URL(url).host;
  } catch {
    return '';
  }
}

const plural = (count, word) => `${count} ${word}${count === 1 ? '' : 's'}`;
const DISPOSITIONS = {
  accepted: 'answered',
  no_results: 'found nothing',
  irrelevant: 'returned only off-topic results',
  out_of_domain: 'returned only results outside the domains',
  rate_limited: 'was throttled',
  cooldown: 'was skipped while cooling down',
  deferred: 'was skipped after throttling earlier in this run',
  quota_skipped: 'was skipped to keep its quota',
  policy_denied: 'was refused by the network policy',
  failed: 'failed',
  budget_exhausted: 'was not asked: the budget ran out',
  cancelled: 'was cancelled',
};

/** What a search did, in a sentence: the first thing a reader sees of it. */
function headline(outcome) {
  const spent = ` It spent ${plural(outcome.cacheHit ? 0 : spentBy(outcome), 'request')}.`;
  const others = outcome.providers
    .filter((report) => report.disposition !== 'accepted' && report.backend !== outcome.backend)
    .map((report) => `${report.backend} ${DISPOSITIONS[report.disposition] ?? report.disposition}`);
  const before = others.length > 0 ? ` Before that, ${others.join(', ')}.` : '';
  if (outcome.status === 'results') {
    const source = outcome.cacheHit
      ? `, reused from an identical search a moment ago (the process cache)`
      : outcome.sharedInFlight
        ? ', shared with the same search already running'
        : '';
    return `Found ${plural(outcome.results.length, 'result')} from ${outcome.backend}${source}.${before}${spent}`;
  }
  if (outcome.status === 'no_results') {
    const reused = outcome.cacheHit ? ' (reused from the process cache)' : '';
    return `Nothing matched: ${outcome.backend ?? 'the search backend'} worked and found no relevant results${reused}.${before}${spent}`;
  }
  const code = outcome.error?.code;
  if (code === 'search_budget_exhausted') {
    return `Not sent: this run's search budget is used up (${outcome.requestsUsed} of ${outcome.requestsUsed + outcome.requestsRemaining} requests). Start a fresh run to search again.`;
  }
  const retry = outcome.retryAt ? ` A retry can help after ${timeOf(outcome.retryAt)}.` : '';
  const asked = outcome.providers.map(
    (report) => `${report.backend} ${DISPOSITIONS[report.disposition] ?? report.disposition}`,
  );
  return `No answer: ${asked.length > 0 ? asked.join(', ') : 'no provider could be asked'}.${retry}${spent}`;
}

/** Requests this search charged to the run, as its providers report them. */
function spentBy(outcome) {
  return outcome.providers.reduce((sum, report) => sum + report.requests, 0);
}

function showSearch(result) {
  text('search-text', result.text);
  const outcome = result.data;
  const body = byId('results-table').tBodies[0];
  body.replaceChildren();
  const providers = byId('providers');
  providers.replaceChildren();
  byId('warnings').replaceChildren();
  if (outcome === undefined) {
    showRefusedSearch(result);
    return;
  }
  text('search-summary', headline(outcome));
  text('search-codes', searchCodes(outcome, result.elapsedMs));
  for (const [index, entry] of outcome.results.entries()) appendResultRow(body, entry, index);
  if (outcome.results.length === 0) {
    const empty = cell(body.insertRow(), noResultsMessage(outcome));
    empty.colSpan = 5;
  }
  showProviders(providers, outcome);
  text('filtered', filteredSummary(outcome));
  for (const warning of outcome.warnings) {
    const item = document.createElement('li');
    item.textContent = warning;
    byId('warnings').append(item);
  }
}

/** A search whose arguments were refused has no outcome: only the refusal is shown. */
function showRefusedSearch(result) {
  const reason = result.text.split('\n').slice(1).join(' ').trim();
  text('search-summary', `Not sent: the arguments were refused${reason ? ` (${reason})` : ''}.`);
  text('search-codes', `error ${result.code ?? 'validation_error'}`);
  text('filtered', '');
}

/** The codes line under a search's headline: status, backend, error, next action and time taken. */
function searchCodes(outcome, elapsedMs) {
  const parts = [`status ${outcome.status}`];
  if (outcome.backend) parts.push(`backend ${outcome.backend}`);
  if (outcome.error) parts.push(`error ${outcome.error.code}`);
  parts.push(`next: ${outcome.nextAction}`);
  parts.push(`${elapsedMs} ms`);
  return parts.join(' · ');
}

/** One row of the results table; its title fetches the result's page. */
function appendResultRow(body, entry, index) {
  const row = body.insertRow();
  labelled(row, '#', String(index + 1));
  const titleCell = row.insertCell();
  titleCell.dataset.label = 'Title';
  const open = document.createElement('button');
  open.type = 'button';
  open.className = 'link';
  open.textContent = entry.title || entry.url;
  open.title = `WebFetch ${entry.url}`;
  open.addEventListener('click', () => {
    byId('fetch-url').value = entry.url;
    byId('start-line').value = '';
    byId('max-lines').value = '';
    void runFetch();
  });
  titleCell.append(open);
  labelled(row, 'Domain', domainOf(entry.url));
  labelled(row, 'Provider', [...new Set(entry.sources.map((source) => source.split(':')[0]))].join(', '));
  labelled(row, 'Fused score', entry.score.toFixed(4));
}

// "See the providers below" only when there are providers to see; otherwise the reason itself.
function noResultsMessage(outcome) {
  if (outcome.status !== 'error') return 'No results.';
  return outcome.providers.length > 0
    ? 'No answer: see the providers below.'
    : `No answer: ${outcome.error?.message ?? 'no provider was asked'}.`;
}

/** The providers list: one entry per provider asked, or why none was. */
function showProviders(providers, outcome) {
  if (outcome.providers.length === 0) {
    const item = document.createElement('li');
    item.className = 'none';
    item.textContent = outcome.cacheHit
      ? 'No provider was asked: the answer came from the process cache.'
      : `No provider was asked${outcome.error ? `: ${outcome.error.message}` : '.'}`;
    providers.append(item);
  }
  for (const report of outcome.providers) providers.append(providerItem(report));
}

function providerItem(report) {
  const item = document.createElement('li');
  item.dataset.disposition = report.disposition;
  const name = document.createElement('strong');
  name.textContent = report.backend;
  item.append(name, ` ${report.disposition}`);
  if (report.code) item.append(` (${report.code})`);
  item.append(` · ${report.requests} request${report.requests === 1 ? '' : 's'}`);
  if (report.retryAt) item.append(` · cooling down until ${timeOf(report.retryAt)}`);
  if (report.message) {
    const reason = document.createElement('div');
    reason.className = 'reason';
    reason.textContent = report.message;
    item.append(reason);
  }
  return item;
}

/** What the search left out, and which backends were cooling down or throttled. */
function filteredSummary(outcome) {
  const { outsideDomains, excluded, irrelevant } = outcome.filtered;
  const cooldowns =
    outcome.cooldownBackends.length > 0 ? ` · cooling down: ${outcome.cooldownBackends.join(', ')}` : '';
  return `Filtered out: ${outsideDomains} outside the domains, ${excluded} excluded, ${irrelevant} failed the relevance gate${cooldowns}${outcome.rateLimited ? ' · a provider was throttled' : ''}`;
}

async function runSearch() {
  const button = byId('search-button');
  await withProgress('search-progress', button, async () => {
    try {
      const result = await api('POST', '/api/search', searchArguments());
      showSearch(result);
      showRun(result.run);
    } catch (error) {
      text('search-summary', `The console could not run the search: ${error.message}`);
    }
    markCompleted('search-panel');
  });
}

let lastSlice;

function fetchArguments(overrides = {}) {
  const args = { url: byId('fetch-url').value.trim() };
  const format = byId('format').value;
  if (format !== 'markdown') args.format = format;
  const render = byId('render').value;
  if (render !== 'never') args.render = render;
  for (const [id, key] of [
    ['start-line', 'start_line'],
    ['max-lines', 'max_lines'],
    ['max-chars', 'max_output_chars'],
  ]) {
    const value = byId(id).value;
    if (value !== '') args[key] = Number(value);
  }
  return { ...args, ...overrides };
}

function showFetch(result) {
  text('fetch-text', result.text);
  const data = result.data;
  text('fetch-time', `${result.elapsedMs} ms`);
  const timing = result.timing?.at(-1);
  if (result.isError) {
    text('fetch-status', 'error');
    const code = result.code ?? data?.code ?? 'validation_error';
    const reason = result.text.split('\n').slice(1).join(' ').trim();
    text('fetch-error', `${code}${reason ? `: ${reason}` : ''}`);
    for (const id of [
      'fetch-kind',
      'fetch-charset',
      'fetch-stage',
      'fetch-rendered',
      'fetch-lines',
      'fetch-cache',
    ])
      text(id, '–');
    byId('markdown-preview').replaceChildren();
    lastSlice = undefined;
  } else {
    text('fetch-error', '');
    text(
      'fetch-status',
      `ok · HTTP ${data.httpStatus}${data.redirects ? ` · ${data.redirects} redirects` : ''}`,
    );
    text('fetch-kind', data.document.kind);
    text(
      'fetch-charset',
      `${data.document.charset ?? '–'}${data.document.charsetSource ? ` (${data.document.charsetSource})` : ''}`,
    );
    text('fetch-stage', data.document.stage ?? '–');
    byId('fetch-stage').title = STAGES[data.document.stage] ?? '';
    const rendered = data.rendered ?? timing?.rendered ?? false;
    text('fetch-rendered', rendered ? `yes${data.renderReason ? ` (${data.renderReason})` : ''}` : 'no');
    text('fetch-cache', data.cacheHit ? 'yes' : 'no');
    const slice = data.slice;
    text('fetch-lines', `${slice.startLine}–${slice.endLine} of ${slice.totalLines}`);
    renderMarkdown(byId('markdown-preview'), slice.content);
    lastSlice = slice;
  }
  byId('next-lines').disabled = !lastSlice?.nextLine;
  byId('previous-lines').disabled = !(lastSlice && lastSlice.startLine > 1);
}

async function runFetch(overrides) {
  const button = byId('fetch-button');
  await withProgress('fetch-progress', button, async () => {
    try {
      const result = await api('POST', '/api/fetch', fetchArguments(overrides));
      showFetch(result);
      showRun(result.run);
    } catch (error) {
      text('fetch-error', `The console could not run the fetch: ${error.message}`);
    }
    markCompleted('fetch-panel');
  });
}

function pageBy(direction) {
  if (lastSlice === undefined) return;
  const size = Number(byId('max-lines').value) || lastSlice.endLine - lastSlice.startLine + 1 || 200;
  const start = direction > 0 ? lastSlice.nextLine : Math.max(1, lastSlice.startLine - size);
  byId('start-line').value = String(start);
  byId('max-lines').value = String(size);
  void runFetch();
}

/** What each extraction stage means, shown on the stage value itself. */
const STAGES = {
  defuddle: 'Defuddle found the article',
  readability: 'Readability found the article',
  'cleaned-body': 'no article found: the page body with navigation removed',
  'page-description': 'a script-built page: its own summary',
  'streamed-text': 'text the page streams in with its scripts',
  json: 'a JSON document, pretty-printed',
  xml: 'an XML document',
  feed: 'an RSS or Atom feed, entry by entry',
  pdf: 'the text of a PDF',
  text: 'a plain-text document',
  raw: 'the decoded body, unprocessed',
};

async function newRun() {
  const { run } = await api('POST', '/api/run');
  showRun(run);
  text('run-message', `Run #${run.number} began at ${timeOf(run.startedAt)} with a fresh budget.`);
}

async function start() {
  const info = await api('GET', '/api/info');
  text(
    'serving',
    `Serving ${info.description} · backend ${info.backend} · network ${info.network} · coordination ${info.coordination} · rendering ${info.render}`,
  );
  showRun(info.run);
  suggestedQueries = info.suggestedQueries;
  showSuggestions(info.run);
  byId('search-form').addEventListener('submit', (event) => {
    event.preventDefault();
    void runSearch();
  });
  byId('fetch-form').addEventListener('submit', (event) => {
    event.preventDefault();
    void runFetch();
  });
  byId('next-lines').addEventListener('click', () => pageBy(1));
  byId('previous-lines').addEventListener('click', () => pageBy(-1));
  byId('reset').addEventListener('click', () => void reset());
  byId('new-run').addEventListener('click', () => void newRun());
  await refreshStatus();
  setInterval(() => {
    if (document.visibilityState === 'visible') void refreshStatus();
  }, STATUS_REFRESH_MS);
  document.body.dataset.ready = 'true';
}

void start();
