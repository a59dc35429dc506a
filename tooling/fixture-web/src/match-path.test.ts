import { describe, expect, it } from 'vitest';
import { matchPath } from './match-path.js';

describe('matchPath', () => {
  it('matches literal segments exactly', () => {
    expect(matchPath('/echo', '/echo')).toEqual({});
    expect(matchPath('/echo', '/echo/')).toBeUndefined();
    expect(matchPath('/echo', '/ech')).toBeUndefined();
  });

  it('extracts and decodes parameters, refusing empty ones', () => {
    expect(matchPath('/compressed/:encoding/:subject', '/compressed/gzip/news%20article')).toEqual({
      encoding: 'gzip',
      subject: 'news article',
    });
    expect(matchPath('/redirect/:hops', '/redirect/')).toBeUndefined();
    expect(matchPath('/redirect/:hops', '/redirect/%E0%A4%A')).toBeUndefined();
  });

  it('treats a trailing /* as a prefix', () => {
    expect(matchPath('/api/*', '/api')).toEqual({});
    expect(matchPath('/api/*', '/api/v1/items')).toEqual({});
    expect(matchPath('/api/*', '/apiary')).toBeUndefined();
  });
});
