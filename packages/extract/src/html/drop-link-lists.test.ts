import { describe, expect, it } from 'vitest';
import { dropLinkLists, MIN_LINK_LIST_ITEMS } from './drop-link-lists.js';

const links = (count: number) =>
  Array.from({ length: count }, (_, index) => `- [Story ${index}](https://news.example/${index})`).join('\n');

describe('dropLinkLists', () => {
  it(`drops a list of ${MIN_LINK_LIST_ITEMS} link-only items and keeps one of ${MIN_LINK_LIST_ITEMS - 1}`, () => {
    expect(dropLinkLists(`Story text.\n\n${links(MIN_LINK_LIST_ITEMS)}\n\nMore text.`)).toBe(
      'Story text.\n\nMore text.',
    );
    const short = `Story text.\n\n${links(MIN_LINK_LIST_ITEMS - 1)}`;
    expect(dropLinkLists(short)).toBe(short);
  });

  it('keeps lists whose items say more than a link, and nested or loose link menus go whole', () => {
    const prose =
      '- [Step one](https://x.example/1) mixes the flour\n- Step two\n- [Step three](https://x.example/3)';
    expect(dropLinkLists(prose)).toBe(prose);
    const menu =
      '- [Diets](https://x.example/#)\n\n    - [Rice](https://x.example/r)\n    - [Fruit](https://x.example/f "Fruit")';
    expect(dropLinkLists(`Intro.\n\n${menu}\n\nBody.`)).toBe('Intro.\n\nBody.');
  });
});
