import { describe, expect, it } from 'vitest';
import { extract } from '../extract.js';
import { titleWithoutSite } from './page-title.js';

describe('titleWithoutSite', () => {
  it('keeps the run of parts the page gives as its title for sharing, from the start or to the end', () => {
    const headline = 'Ahmad Khan Rahami Is Arrested in Manhattan and New Jersey Bombings';
    expect(titleWithoutSite(`${headline} - The New York Times`, [], [headline])).toBe(headline);
    // The title as the sharing card words it: punctuation, case, spaces and full-width forms aside.
    expect(
      titleWithoutSite(
        'O’Reilly Japan - Head First はじめてのプログラミング',
        [],
        ['Head First はじめての プログラミング'],
      ),
    ).toBe('Head First はじめてのプログラミング');
    expect(titleWithoutSite('Tides | Harbour | Ledger', [], ['Tides | Harbour'])).toBe('Tides | Harbour');
  });

  it('drops a first or last part that is the name the page gives its site, full-width marks included', () => {
    expect(
      titleWithoutSite('南海トラフ、一時調査　巨大地震、基準達せず：中日新聞Web', ['中日新聞Web'], []),
    ).toBe('南海トラフ、一時調査　巨大地震、基準達せず');
    expect(titleWithoutSite('Notbetrieb am Montag – Die Neue Zeitung', ['die neue zeitung'], [])).toBe(
      'Notbetrieb am Montag',
    );
    expect(
      titleWithoutSite('Kessel Courier | Ferry to run every ninety minutes', ['Kessel Courier'], []),
    ).toBe('Ferry to run every ninety minutes');
  });

  it("drops a part that is another of the site's names, its address form, or after a Korean bar", () => {
    // The publisher's name chosen as the site's name, the title ending with its sharing name.
    expect(
      titleWithoutSite(
        '港の浮桟橋、春に完成へ｜港町ゲンダイDIGITAL',
        ['港町現代', '港町ゲンダイDIGITAL'],
        [],
      ),
    ).toBe('港の浮桟橋、春に完成へ');
    expect(
      titleWithoutSite('Ferry to run every ninety minutes | Kesselcourier.ca', ['Kessel Courier'], []),
    ).toBe('Ferry to run every ninety minutes');
    expect(titleWithoutSite('여객선 운항 90분 간격으로ㅣ항구일보', ['항구일보'], [])).toBe(
      '여객선 운항 90분 간격으로',
    );
  });

  it("never takes a site's name for the title: a sharing title that is the site's name, or one shorter than what it would leave out", () => {
    const title = 'Why the old gate was moved - Jane’s Harbour Diary';
    expect(titleWithoutSite(title, ['Jane’s Harbour Diary'], ['Jane’s Harbour Diary'])).toBe(
      'Why the old gate was moved',
    );
    expect(
      titleWithoutSite('Jane’s Diary - Why the old gate on the north quay was moved', [], ['Jane’s Diary']),
    ).toBe('Jane’s Diary - Why the old gate on the north quay was moved');
  });

  it('leaves a title without such marks, or whose parts are neither, as it is', () => {
    expect(titleWithoutSite('Genetik: das Geheimnis der Riesenblumen', ['Genetik'], [])).toBe(
      'Genetik: das Geheimnis der Riesenblumen',
    );
    expect(titleWithoutSite('Post-Vac-Syndrom: Was wissen wir?', ['Post'], [])).toBe(
      'Post-Vac-Syndrom: Was wissen wir?',
    );
    expect(titleWithoutSite('Tides - Harbour - Ledger', ['Courier'], ['Weather'])).toBe(
      'Tides - Harbour - Ledger',
    );
    // Nothing but the site's name after a mark, or only punctuation before it.
    expect(titleWithoutSite('：港町新聞', ['港町新聞'], [])).toBe('：港町新聞');
    expect(titleWithoutSite('… | Ledger', ['Ledger'], [])).toBe('… | Ledger');
  });
});

describe('extract: the title without the site name its <title> adds', () => {
  /** A Japanese story under `headline`, its `<title>` and its head's other tags as given. */
  const story = (title: string, head: string, headline: string) =>
    extract({
      body: `<!doctype html><html lang="ja"><head><title>${title}</title>${head}</head><body><main><article><h1>${headline}</h1>
${'<p>港の北側に新しい浮桟橋を造る工事が始まり、市は来年の春までに完成させる予定だと発表した。</p>'.repeat(4)}</article></main></body></html>`,
      url: 'https://news.example/harbour',
      contentType: 'text/html',
    });

  it('gives the headline as the title and the site as the site name (failing before: the title kept ": Site")', async () => {
    const document = await story(
      '港の新しい浮桟橋、春に完成へ：港町新聞デジタル',
      '<meta property="og:site_name" content="港町新聞デジタル">',
      '港の新しい浮桟橋、春に完成へ',
    );
    expect(document.title).toBe('港の新しい浮桟橋、春に完成へ');
    expect(document.siteName).toBe('港町新聞デジタル');
  });

  it("drops the name its sharing tags give the site when its publisher's name is chosen", async () => {
    const document = await story(
      '港の浮桟橋、春に完成へ｜港町ゲンダイDIGITAL',
      '<meta property="og:site_name" content="港町ゲンダイDIGITAL"><script type="application/ld+json">{"@context":"https://schema.org","@type":"NewsArticle","publisher":{"@type":"Organization","name":"港町現代"}}</script>',
      '港の浮桟橋、春に完成へ',
    );
    expect(document.title).toBe('港の浮桟橋、春に完成へ');
    expect(document.siteName).toBe('港町現代');
  });
});
