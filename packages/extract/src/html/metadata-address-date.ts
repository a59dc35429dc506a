import { toIsoDate } from './metadata-dates.js';

/** The earliest year an address's date is read as a publication date: older numbers are ids. */
const EARLIEST_YEAR = 1990;

/**
 * A date written as whole segments of an address's path: `/2023/11/17/`, `/2023-11/17/`,
 * `/2023-11-17/` (or the start of a segment, `/2023-11-17-title`), and eight digits `/20231117/`.
 * The year, month and day must each end where a segment or a word of a slug ends.
 */
const ADDRESS_DATES: readonly RegExp[] = [
  /\/((?:19|20)\d\d)[/-](0?[1-9]|1[0-2])\/(0?[1-9]|[12]\d|3[01])(?=[/._-]|$)/,
  /\/((?:19|20)\d\d)-(0[1-9]|1[0-2])-(0[1-9]|[12]\d|3[01])(?=[/._-]|$)/,
  /\/((?:19|20)\d\d)(0[1-9]|1[0-2])(0[1-9]|[12]\d|3[01])(?=[/._-]|$)/,
];

/**
 * The publication date a page's address states in its path (news and blog sites file a story under
 * the day it was published), as an ISO 8601 date; undefined when the path holds no whole date, or one
 * before {@link EARLIEST_YEAR} or after tomorrow (an id or a price, not a day). The query and the
 * fragment are not read: a `?date=` is a filter, not the page's own day. `now` is for tests.
 */
export function addressDate(url: string, now: number = Date.now()): string | undefined {
  let path: string;
  try {
    path = new URL(url).pathname;
  } catch {
    return undefined;
  }
  for (const pattern of ADDRESS_DATES) {
    const match = pattern.exec(path);
    if (match === null) continue;
    const [year, month, day] = [Number(match[1]), Number(match[2]), Number(match[3])];
    if (year < EARLIEST_YEAR) continue;
    const date = toIsoDate(`${year}-${String(month).padStart(2, '0')}-${String(day).padStart(2, '0')}`);
    if (date === undefined || Date.parse(date) > now + 86_400_000) continue;
    return date;
  }
  return undefined;
}
