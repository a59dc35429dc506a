/** The page counts as settled once its DOM has not changed for this long after the load event. */
export const DOM_QUIET_MS = 500;

/** The settle wait gives up this long after the load event and reads whatever the page shows by then. */
export const DOM_SETTLE_MAX_MS = 5_000;

/**
 * A JavaScript expression for `agent-browser wait --fn`: false until the document has loaded
 * (`readyState` is `complete`); on its first evaluation after that it installs a MutationObserver over
 * the whole document that stamps the time of every change into a page global; it is true once the
 * document has been quiet for {@link DOM_QUIET_MS}, or once {@link DOM_SETTLE_MAX_MS} have passed
 * since that first evaluation (a page that never stops animating is read as it is). A page whose load
 * event never fires is never read: its render runs out of budget. The load is checked here, in the
 * page, because `open` may return before it: when Chromium's own start-up tab is the one navigated,
 * agent-browser can take that tab's load event for the page's. Page scripts can see the globals; the
 * render only reads the page, so that is harmless.
 */
export function domQuietPredicate(quietMs = DOM_QUIET_MS, settleMaxMs = DOM_SETTLE_MAX_MS): string {
  return [
    '(() => {',
    "  if (document.readyState !== 'complete') return false;",
    '  const state = (window.__monoAgentSettle ??= (() => {',
    '    const started = Date.now();',
    '    const record = { started, changed: started };',
    '    new MutationObserver(() => { record.changed = Date.now(); })',
    '      .observe(document, { subtree: true, childList: true, characterData: true, attributes: true });',
    '    return record;',
    '  })());',
    '  const now = Date.now();',
    `  if (now - state.started >= ${settleMaxMs}) return true;`,
    `  return now - state.changed >= ${quietMs};`,
    '})()',
  ].join('\n');
}
