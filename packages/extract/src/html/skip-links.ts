import { countWords } from './choose-article.js';

/**
 * The words of a link that lets a keyboard or screen-reader user jump over a part of the page:
 * "Skip to content", "Skip navigation links", "Skip this section", "SKIP ADVERTISEMENT", and the
 * phrases themes write in other languages for the jump to the content or the menu ("Direkt zum
 * Inhalt", "Zur Navigation springen", "Aller au contenu", "Pasar al contenido principal", "Salta al
 * contenuto", "Pular para o conteúdo", "Naar de inhoud", "Przejdź do treści").
 */
const SKIP_PHRASE = new RegExp(
  `^(?:${[
    'skip',
    '(?:direkt\\s+|springe?\\s+)?zu[mr]\\s+(?:haupt)?(?:inhalt|navigation|menü|suche)',
    '(?:inhalt|navigation)\\s+überspringen',
    '(?:aller|passer)\\s+(?:directement\\s+)?(?:au|à\\s+la)\\s+(?:contenu|navigation|menu)',
    '(?:saltar|pasar|ir)\\s+(?:directamente\\s+)?(?:al|a\\s+la)\\s+(?:contenido|navegación|menú)',
    '(?:salta|passa|vai)\\s+(?:al|alla)\\s+(?:contenuto|navigazione|menu)',
    '(?:pular|ir|saltar)\\s+para\\s+(?:o\\s+|a\\s+)?(?:conteúdo|navegação|menu)',
    '(?:ga\\s+|spring\\s+)?naar\\s+(?:de\\s+)?(?:hoofd)?(?:inhoud|navigatie|menu)',
    'przejdź\\s+do\\s+(?:treści|nawigacji|zawartości|menu)',
  ].join('|')})(?![\\p{L}\\p{N}])`,
  'iu',
);

/** At most six words: a longer text is a sentence that happens to open on such a phrase. */
const SKIP_MAX_WORDS = 6;

/** Text that holds a word: letters or digits in any script. */
const WORDS = /[\p{L}\p{N}]/u;

/**
 * Removes the page's skip links: links to a place on the same page (`href="#…"`) whose text is a
 * short phrase of {@link SKIP_PHRASE} and that do not sit inside running text. They are there for
 * keyboard users and are drawn off screen or shown on focus; read as text they open the answer on
 * "Skip to content", and a page whose main content a script draws comes out as that line alone. A
 * link whose neighbouring text holds words ("if time is short, skip to the results") is part of a
 * sentence and stays, as does a "Skip" link to another page. Returns how many were removed.
 */
export function dropSkipLinks(document: Document): number {
  let removed = 0;
  for (const link of Array.from(document.querySelectorAll('a[href^="#"]'))) {
    const text = (link.textContent ?? '').replace(/\s+/g, ' ').trim();
    if (!SKIP_PHRASE.test(text) || countWords(text) > SKIP_MAX_WORDS || inRunningText(link)) continue;
    link.remove();
    removed++;
  }
  return removed;
}

/** Whether the text right before or after `link`, in its parent, holds a word. */
function inRunningText(link: Element): boolean {
  for (const sibling of [link.previousSibling, link.nextSibling]) {
    if (sibling?.nodeType === 3 && WORDS.test(sibling.textContent ?? '')) return true;
  }
  return false;
}
