import { renderMarkdown } from './markdown-preview.js';

/** A search or fetch shows its progress indicator only once it has taken this long. */
const PROGRESS_DELAY_MS = 300;
const STATUS_REFRESH_MS = 2000;

const byId = (id) => document.getElementById(id);
const text = (id, value) => {
  byId(id).textContent = value;
};
const timeOf = (epochMs) => new Date(epochMs).toLocaleTimeString();

async function api(method, path, body) {
  const response = await fetch(path, {
    method,
    headers: body === undefined ? {} : { 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const value = await response.json();
  if (!response.ok) throw new Error(value.error ?? `HTTP ${response.status}`);
  return value;
}

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

function showRun(run) {
  if (run === undefined) return;
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

function cell(row, value) {
  const element = row.insertCell();
  element.textContent = value;
  return element;
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
    text('search-summary', `error: ${result.code ?? 'validation_error'}`);
    text('filtered', '');
    return;
  }
  const parts = [`status ${outcome.status}`];
  if (outcome.backend) parts.push(`answered by ${outcome.backend}`);
  if (outcome.error) parts.push(`error ${outcome.error.code}`);
  if (outcome.cacheHit) parts.push('from the process cache');
  if (outcome.sharedInFlight) parts.push('shared with an identical search in flight');
  parts.push(`next: ${outcome.nextAction}`);
  if (outcome.retryAt) parts.push(`retry at ${timeOf(outcome.retryAt)}`);
  parts.push(`${result.elapsedMs} ms`);
  text('search-summary', parts.join(' · '));
  outcome.results.forEach((entry, index) => {
    const row = body.insertRow();
    cell(row, String(index + 1));
    const titleCell = row.insertCell();
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
    cell(row, domainOf(entry.url));
    cell(row, [...new Set(entry.sources.map((source) => source.split(':')[0]))].join(', '));
    cell(row, entry.score.toFixed(4));
  });
  if (outcome.results.length === 0) {
    const row = body.insertRow();
    const empty = cell(
      row,
      outcome.status === 'error' ? 'No answer: see the providers below.' : 'No results.',
    );
    empty.colSpan = 5;
  }
  for (const report of outcome.providers) {
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
    providers.append(item);
  }
  const { outsideDomains, excluded, irrelevant } = outcome.filtered;
  const cooldowns =
    outcome.cooldownBackends.length > 0 ? ` · cooling down: ${outcome.cooldownBackends.join(', ')}` : '';
  text(
    'filtered',
    `Filtered out: ${outsideDomains} outside the domains, ${excluded} excluded, ${irrelevant} failed the relevance gate${cooldowns}${outcome.rateLimited ? ' · a provider was throttled' : ''}`,
  );
  for (const warning of outcome.warnings) {
    const item = document.createElement('li');
    item.textContent = warning;
    byId('warnings').append(item);
  }
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

async function refreshStatus() {
  try {
    const status = await api('GET', '/api/status');
    text('status-mode', status.mode + (status.stateFile ? ` (${status.stateFile})` : ''));
    text('status-buckets', `${status.bucketCount} of ${status.limits.maxBuckets}`);
    text('status-active', String(status.activeRequests));
    text('status-cooling', String(status.coolingDownCount));
    text('status-updated', timeOf(status.generatedAt));
    const body = byId('scopes-table').tBodies[0];
    body.replaceChildren();
    for (const scope of status.scopes) {
      const row = body.insertRow();
      cell(row, scope.kind);
      cell(row, `${scope.key.slice(0, 12)}…`).title = scope.key;
      cell(row, String(scope.activeRequests));
      cell(row, scope.coolingDown && scope.cooldownUntil ? timeOf(scope.cooldownUntil) : '–');
      cell(row, String(scope.admissions));
    }
  } catch (error) {
    text('status-updated', `status unavailable: ${error.message}`);
  }
}

async function reset() {
  try {
    const report = await api('POST', '/api/reset');
    text(
      'reset-message',
      report.reset
        ? `Cleared ${report.clearedBuckets} scope${report.clearedBuckets === 1 ? '' : 's'}.`
        : `Refused: ${report.activeRequests} request${report.activeRequests === 1 ? ' is' : 's are'} active; reset clears state only when nothing is in flight.`,
    );
  } catch (error) {
    text('reset-message', `Refused: ${error.message}`);
  }
  await refreshStatus();
}

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
  const suggestions = byId('suggestions');
  for (const query of info.suggestedQueries) {
    const button = document.createElement('button');
    button.type = 'button';
    button.className = 'suggestion';
    button.textContent = query;
    button.addEventListener('click', () => {
      byId('query').value = query;
      void runSearch();
    });
    suggestions.append(button);
  }
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
