/** Query parameter names that only identify a campaign, click or mail recipient. */
export const TRACKING_PARAMETERS: ReadonlySet<string> = new Set([
  'gclid',
  'gclsrc',
  'dclid',
  'gbraid',
  'wbraid',
  'fbclid',
  'msclkid',
  'yclid',
  'twclid',
  'ttclid',
  'li_fat_id',
  'igshid',
  'mc_cid',
  'mc_eid',
  '_hsenc',
  '_hsmi',
  'mkt_tok',
  'vero_id',
  'vero_conv',
  'oly_enc_id',
  'oly_anon_id',
  'rb_clickid',
  's_cid',
  'ref_src',
  'ref_url',
  '_ga',
  '_gl',
]);

/** Prefixes of tracking parameter families (`utm_source`, `utm_medium`, ...). */
export const TRACKING_PARAMETER_PREFIXES: readonly string[] = ['utm_', 'pk_', 'mtm_', 'hsa_'];

/** Whether a query parameter name is a tracking parameter (case-insensitive). */
export function isTrackingParameter(name: string): boolean {
  const lower = name.toLowerCase();
  return (
    TRACKING_PARAMETERS.has(lower) || TRACKING_PARAMETER_PREFIXES.some((prefix) => lower.startsWith(prefix))
  );
}

/** Removes tracking parameters from a URL in place, keeping every other parameter in its order. */
export function removeTrackingParameters(url: URL): URL {
  const names = [...new Set(url.searchParams.keys())];
  for (const name of names) {
    if (isTrackingParameter(name)) url.searchParams.delete(name);
  }
  return url;
}
