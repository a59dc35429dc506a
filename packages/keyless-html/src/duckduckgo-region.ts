import { canonicalLanguageTag } from './search-request.js';

/**
 * Every value DuckDuckGo's HTML form offers for its `kl` (region and language) field, taken from the
 * `<select name="kl">` of a real result page. DuckDuckGo has no language-only setting.
 */
// biome-ignore format: a dense table reads better than one value a line
export const DUCKDUCKGO_REGIONS: ReadonlySet<string> = new Set([
  'ar-es', 'au-en', 'at-de', 'be-fr', 'be-nl', 'br-pt', 'bg-bg', 'ca-en', 'ca-fr', 'ct-ca', 'cl-es', 'cn-zh',
  'co-es', 'hr-hr', 'cz-cs', 'dk-da', 'ee-et', 'fi-fi', 'fr-fr', 'de-de', 'gr-el', 'hk-tzh', 'hu-hu',
  'is-is', 'in-en', 'id-en', 'ie-en', 'il-en', 'it-it', 'jp-jp', 'kr-kr', 'lv-lv', 'lt-lt', 'my-en', 'mx-es',
  'nl-nl', 'nz-en', 'no-no', 'pk-en', 'pe-es', 'ph-en', 'pl-pl', 'pt-pt', 'ro-ro', 'ru-ru', 'xa-ar', 'sg-en',
  'sk-sk', 'sl-sl', 'za-en', 'es-ca', 'es-es', 'se-sv', 'ch-de', 'ch-fr', 'tw-tzh', 'th-en', 'tr-tr',
  'us-en', 'us-es', 'ua-uk', 'uk-en', 'vn-en',
]);

// DuckDuckGo's country codes that differ from ISO 3166-1.
const countryCodes: Readonly<Record<string, string>> = { gb: 'uk', sa: 'xa', si: 'sl' };

// The region to use when a tag names no country, or one DuckDuckGo does not pair with the language,
// for languages whose DuckDuckGo region code is not simply `<code>-<code>`.
const defaultRegions: Readonly<Record<string, string>> = {
  ar: 'xa-ar',
  ca: 'es-ca',
  cs: 'cz-cs',
  da: 'dk-da',
  el: 'gr-el',
  en: 'us-en',
  et: 'ee-et',
  sv: 'se-sv',
  tzh: 'tw-tzh',
  uk: 'ua-uk',
  zh: 'cn-zh',
};

function duckDuckGoLanguage(language: string, script: string | undefined, country: string | undefined) {
  if (language === 'ja') return 'jp';
  if (language === 'ko') return 'kr';
  if (language === 'nb' || language === 'nn') return 'no';
  if (language === 'zh' && (script === 'hant' || country === 'tw' || country === 'hk')) return 'tzh';
  return language;
}

/**
 * The DuckDuckGo `kl` value closest to a BCP 47 language tag (`en-GB` → `uk-en`, `de` → `de-de`,
 * `ja` → `jp-jp`), or `undefined` when DuckDuckGo offers nothing for that language.
 */
export function duckDuckGoRegion(language: string): string | undefined {
  const tag = canonicalLanguageTag(language);
  if (tag === undefined) return undefined;
  const parts = tag.toLowerCase().split('-');
  const primary = parts[0]!;
  const script = parts.slice(1).find((part) => part.length === 4);
  const country = parts.slice(1).find((part) => part.length === 2);
  const code = duckDuckGoLanguage(primary, script, country);
  if (country !== undefined) {
    const region = `${countryCodes[country] ?? country}-${code}`;
    if (DUCKDUCKGO_REGIONS.has(region)) return region;
  }
  const fallback = defaultRegions[code] ?? `${code}-${code}`;
  return DUCKDUCKGO_REGIONS.has(fallback) ? fallback : undefined;
}
