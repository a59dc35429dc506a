/**
 * The marks a page's title puts between its headline and the name of its site or section: an ASCII
 * mark between spaces (`Headline | Site`, `Headline - Site`, `Headline : Section : Site`), or a
 * full-width one, which CJK pages write with or without spaces (`見出し：新聞デジタル`), or the Hangul
 * letter ㅣ that Korean pages draw as a bar (`제목ㅣ신문`). A colon or dash inside a word or after one
 * ("Genetik: das Geheimnis", "Post-Vac") is no such mark.
 */
const TITLE_MARK = /(\s+(?:[|\-–—·•»~/]|::?)\s+|\s*[｜：－／ㅣ]\s*)/u;

/** A domain's ending after a site's name written as its address ("Globalnews.ca", "Example.co.uk"). */
const DOMAIN_ENDING = /\.(?:[a-z]{2,3}\.)?[a-z]{2,6}$/i;

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
 * out is shorter than what it keeps; else the title without a first or last part that is one of the
 * names the page states for its site (`siteNames`: its `og:site_name`, its publisher's name…), with
 * or without a domain's ending (`Globalnews.ca` for "Global News"). A sharing title that is only the
 * site's name is not weighed. The title as it is when neither holds.
 */
export function titleWithoutSite(
  title: string,
  siteNames: readonly string[],
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
  const sites = new Set(siteNames.map(comparable).filter((site) => site !== ''));
  const isSite = (text: string) =>
    sites.has(comparable(text)) || sites.has(comparable(text.replace(DOMAIN_ENDING, '')));
  const own = new Set(sharedTitles.map(comparable).filter((shared) => shared !== '' && !sites.has(shared)));
  for (let cut = parts - 1; cut >= 1; cut--) {
    const kept = run(0, cut);
    if (own.has(comparable(kept)) && run(cut, parts).length < kept.length) return kept;
  }
  for (let cut = 1; cut < parts; cut++) {
    const kept = run(cut, parts);
    if (own.has(comparable(kept)) && run(0, cut).length < kept.length) return kept;
  }
  // What is left must say something: a title that is only the site's name after a mark stays.
  const before = run(0, parts - 1);
  if (isSite(run(parts - 1, parts)) && comparable(before) !== '') return before;
  const after = run(1, parts);
  if (isSite(run(0, 1)) && comparable(after) !== '') return after;
  return title;
}
