/** The page counts as settled once its DOM has not changed for this long after the load event. */
export const DOM_QUIET_MS = 500;

/** The settle wait gives up after this long and reads whatever the page shows by then. */
export const DOM_SETTLE_MAX_MS = 5_000;

/**
 * A JavaScript expression for `agent-browser wait --fn`: on its first evaluation it installs a
 * MutationObserver over the whole document that stamps the time of every change into a page global;
 * it is true once the document has loaded and has been quiet for {@link DOM_QUIET_MS}, or once
 * {@link DOM_SETTLE_MAX_MS} have passed since the first evaluation (a page that never stops animating
 * is read as it is). Page scripts can see the globals; the render only reads the page, so that is
 * harmless.
 */
export function domQuietPredicate(quietMs = DOM_QUIET_MS, settleMaxMs = DOM_SETTLE_MAX_MS): string {
  return [
    '(() => {',
    '  const state = (window.__monoAgentSettle ??= (() => {',
    '    const started = Date.now();',
    '    const record = { started, changed: started };',
    '    new MutationObserver(() => { record.changed = Date.now(); })',
    '      .observe(document, { subtree: true, childList: true, characterData: true, attributes: true });',
    '    return record;',
    '  })());',
    '  const now = Date.now();',
    `  if (now - state.started >= ${settleMaxMs}) return true;`,
    `  return document.readyState === 'complete' && now - state.changed >= ${quietMs};`,
    '})()',
  ].join('\n');
}
