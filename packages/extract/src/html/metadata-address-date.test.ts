import { describe, expect, it } from 'vitest';
import { addressDate } from './metadata-address-date.js';

const NOW = Date.parse('2026-12-07T12:00:00Z');
const dated = (url: string) => addressDate(url, NOW);

describe('addressDate', () => {
  it('reads a day the path files the page under', () => {
    expect(dated('https://www.cnn.com/2023/11/06/politics/alito-prelogar/index.html')).toBe('2023-11-06');
    expect(dated('http://www.news.cn/fortune/2023-11/17/c_1129981476.htm')).toBe('2023-11-17');
    expect(dated('https://example.org/blog/2019-04-28-release-notes')).toBe('2019-04-28');
    expect(dated('https://example.org/news/20231117/story.html')).toBe('2023-11-17');
    expect(dated('https://example.org/20231117.html')).toBe('2023-11-17');
    expect(dated('https://example.org/2024/2/9/short-form')).toBe('2024-02-09');
  });

  it('reads no day from a month, an id, a filter, a version or an impossible date', () => {
    expect(dated('https://example.org/2023/11/')).toBeUndefined();
    expect(dated('https://example.org/archive/2023/11')).toBeUndefined();
    expect(dated('https://example.org/item/12345678')).toBeUndefined();
    expect(dated('https://example.org/p/1203112345')).toBeUndefined();
    expect(dated('https://example.org/news?date=2023-11-17')).toBeUndefined();
    expect(dated('https://example.org/page#2023/11/17')).toBeUndefined();
    expect(dated('https://example.org/2023/02/30/story')).toBeUndefined();
    expect(dated('https://example.org/1985/05/01/story')).toBeUndefined();
    expect(dated('https://example.org/2023/11/171/story')).toBeUndefined();
    expect(dated('https://example.org/products/sku-2023-11-17x')).toBeUndefined();
    expect(dated('https://example.org/v2023/11/17')).toBeUndefined();
    expect(dated('not a url')).toBeUndefined();
  });

  it('reads no day after tomorrow', () => {
    expect(dated('https://example.org/2026/12/08/today-somewhere')).toBe('2026-12-08');
    expect(dated('https://example.org/2027/01/15/event-preview')).toBeUndefined();
  });
});
