/**
 * The marks a page's title puts between its headline and the name of its site or section: an ASCII
 * mark between spaces (`Headline | Site`, `Headline - Site`, `Headline : Section : Site`), or a
 * full-width one, which CJK pages write with or without spaces (`見出し：新聞デジタル`). A colon or
 * dash inside a word or after one ("Genetik: das Geheimnis", "Post-Vac") is no such mark.
 */
const TITLE_MARK = /(\s+(?:[|\-–—·•»~/]|::?)\s+|\s*[｜：－／]\s*)/u;

/** A piece of text as compared here: compatibility forms, case, punctuation and spaces ignored. */
function comparable(text: string): string {
  return text
    .normalize('NFKC')
    .toLowerCase()
    .replace(/[^\p{L}\p{N}]+/gu, '');
}

/**
 * The page's title without the name of its site (and the section names around it) that the page's
 * `<title>` adds to every page: a run of the title's parts, from its start or to its end, that the
 * page gives as its title for sharing (`og:title`, `twitter:title`: `sharedTitles`) when what it leaves
 * out is shorter than what it keeps; else the title without a first or last part that is the site's
 * name the page states (`siteName`). A sharing title that is only the site's name is not weighed.
 * The title as it is when neither holds.
 */
export function titleWithoutSite(
  title: string,
  siteName: string | undefined,
  sharedTitles: readonly string[],
): string {
  const pieces = title.split(TITLE_MARK);
  if (pieces.length < 3) return title;
  const parts = (pieces.length + 1) / 2;
  // Parts `from` to `to` (exclusive) with the marks between them, as the title writes them.
  const run = (from: number, to: number) =>
    pieces
      .slice(2 * from, 2 * to - 1)
      .join('')
      .trim();
  const site = siteName === undefined ? '' : comparable(siteName);
  const own = new Set(sharedTitles.map(comparable).filter((shared) => shared !== '' && shared !== site));
  for (let cut = parts - 1; cut >= 1; cut--) {
    const kept = run(0, cut);
    if (own.has(comparable(kept)) && run(cut, parts).length < kept.length) return kept;
  }
  for (let cut = 1; cut < parts; cut++) {
    const kept = run(cut, parts);
    if (own.has(comparable(kept)) && run(0, cut).length < kept.length) return kept;
  }
  if (site !== '') {
    // What is left must say something: a title that is only the site's name after a mark stays.
    const before = run(0, parts - 1);
    if (comparable(run(parts - 1, parts)) === site && comparable(before) !== '') return before;
    const after = run(1, parts);
    if (comparable(run(0, 1)) === site && comparable(after) !== '') return after;
  }
  return title;
}
