/**
 * Turns the many ways pages write a publication date into ISO 8601: a date (`2024-03-05`) when the
 * page gives no time, a date-time with the page's own offset (`2024-03-05T09:30:00-05:00`) when it
 * gives one, and a date-time without an offset when it gives a time but no zone. The day is never
 * moved to another zone: "published on the 5th" stays the 5th whatever the reader's zone.
 */

const MONTHS: Readonly<Record<string, number>> = {
  jan: 1,
  january: 1,
  janvier: 1,
  januar: 1,
  enero: 1,
  feb: 2,
  february: 2,
  février: 2,
  fevrier: 2,
  februar: 2,
  febrero: 2,
  mar: 3,
  march: 3,
  mars: 3,
  märz: 3,
  marz: 3,
  marzo: 3,
  apr: 4,
  april: 4,
  avril: 4,
  abril: 4,
  may: 5,
  mai: 5,
  mayo: 5,
  jun: 6,
  june: 6,
  juin: 6,
  juni: 6,
  junio: 6,
  jul: 7,
  july: 7,
  juillet: 7,
  juli: 7,
  julio: 7,
  aug: 8,
  august: 8,
  août: 8,
  aout: 8,
  agosto: 8,
  sep: 9,
  sept: 9,
  september: 9,
  septembre: 9,
  septiembre: 9,
  oct: 10,
  october: 10,
  octobre: 10,
  oktober: 10,
  octubre: 10,
  nov: 11,
  november: 11,
  novembre: 11,
  noviembre: 11,
  dec: 12,
  december: 12,
  décembre: 12,
  decembre: 12,
  dezember: 12,
  diciembre: 12,
};

/** The month names and abbreviations the date reader knows (English, French, German, Spanish). */
export const MONTH_NAMES: readonly string[] = Object.keys(MONTHS);

/** The words that mark a date as a change or a check, not the first publication ("Updated"). */
export const CHANGE_WORDS = 'updated|modified|edited|reviewed|revised';

/** Zone names that RFC 2822 dates and some bylines write instead of an offset, in minutes east of UTC. */
const ZONES: Readonly<Record<string, number>> = {
  z: 0,
  ut: 0,
  utc: 0,
  gmt: 0,
  est: -300,
  edt: -240,
  cst: -360,
  cdt: -300,
  mst: -420,
  mdt: -360,
  pst: -480,
  pdt: -420,
  bst: 60,
  cet: 60,
  cest: 120,
};

/** The earliest and latest years taken as a publication date; anything else is a misread number. */
const MIN_YEAR = 1800;
const MAX_YEAR = 2200;

/** Seconds since 1970 with 9 or 10 digits, or milliseconds with 12 or 13. */
const EPOCH = /^(\d{9,10}|\d{12,13})$/;

const ISO =
  /^(\d{4})-?(\d{2})-?(\d{2})(?:[T\s]+(\d{1,2}):?(\d{2})(?::?(\d{2})(?:[.,]\d+)?)?\s*(Z|[+-]\d{2}(?::?\d{2})?)?)?$/i;
const NUMERIC_YMD = /^(\d{4})[/.](\d{1,2})[/.](\d{1,2})\b/;
const NUMERIC_DMY = /^(\d{1,2})([/.-])(\d{1,2})\2(\d{4})\b/;
/** "2019年4月28日", "2019년 4월 28일", with a weekday ("（日）") and a time ("08時00分", "14:27") after it. */
const CJK_YMD = /^(\d{4})\s*[年년]\s*(\d{1,2})\s*[月월]\s*(\d{1,2})\s*[日일]/;
const TIME =
  /\b(\d{1,2}):(\d{2})(?::(\d{2}))?\s*(a\.?m\.?|p\.?m\.?)?(?:\s*(z|[a-z]{2,4}\b|[+-]\d{2}:?\d{2})|\s*\(?(?:gmt|utc)\s*([+-]\d{1,2}(?::?\d{2})?)\)?)?/i;

interface Parts {
  year: number;
  month: number;
  day: number;
  time?: { hour: number; minute: number; second: number; offset?: number } | undefined;
}

/** The ISO 8601 form of a date a page wrote, or undefined when it is no date this can read. */
export function toIsoDate(raw: string): string | undefined {
  const text = raw.replace(/\s+/g, ' ').trim();
  if (text === '' || text.length > 100) return undefined;
  const parts = parseDate(text);
  if (parts === undefined || !valid(parts)) return undefined;
  return format(parts);
}

