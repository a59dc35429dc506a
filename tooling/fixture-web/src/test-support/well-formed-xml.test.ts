import { describe, expect, it } from 'vitest';
import { checkWellFormedXml } from './well-formed-xml.js';

describe('checkWellFormedXml', () => {
  it('accepts a document and names its root', () => {
    expect(checkWellFormedXml('<?xml version="1.0"?>\n<a x="1"><b/><c>t &amp; u</c></a>\n')).toBe('a');
  });

  it.each([
    ['<a><b></a></b>', /closes/],
    ['<a></a><b></b>', /second root/],
    ['<a>', /unclosed/],
    ['<a>fish & chips</a>', /bad entity/],
    ['', /no root/],
  ])('rejects %s', (text, message) => {
    expect(() => checkWellFormedXml(text)).toThrow(message);
  });
});
