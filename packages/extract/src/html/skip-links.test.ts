import { parseHTML } from 'linkedom';
import { describe, expect, it } from 'vitest';
import { dropSkipLinks } from './skip-links.js';

const page = (body: string) =>
  parseHTML(`<!doctype html><html><head></head><body>${body}</body></html>`).document as unknown as Document;

describe('dropSkipLinks', () => {
  it('removes the links that skip a part of the page, wherever they sit', () => {
    const document = page(
      '<a class="skip-to-content-link visually-hidden" href="#MainContent">\n  Skip to content\n</a>' +
        '<header><a href="#js__support__dropdown">Skip navigation links</a><nav><a href="/">Home</a></nav></header>' +
        '<main id="MainContent"><h2>New arrivals</h2><a href="#after-carousel">Skip this section</a>' +
        '<ul><li><a href="/p/1">Jacket</a></li></ul><div id="after-carousel"><a href="#after-ad">SKIP ADVERTISEMENT</a></div>' +
        '<p>Text.</p></main>',
    );
    expect(dropSkipLinks(document)).toBe(4);
    expect(document.body.textContent).toBe('HomeNew arrivalsJacketText.');
  });

  it('removes the same links in the words themes write in other languages', () => {
    const phrases = [
      'Direkt zum Inhalt',
      'Zum Inhalt springen',
      'Zur Navigation springen',
      'Aller au contenu',
      'Pasar al contenido principal',
      'Salta al contenuto',
      'Pular para o conteúdo',
      'Naar de inhoud',
      'Przejdź do treści',
    ];
    const document = page(
      `${phrases.map((text, i) => `<a href="#part-${i}">${text}</a>`).join('')}<p>Text.</p>`,
    );
    expect(dropSkipLinks(document)).toBe(phrases.length);
    expect(document.body.innerHTML).toBe('<p>Text.</p>');
  });

  it('keeps a skip link inside a sentence, one to another page, and a long text that starts with "skip"', () => {
    const body =
      '<p>If time is short, <a href="#results">skip to the results</a>.</p>' +
      '<p><a href="#results">Skip ahead</a> if you know the method.</p>' +
      '<p><a href="/guide/">Skip to the guide</a></p>' +
      '<p><a href="#step-4">Skip the first three steps if your board came flashed already</a></p>' +
      '<p><a href="#top">Back to top</a></p>' +
      '<p><a href="#skipper">Skipper</a> and <a href="#inhalt">Inhalt</a></p>';
    const document = page(body);
    expect(dropSkipLinks(document)).toBe(0);
    expect(document.body.innerHTML).toBe(body);
  });
});
