// The text of the charset fixtures, kept as Unicode strings. UTF-8 pages are encoded from these at run
// time; the other charsets were encoded once with iconv by `write-charset-fixtures.ts` and are read from
// `src/__fixtures__/charsets/`, so the bytes on the wire come from a real encoder, not from this code.
// Tests decode the served bytes and compare them with these strings.

/** The charsets the fixture serves pages in. */
export const FIXTURE_CHARSETS = ['utf-8', 'shift_jis', 'windows-1251', 'iso-8859-1'] as const;

/** One of `FIXTURE_CHARSETS`. */
export type FixtureCharset = (typeof FIXTURE_CHARSETS)[number];

/** The documents each charset exists as; the variants reuse them with different headers. */
export const CHARSET_DOCUMENTS = ['plain.html', 'meta.html', 'http-equiv.html', 'feed.xml'] as const;

/** One of `CHARSET_DOCUMENTS`. */
export type CharsetDocument = (typeof CHARSET_DOCUMENTS)[number];

/** The article a charset's documents carry. */
export interface CharsetSample {
  /** The name written into declarations, spelled the way real sites spell it. */
  readonly label: string;
  /** The `lang` attribute of the page. */
  readonly language: string;
  /** The article headline. */
  readonly title: string;
  /** The byline, with a date written the local way. */
  readonly byline: string;
  /** The article text, one string per paragraph. */
  readonly paragraphs: readonly string[];
}

/** The sample text per charset; every character is representable in that charset. */
export const CHARSET_SAMPLES: Readonly<Record<FixtureCharset, CharsetSample>> = {
  'utf-8': {
    label: 'UTF-8',
    language: 'en',
    title: 'Crème brûlée, Ελληνικά and 日本語 on one page',
    byline: 'By Zoë Øvergård · 3 March 2024',
    paragraphs: [
      'A page in UTF-8 can mix scripts freely: Ελληνικά, русский, 日本語, עברית and العربية sit side by side.',
      'Symbols outside every legacy code page, such as ≠, €, “quotes” and the emoji 🌍, survive only in Unicode.',
    ],
  },
  shift_jis: {
    label: 'Shift_JIS',
    language: 'ja',
    title: '東京で桜の開花を発表、平年より5日早く',
    byline: '気象担当記者　山田花子　2024年3月18日',
    paragraphs: [
      '気象庁は18日、東京都心で桜が開花したと発表した。平年より5日早く、昨年と比べると4日遅い開花となった。',
      '靖国神社の標本木で、午後2時ごろに気象庁の職員が5輪以上の花が咲いているのを確認した。満開は来週末になる見込みだ。',
      '週末は各地の公園で花見客のにぎわいが予想される。気温の変化が大きいため、体調管理に注意してほしいと呼びかけている。',
    ],
  },
  'windows-1251': {
    label: 'windows-1251',
    language: 'ru',
    title: 'В Москве открылась выставка «Город и река»',
    byline: 'Анна Соколова — 12 апреля 2024 г.',
    paragraphs: [
      'В пятницу в Музее Москвы открылась выставка, посвящённая истории городских набережных.',
      'Посетители увидят более 300 фотографий, карт и чертежей, многие из которых публикуются впервые.',
      'Выставка продлится до конца августа; вход для школьников бесплатный, билет № 1 получил ветеран метростроя.',
    ],
  },
  'iso-8859-1': {
    label: 'ISO-8859-1',
    language: 'fr',
    title: 'À Zürich, le café crème coûte désormais 5,50 francs',
    byline: 'Par Hélène Müller, le 7 février 2024',
    paragraphs: [
      "Les cafés de la vieille ville ont augmenté leurs prix cet hiver ; les habitués s'en plaignent déjà.",
      "Selon l'association des cafetiers, la hausse s'explique par le coût de l'énergie et des grains.",
      'Ein Gast sagte: «Für einen Kaffee zahle ich gern, aber nicht für Luft.» ¿Exagéré? Peut-être.',
    ],
  },
};

function escapeText(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}

/** The HTML page of `charset`, declaring it in the way `declaration` says (or not at all). */
export function renderCharsetHtml(
  charset: FixtureCharset,
  declaration: 'none' | 'meta' | 'http-equiv',
): string {
  const sample = CHARSET_SAMPLES[charset];
  const declarationTag =
    declaration === 'meta'
      ? `\n    <meta charset="${sample.label}">`
      : declaration === 'http-equiv'
        ? `\n    <meta http-equiv="Content-Type" content="text/html; charset=${sample.label}">`
        : '';
  const paragraphs = sample.paragraphs.map((paragraph) => `      <p>${escapeText(paragraph)}</p>`).join('\n');
  return `<!DOCTYPE html>
<html lang="${sample.language}">
  <head>${declarationTag}
    <title>${escapeText(sample.title)}</title>
    <meta name="viewport" content="width=device-width, initial-scale=1">
  </head>
  <body>
    <article>
      <h1>${escapeText(sample.title)}</h1>
      <p class="byline">${escapeText(sample.byline)}</p>
${paragraphs}
    </article>
  </body>
</html>
`;
}

/** The same article as an RSS 2.0 feed whose XML declaration names the charset. */
export function renderCharsetFeed(charset: FixtureCharset): string {
  const sample = CHARSET_SAMPLES[charset];
  const items = sample.paragraphs
    .map(
      (paragraph, index) => `    <item>
      <title>${escapeText(sample.title)} (${index + 1})</title>
      <link>http://127.0.0.1/pages/${charset}-meta#p${index + 1}</link>
      <description>${escapeText(paragraph)}</description>
    </item>`,
    )
    .join('\n');
  return `<?xml version="1.0" encoding="${sample.label}"?>
<rss version="2.0">
  <channel>
    <title>${escapeText(sample.title)}</title>
    <link>http://127.0.0.1/pages/${charset}-meta</link>
    <description>${escapeText(sample.byline)}</description>
    <language>${sample.language}</language>
${items}
  </channel>
</rss>
`;
}

/** The text of one of a charset's documents. */
export function renderCharsetDocument(charset: FixtureCharset, document: CharsetDocument): string {
  switch (document) {
    case 'plain.html':
      return renderCharsetHtml(charset, 'none');
    case 'meta.html':
      return renderCharsetHtml(charset, 'meta');
    case 'http-equiv.html':
      return renderCharsetHtml(charset, 'http-equiv');
    case 'feed.xml':
      return renderCharsetFeed(charset);
  }
}
