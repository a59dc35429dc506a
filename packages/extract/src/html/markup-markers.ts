/**
 * The searches made for each marker set, by the markers still looked for (a bit per marker, in the
 * set's order). A page's markers are found in an order of their own, so a search for each subset
 * met is compiled once and kept: a regular expression runs much faster from its second use.
 */
const searches = new WeakMap<object, Map<number, RegExp>>();

/**
 * Which of `markers` match somewhere in `html`, found in one pass over the page instead of one pass
 * per marker. The preparation uses them to skip the steps a page has nothing for (most pages have
 * no formula, callout or streamed part), and a page of a megabyte costs a millisecond per pass.
 *
 * Each marker is a case-insensitive regular expression without flags of another kind and without
 * capturing groups, since they are searched together as the alternatives of one expression (a
 * marker set that breaks this throws). The search stops once every marker is found.
 */
export function findMarkers<K extends string>(html: string, markers: Readonly<Record<K, RegExp>>): Set<K> {
  let kept = searches.get(markers);
  if (kept === undefined) {
    checkMarkers(markers);
    kept = new Map();
    searches.set(markers, kept);
  }
  const keys = Object.keys(markers) as K[];
  const found = new Set<K>();
  let left = (1 << keys.length) - 1;
  let from = 0;
  while (left !== 0) {
    const search = kept.get(left) ?? compileSearch(markers, keys, left, kept);
    search.lastIndex = from;
    const match = search.exec(html);
    if (match === null) break;
    // The groups are the markers still looked for, in the set's order.
    let group = 1;
    while (match[group] === undefined) group++;
    let bit = 0;
    for (let seen = 0; ; bit++) {
      if ((left & (1 << bit)) !== 0 && ++seen === group) break;
    }
    found.add(keys[bit] as K);
    // Another marker may match where this one did: the search goes on from the same place without it.
    from = match.index;
    left &= ~(1 << bit);
  }
  return found;
}

/** The search for the markers whose bits `left` holds, kept in `kept`. */
function compileSearch<K extends string>(
  markers: Readonly<Record<K, RegExp>>,
  keys: readonly K[],
  left: number,
  kept: Map<number, RegExp>,
): RegExp {
  const sources = keys.flatMap((key, bit) => ((left & (1 << bit)) !== 0 ? [`(${markers[key].source})`] : []));
  const search = new RegExp(sources.join('|'), 'gi');
  kept.set(left, search);
  return search;
}

function checkMarkers(markers: Readonly<Record<string, RegExp>>): void {
  if (Object.keys(markers).length > 30) throw new Error('A marker set holds at most 30 markers.');
  for (const [key, marker] of Object.entries(markers)) {
    // An expression with an empty alternative before it matches the empty string, with one entry
    // per capturing group after the whole match.
    const groups = (new RegExp(`|${marker.source}`).exec('') as RegExpExecArray).length - 1;
    if (marker.flags !== 'i' || groups > 0) {
      throw new Error(
        `The marker "${key}" (/${marker.source}/${marker.flags}) must be case-insensitive only and without capturing groups.`,
      );
    }
  }
}
