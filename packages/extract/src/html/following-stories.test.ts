import { parseHTML } from 'linkedom';
import { describe, expect, it } from 'vitest';
import { dropFollowingStories } from './following-stories.js';

const story = (headline: string) => `<article><h1>${headline}</h1><p>Text of ${headline}.</p></article>`;
const headlines = (title: string, body: string) => {
  const { document } = parseHTML(
    `<!doctype html><html><head><title>${title}</title></head><body>${body}</body></html>`,
  );
  dropFollowingStories(document as unknown as Document);
  return Array.from(document.querySelectorAll('h1')).map((h1) => h1.textContent);
};

describe('dropFollowingStories', () => {
  it("removes the stories appended after the one the page's title names", () => {
    expect(headlines('Ferry fares rise | Wire', story('Ferry fares rise') + story('Bridge closes'))).toEqual([
      'Ferry fares rise',
    ]);
    expect(
      headlines(
        'Bridge closes - Wire',
        story('Ferry fares rise') + story('Bridge closes') + story('Pier reopens'),
      ),
    ).toEqual(['Ferry fares rise', 'Bridge closes']);
  });

  it('reads og:title when the <title> does not name the story', () => {
    const { document } = parseHTML(
      `<html><head><title>Wire</title><meta property="og:title" content="Ferry fares rise"></head><body>${story('Ferry fares rise')}${story('Bridge closes')}</body></html>`,
    );
    dropFollowingStories(document as unknown as Document);
    expect(document.querySelectorAll('article')).toHaveLength(1);
  });

  it('changes nothing on a listing, when no story or two are named, or with one story', () => {
    const many = ['A one', 'B two', 'C three', 'D four'];
    expect(headlines('A one', many.map(story).join(''))).toEqual(many);
    expect(headlines('Front page', story('A one') + story('B two'))).toEqual(['A one', 'B two']);
    expect(headlines('Ferry fares rise', story('Ferry fares') + story('Fares rise'))).toEqual([
      'Ferry fares',
      'Fares rise',
    ]);
    expect(headlines('A one', story('A one'))).toEqual(['A one']);
  });

  it("takes no site's name in an article's h1 for the story the title names", () => {
    const site = '<article><h1>Times</h1><p>About us.</p></article>';
    expect(
      headlines(
        'Ferry fares rise in April after a year of fuel costs | Times',
        site + story('Bridge closes'),
      ),
    ).toEqual(['Times', 'Bridge closes']);
  });

  it('counts only outermost articles that hold their own headline', () => {
    const nested = `<article><h1>Ferry fares rise</h1><article><h1>Quoted post</h1></article></article>${story('Bridge closes')}`;
    expect(headlines('Ferry fares rise', nested)).toEqual(['Ferry fares rise', 'Quoted post']);
  });
});
