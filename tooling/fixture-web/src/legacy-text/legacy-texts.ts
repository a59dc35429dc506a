// Short news-style articles in legacy charsets (and UTF-16 without a byte order mark), served without any charset declaration, as
// many old sites still do. The text is kept here as Unicode; `write-legacy-text-fixtures.ts` encoded it
// once with iconv into `src/__fixtures__/legacy-text/`, so the bytes come from a real encoder.

/** The legacy charsets of the undeclared pages, by their WHATWG names. */
export const LEGACY_CHARSETS = [
  'windows-1252',
  'iso-8859-2',
  'windows-1251',
  'koi8-r',
  'shift_jis',
  'gbk',
  'euc-kr',
  'windows-1250',
  'windows-1253',
  'iso-8859-5',
  'iso-8859-7',
  'koi8-u',
  'euc-jp',
  'big5',
  'utf-16le',
  'utf-16be',
] as const;

/** One of {@link LEGACY_CHARSETS}. */
export type LegacyCharset = (typeof LEGACY_CHARSETS)[number];

/** An article: a headline and paragraphs, every character representable in its charset. */
export interface LegacyText {
  /** The `lang` attribute of the page. */
  readonly language: string;
  /** The headline. */
  readonly title: string;
  /** The paragraphs. */
  readonly paragraphs: readonly string[];
}

