import { createRequire } from 'node:module';

/** Reduces a lower-case word to the stem its inflected forms share (`cities` and `city` to `citi`). */
export type Stemmer = (word: string) => string;

/**
 * The Snowball stemmers of `@orama/stemmers` by language subtag. Each is a small module of its own,
 * loaded the first time a query in its language is gated, never before.
 */
const STEMMER_MODULES: Readonly<Record<string, string>> = {
  ar: 'arabic',
  bg: 'bulgarian',
  da: 'danish',
  de: 'german',
  el: 'greek',
  en: 'english',
  es: 'spanish',
  fi: 'finnish',
  fr: 'french',
  ga: 'irish',
  hu: 'hungarian',
  hy: 'armenian',
  id: 'indonesian',
  it: 'italian',
  lt: 'lithuanian',
  nb: 'norwegian',
  ne: 'nepali',
  nl: 'dutch',
  nn: 'norwegian',
  no: 'norwegian',
  pt: 'portuguese',
  ro: 'romanian',
  ru: 'russian',
  sr: 'serbian',
  sv: 'swedish',
  ta: 'tamil',
  tr: 'turkish',
  uk: 'ukrainian',
};

/** The languages the relevance gate can stem, as ISO 639-1 subtags. */
export const STEMMED_LANGUAGES: readonly string[] = Object.freeze(Object.keys(STEMMER_MODULES).sort());

// A synchronous, lazy load: the gate runs synchronously, and the CommonJS build of each stemmer has no
// top-level await. Loaded modules stay in Node's module cache; this map only saves the lookup.
const loaded = new Map<string, Stemmer | null>();
let requireStemmer: NodeJS.Require | undefined;

function loadStemmerModule(name: string): unknown {
  // Made at the first use, not at load: a CommonJS bundle without an `import.meta` shim still loads.
  requireStemmer ??= createRequire(import.meta.url);
  return requireStemmer(`@orama/stemmers/${name}`);
}

function stemmerFor(language: string): Stemmer | undefined {
  const name = STEMMER_MODULES[language];
  if (name === undefined) return undefined;
  let stemmer = loaded.get(name);
  if (stemmer === undefined) {
    try {
      const module = loadStemmerModule(name) as { stemmer?: unknown };
      stemmer = typeof module.stemmer === 'function' ? (module.stemmer as Stemmer) : null;
    } catch {
      // A stemmer that cannot load leaves the gate to its exact and prefix rules.
      stemmer = null;
    }
    loaded.set(name, stemmer);
  }
  return stemmer ?? undefined;
}

// The script of the query picks the stemmer when no language is given. Latin script is shared by many
// languages; English is the default there, and letters only one of the common languages uses add it.
const SCRIPT_LANGUAGES: readonly (readonly [RegExp, readonly string[]])[] = [
  [/[іїєґ]/iu, ['uk', 'ru']],
  [/\p{Script=Cyrillic}/u, ['ru']],
  [/\p{Script=Greek}/u, ['el']],
  [/\p{Script=Arabic}/u, ['ar']],
  [/\p{Script=Armenian}/u, ['hy']],
  [/\p{Script=Tamil}/u, ['ta']],
];
const LATIN_LETTER_LANGUAGES: readonly (readonly [RegExp, string])[] = [
  [/[äöüß]/iu, 'de'],
  [/[ñ¿¡]/iu, 'es'],
  [/[çœèêëîïûù]/iu, 'fr'],
  [/[ãõ]/iu, 'pt'],
  [/[ğış]/iu, 'tr'],
  [/[åø]/iu, 'sv'],
];

/**
 * The stemmers for a query: those of its `language` tag when one is given and stemmable, otherwise
 * those its script points to (English for Latin script, plus a language whose own letters it uses).
 * Scripts written without word spaces get none: their terms already match as substrings.
 */
export function stemmersForQuery(query: string, language?: string): Stemmer[] {
  const languages: string[] = [];
  const subtag = language?.split(/[-_]/)[0]?.toLowerCase();
  if (subtag !== undefined && STEMMER_MODULES[subtag] !== undefined) {
    languages.push(subtag);
  } else {
    const script = SCRIPT_LANGUAGES.find(([pattern]) => pattern.test(query));
    if (script !== undefined) languages.push(...script[1]);
    if (/\p{Script=Latin}/u.test(query)) {
      languages.push('en');
      for (const [pattern, latin] of LATIN_LETTER_LANGUAGES) if (pattern.test(query)) languages.push(latin);
    }
  }
  const stemmers: Stemmer[] = [];
  for (const code of new Set(languages)) {
    const stemmer = stemmerFor(code);
    if (stemmer !== undefined) stemmers.push(stemmer);
  }
  return stemmers;
}