function parseDate(text: string): Parts | undefined {
  if (EPOCH.test(text)) {
    const ms = text.length >= 12 ? Number(text) : Number(text) * 1000;
    const date = new Date(ms);
    return {
      year: date.getUTCFullYear(),
      month: date.getUTCMonth() + 1,
      day: date.getUTCDate(),
      time: {
        hour: date.getUTCHours(),
        minute: date.getUTCMinutes(),
        second: date.getUTCSeconds(),
        offset: 0,
      },
    };
  }
  const iso = ISO.exec(text);
  if (iso !== null) {
    const [, year, month, day, hour, minute, second, zone] = iso;
    return {
      year: Number(year),
      month: Number(month),
      day: Number(day),
      time:
        hour === undefined
          ? undefined
          : {
              hour: Number(hour),
              minute: Number(minute),
              second: Number(second ?? 0),
              offset: offsetOf(zone),
            },
    };
  }
  const ymd = NUMERIC_YMD.exec(text);
  if (ymd !== null) {
    return withTime(text.slice(ymd[0].length), Number(ymd[1]), Number(ymd[2]), Number(ymd[3]));
  }
  const cjk = CJK_YMD.exec(text);
  if (cjk !== null) {
    const rest = text.slice(cjk[0].length).replace(/(\d{1,2})\s*[時시]\s*(\d{1,2})\s*[分분]/, '$1:$2');
    return withTime(rest, Number(cjk[1]), Number(cjk[2]), Number(cjk[3]));
  }
  const dmy = NUMERIC_DMY.exec(text);
  if (dmy !== null) {
    const first = Number(dmy[1]);
    const second = Number(dmy[3]);
    // Dotted dates are day first everywhere they are written; slashed ones are month first in the
    // United States unless the first number cannot be a month.
    const dayFirst = dmy[2] === '.' || dmy[2] === '-' || first > 12;
    return withTime(
      text.slice(dmy[0].length),
      Number(dmy[4]),
      dayFirst ? second : first,
      dayFirst ? first : second,
    );
  }
  return parseWordDate(text);
}

/** "March 5, 2024", "5 March 2024", "Tue, 05 Mar 2024 10:00:00 GMT", "5. März 2024", "Mar. 5th 2024". */
function parseWordDate(text: string): Parts | undefined {
  const cleaned = text.toLowerCase().replace(/(\d)(?:st|nd|rd|th)\b/g, '$1');
  const tokens = cleaned.match(/[\p{L}]+|\d+/gu) ?? [];
  let month: number | undefined;
  let monthIndex = -1;
  for (const [index, token] of tokens.entries()) {
    const found = MONTHS[token];
    if (found !== undefined) {
      month = found;
      monthIndex = index;
      break;
    }
  }
  if (month === undefined) return undefined;
  // The year is the first four-digit number; the day is the one- or two-digit number next to the
  // month (before it in "5 March 2024", after it in "March 5, 2024").
  const year = tokens.find((token) => /^\d{4}$/.test(token));
  if (year === undefined) return undefined;
  const isDay = (token: string | undefined) => token !== undefined && /^\d{1,2}$/.test(token);
  const after = tokens[monthIndex + 1];
  const before = tokens[monthIndex - 1];
  const day = isDay(after) ? after : isDay(before) ? before : undefined;
  if (day === undefined) return undefined;
  const yearPosition = cleaned.indexOf(year);
  const afterYear = cleaned.slice(yearPosition + year.length);
  // The time after the year ("March 5, 2024 3:04 pm"), else between the day and the year, as C's
  // and Java's dates write it ("Sun Nov 23 16:00:00 EDT 2014").
  const dayPosition = cleaned.indexOf(day, cleaned.indexOf(tokens[monthIndex] as string));
  const between =
    dayPosition < 0 || dayPosition > yearPosition
      ? ''
      : cleaned.slice(dayPosition + day.length, yearPosition);
  return withTime(
    TIME.test(afterYear) || !TIME.test(between) ? afterYear : between,
    Number(year),
    month,
    Number(day),
  );
}

function withTime(rest: string, year: number, month: number, day: number): Parts {
  const time = TIME.exec(rest);
  if (time === null) return { year, month, day };
  let hour = Number(time[1]);
  const meridiem = time[4]?.replace(/\./g, '');
  if (meridiem === 'pm' && hour < 12) hour += 12;
  if (meridiem === 'am' && hour === 12) hour = 0;
  const zone = time[5] ?? (time[6] === undefined ? undefined : time[6]);
  return {
    year,
    month,
    day,
    time: { hour, minute: Number(time[2]), second: Number(time[3] ?? 0), offset: offsetOf(zone) },
  };
}

/** Minutes east of UTC for `Z`, `+05:30`, `-0800`, `+5` or a zone name; undefined when unknown. */
function offsetOf(zone: string | undefined): number | undefined {
  if (zone === undefined) return undefined;
  const named = ZONES[zone.toLowerCase()];
  if (named !== undefined) return named;
  const match = /^([+-])(\d{1,2}):?(\d{2})?$/.exec(zone);
  if (match === null) return undefined;
  const minutes = Number(match[2]) * 60 + Number(match[3] ?? 0);
  return match[1] === '-' ? -minutes : minutes;
}

function valid({ year, month, day, time }: Parts): boolean {
  if (year < MIN_YEAR || year > MAX_YEAR || month < 1 || month > 12 || day < 1) return false;
  if (day > new Date(Date.UTC(year, month, 0)).getUTCDate()) return false;
  if (time === undefined) return true;
  return time.hour < 24 && time.minute < 60 && time.second < 61 && Math.abs(time.offset ?? 0) <= 14 * 60;
}

const pad = (value: number, width = 2) => String(value).padStart(width, '0');

function format({ year, month, day, time }: Parts): string {
  const date = `${pad(year, 4)}-${pad(month)}-${pad(day)}`;
  if (time === undefined) return date;
  const clock = `${pad(time.hour)}:${pad(time.minute)}:${pad(time.second)}`;
  if (time.offset === undefined) return `${date}T${clock}`;
  if (time.offset === 0) return `${date}T${clock}Z`;
  const sign = time.offset < 0 ? '-' : '+';
  const minutes = Math.abs(time.offset);
  return `${date}T${clock}${sign}${pad(Math.floor(minutes / 60))}:${pad(minutes % 60)}`;
}