/** The article of each charset. */
export const LEGACY_TEXTS: Readonly<Record<LegacyCharset, LegacyText>> = {
  'windows-1252': {
    language: 'fr',
    title: 'Le café de la gare rouvre après trois mois de travaux',
    paragraphs: [
      'Déjà, les habitués se pressent au comptoir. « C’est naïve de croire que rien n’a changé », dit Françoise, serveuse depuis vingt ans.',
      'Les prix ont augmenté de 10 % — un café coûte désormais 2,20 € — et l’été s’annonce chargé pour l’équipe, qui a embauché deux étudiants.',
      'Le maire a promis que la façade rénovée serait éclairée chaque soir jusqu’à minuit, à la grande joie des riverains.',
    ],
  },
  'iso-8859-2': {
    language: 'cs',
    title: 'Vláda schválila nový zákon o veřejných zakázkách',
    paragraphs: [
      'Příliš žluťoučký kůň úpěl ďábelské ódy, říká se v učebnicích, ale poslanci se včera věnovali vážnějším věcem.',
      'Nový zákon má omezit korupci při stavbě silnic a mostů. Podle ministra bude účinný od příštího roku a kontrolu převezme nezávislý úřad.',
      'Opozice návrh kritizuje, protože prý neřeší zakázky obcí. Hlasování v senátu proběhne v září.',
    ],
  },
  'windows-1251': {
    language: 'ru',
    title: 'В городском парке прошёл весенний фестиваль',
    paragraphs: [
      'В пятницу тысячи жителей пришли в парк послушать музыку и попробовать блюда местных поваров.',
      'Организаторы обещают, что в следующем году праздник станет ещё больше, а вход останется бесплатным для всех.',
      'Вечером на главной сцене выступил городской оркестр, а завершился фестиваль большим фейерверком над рекой.',
    ],
  },
  'koi8-r': {
    language: 'ru',
    title: 'Учёные представили новый способ очистки воды',
    paragraphs: [
      'Исследователи из Новосибирска создали установку, которая очищает воду от тяжёлых металлов без электричества.',
      'По словам авторов, она подходит для небольших посёлков, где нет централизованного водопровода.',
      'Испытания продлятся до конца лета, после чего установку предложат местным властям.',
    ],
  },
  shift_jis: {
    language: 'ja',
    title: '駅前に新しい図書館、来年春に開館へ',
    paragraphs: [
      '昨日、市役所で新しい図書館の計画が発表されました。建物は駅の近くに建てられ、来年の春に開館する予定です。',
      '市長は「子どもから高齢者まで、だれもが気軽に立ち寄れる場所にしたい」と話しています。',
      '館内にはカフェや学習室も設けられ、夜九時まで利用できるということです。',
    ],
  },
  gbk: {
    language: 'zh',
    title: '公园樱花盛开 游客络绎不绝',
    paragraphs: [
      '今年春天，这座城市的公园里开满了樱花，吸引了大量游客前来观赏。',
      '当地政府表示，为了保护环境，游客应当遵守规定，不要随意采摘花朵，也不要在草地上乱扔垃圾。',
      '公园管理处还增加了临时停车位和公共厕所，并在周末延长开放时间。',
    ],
  },
  'euc-kr': {
    language: 'ko',
    title: '서울시, 다음 달부터 시내버스 노선 개편',
    paragraphs: [
      '서울시는 다음 달부터 시내버스 노선을 새롭게 바꾼다고 발표했습니다.',
      '시민들의 출퇴근 시간을 줄이기 위해 일부 노선을 통합하고, 심야 버스 운행도 늘릴 계획입니다.',
      '자세한 내용은 시청 누리집에서 확인할 수 있습니다.',
    ],
  },
  'windows-1250': {
    language: 'pl',
    title: 'Nowa kładka na Wiśle otwarta dla pieszych',
    paragraphs: [
      'W sobotę mieszkańcy po raz pierwszy przeszli kładką łączącą oba brzegi rzeki. Budowa trwała dwa lata i kosztowała więcej, niż zakładano.',
      'Prezydent miasta podkreślił, że żółte ławki i zieleń na moście mają zachęcić ludzi do spacerów. Wieczorem konstrukcję oświetla sześćset lamp.',
      'Rowerzyści muszą zsiąść z jednośladów, bo ścieżka rowerowa powstanie dopiero w przyszłym roku.',
    ],
  },
  'windows-1253': {
    language: 'el',
    title: 'Νέο μουσείο ανοίγει στη Θεσσαλονίκη',
    paragraphs: [
      'Το μουσείο θα φιλοξενεί ευρήματα από τις ανασκαφές του μετρό, που διήρκεσαν σχεδόν δέκα χρόνια.',
      'Οι επισκέπτες θα μπορούν να δουν νομίσματα, αγγεία και κοσμήματα από τη βυζαντινή εποχή.',
      'Η είσοδος θα είναι δωρεάν για τους μαθητές και τους φοιτητές κάθε Κυριακή.',
    ],
  },
  'iso-8859-5': {
    language: 'bg',
    title: 'Нова линия на метрото в София',
    paragraphs: [
      'Столичната община откри третата линия на метрото, която свързва западните квартали с центъра на града.',
      'Влаковете ще се движат на всеки пет минути в часовете на върховото натоварване, а вечер на всеки десет.',
      'Кметът благодари на строителите и на търпеливите граждани, които години наред заобикаляха строителните площадки.',
    ],
  },
  'iso-8859-7': {
    language: 'el',
    title: 'Ο χειμώνας έφερε χιόνια στα ορεινά χωριά',
    paragraphs: [
      'Πολλοί δρόμοι έκλεισαν το πρωί, ενώ τα σχολεία παρέμειναν κλειστά για δεύτερη μέρα.',
      'Η πυροσβεστική απεγκλώβισε οδηγούς που είχαν ακινητοποιηθεί στην εθνική οδό.',
      'Οι μετεωρολόγοι προβλέπουν άνοδο της θερμοκρασίας από την Πέμπτη και ηλιοφάνεια το Σαββατοκύριακο.',
    ],
  },
  'koi8-u': {
    language: 'uk',
    title: 'У Львові відкрили нову бібліотеку',
    paragraphs: [
      'Бібліотека розташована в історичній будівлі поблизу ратуші, яку реставрували три роки. Її ґанок прикрашають старі ліхтарі.',
      'Читачі знайдуть тут понад сорок тисяч книжок українською, польською та англійською мовами.',
      'Вхід вільний, а для дітей щосуботи проводять заняття з читання та малювання. Їх охоче відвідують і дорослі, які хочуть поєднати відпочинок із навчанням.',
    ],
  },
  'euc-jp': {
    language: 'ja',
    title: '地元の高校生がロボット大会で優勝',
    paragraphs: [
      '県内の高校に通う三人の生徒が、全国ロボット競技大会で初めて優勝しました。',
      '生徒たちは放課後に毎日集まり、半年かけて部品の設計から組み立てまで行ったということです。',
      '来月には海外で開かれる国際大会に出場する予定で、学校では応援の準備が進んでいます。',
    ],
  },
  big5: {
    language: 'zh-Hant',
    title: '台北捷運新路線今日通車',
    paragraphs: [
      '新路線全長十五公里，共設十二個車站，預計每天可載運十萬人次。',
      '市政府表示，通車首週將提供免費搭乘，歡迎市民體驗。',
      '交通局也提醒乘客，尖峰時段請多利用其他路線，以免車廂過於擁擠。',
    ],
  },
  'utf-16le': {
    language: 'de',
    title: 'Die Stadtbücherei verlängert ihre Öffnungszeiten',
    paragraphs: [
      'Ab nächstem Montag öffnet die Bücherei schon um acht Uhr und schließt erst um zwanzig Uhr.',
      'Die Leiterin sagt, viele Schüler und Berufstätige hätten sich längere Öffnungszeiten gewünscht.',
      'Außerdem gibt es künftig samstags eine Vorlesestunde für Kinder im großen Saal.',
    ],
  },
  'utf-16be': {
    language: 'es',
    title: 'La biblioteca del barrio amplía su horario',
    paragraphs: [
      'A partir del lunes, la biblioteca abrirá a las ocho de la mañana y cerrará a las nueve de la noche.',
      'La directora explicó que muchos estudiantes pedían más horas para preparar los exámenes de junio.',
      'Además, los sábados habrá una sesión de lectura para niños en la sala pequeña, junto al jardín.',
    ],
  },
};

/** The two forms each article is served in. */
export const LEGACY_FORMS = ['html', 'text'] as const;

/** One of {@link LEGACY_FORMS}. */
export type LegacyForm = (typeof LEGACY_FORMS)[number];

function escapeText(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}

/** The article as an HTML page with no charset declaration, or as plain text. */
export function renderLegacyText(charset: LegacyCharset, form: LegacyForm): string {
  const { language, title, paragraphs } = LEGACY_TEXTS[charset];
  if (form === 'text') return `${title}\n\n${paragraphs.join('\n\n')}\n`;
  return `<!DOCTYPE html>
<html lang="${language}">
  <head>
    <title>${escapeText(title)}</title>
  </head>
  <body>
    <article>
      <h1>${escapeText(title)}</h1>
${paragraphs.map((paragraph) => `      <p>${escapeText(paragraph)}</p>`).join('\n')}
    </article>
  </body>
</html>
`;
}
