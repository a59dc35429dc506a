import { readFileSync } from 'node:fs';
import { WebToolError } from '@mono-agent/budget-policy';
import { LEGACY_CHARSETS, LEGACY_FORMS, LEGACY_TEXTS, legacyTextBytes } from '@mono-agent/fixture-web';
import { describe, expect, it } from 'vitest';
import { countReplacements, decodeBody, META_PRESCAN_BYTES } from './decode-body.js';
import { decodeText } from './decode-text.js';

const fixture = (name: string) =>
  new Uint8Array(readFileSync(new URL(`../__fixtures__/${name}`, import.meta.url)));
const ascii = (text: string) => new TextEncoder().encode(text);

describe('decodeBody', () => {
  it('uses a UTF-8 BOM before a contradicting HTTP charset', async () => {
    const body = new Uint8Array([0xef, 0xbb, 0xbf, ...new TextEncoder().encode('Grüße')]);
    const decoded = await decodeBody(body, { headerCharset: 'iso-8859-1', declaration: 'html' });
    expect(decoded).toEqual({ text: 'Grüße', charset: 'utf-8', charsetSource: 'bom', replacementCount: 0 });
  });

  it('uses a UTF-16LE BOM', async () => {
    const body = new Uint8Array([0xff, 0xfe, 0x48, 0x00, 0x69, 0x00]);
    const decoded = await decodeBody(body, { declaration: 'none' });
    expect(decoded).toMatchObject({ text: 'Hi', charset: 'utf-16le', charsetSource: 'bom' });
  });

  it('uses the HTTP charset before the document meta (windows-1251 bytes)', async () => {
    const decoded = await decodeBody(fixture('windows-1251.txt'), {
      headerCharset: 'windows-1251',
      declaration: 'html',
    });
    expect(decoded.charset).toBe('windows-1251');
    expect(decoded.charsetSource).toBe('header');
    expect(decoded.text).toContain('Съешь же ещё этих мягких французских булок');
    expect(decoded.replacementCount).toBe(0);
  });

  it('reads a <meta charset> (Shift_JIS bytes)', async () => {
    const decoded = await decodeBody(fixture('shift-jis-meta.html'), { declaration: 'html' });
    expect(decoded).toMatchObject({ charset: 'shift_jis', charsetSource: 'meta', replacementCount: 0 });
    expect(decoded.text).toContain('吾輩は猫である');
  });

  it('reads an http-equiv meta', async () => {
    const body = new Uint8Array([
      ...ascii(
        '<html><head><meta http-equiv="Content-Type" content="text/html; charset=ISO-8859-1"></head><body>caf',
      ),
      0xe9,
      ...ascii('</body></html>'),
    ]);
    const decoded = await decodeBody(body, { declaration: 'html' });
    expect(decoded).toMatchObject({ charset: 'windows-1252', charsetSource: 'meta' });
    expect(decoded.text).toContain('café');
  });

  it(`looks for the meta in the first ${META_PRESCAN_BYTES} bytes, then through the head of bytes that are not UTF-8`, async () => {
    const meta = '<meta charset="windows-1251">';
    const at = (padding: number, letter: number[] = [0xe9]) =>
      new Uint8Array([
        ...ascii(`<html><head>${' '.repeat(padding)}${meta}</head><body>`),
        ...letter,
        ...ascii('</body>'),
      ]);
    const fits = META_PRESCAN_BYTES - '<html><head>'.length - meta.length;
    expect(await decodeBody(at(fits), { declaration: 'html' })).toMatchObject({
      charsetSource: 'meta',
      text: expect.stringContaining('<body>й'),
    });
    // Past the prescan, bytes that are not UTF-8 are read by the head's declaration, as a browser does.
    expect(await decodeBody(at(fits + 1), { declaration: 'html' })).toMatchObject({
      charset: 'windows-1251',
      charsetSource: 'meta',
      replacementCount: 0,
      text: expect.stringContaining('<body>й'),
    });
    // Bytes that read cleanly as UTF-8 need no declaration from past the prescan.
    expect(await decodeBody(at(fits + 1, [0xc3, 0xa9]), { declaration: 'html' })).toMatchObject({
      charset: 'utf-8',
      charsetSource: 'default',
      text: expect.stringContaining('<body>é'),
    });
  });

  it.each([
    [
      'after the body has begun',
      '<html><head><title>t</title></head><body><p>x</p><meta charset="windows-1251">',
    ],
    ['after an element a head does not hold', '<html><head><div>x</div><meta charset="windows-1251">'],
    ['inside a comment', '<html><head><!-- <meta charset="windows-1251"> -->'],
    ['inside a script', '<html><head><script>document.write(\'<meta charset="windows-1251">\')</script>'],
    ['inside a title', '<html><head><title><meta charset="windows-1251"></title>'],
    ['in an unclosed comment', '<html><head><!-- <meta charset="windows-1251">'],
  ])('does not take a <meta> past the prescan %s', async (_, markup) => {
    const body = new Uint8Array([...ascii(`<!--${' '.repeat(META_PRESCAN_BYTES)}-->${markup}`), 0xe9]);
    const decoded = await decodeBody(body, { declaration: 'html' });
    expect(decoded).toMatchObject({ charset: 'utf-8', charsetSource: 'default', replacementCount: 1 });
  });

  it('reads a <meta> past the prescan after scripts, styles, links and comments of the head', async () => {
    const body = new Uint8Array([
      ...ascii('<!DOCTYPE html>\n<html lang="pl">\n<head>\n<!-- consent notice -->\n'),
      ...ascii(
        `<script src="a.js" charset="UTF-8"></script><script>var s = "</div>${'x'.repeat(META_PRESCAN_BYTES)}";</script>`,
      ),
      ...ascii('<style>p > a { color: red }</style><link rel="preload" href="b.css">'),
      ...ascii(
        '<meta http-equiv="Content-Type" content="text/html; charset=ISO-8859-2"><title>Ziemniaki na sz',
      ),
      0xf3,
      ...ascii('stej</title></head><body>'),
    ]);
    const decoded = await decodeBody(body, { declaration: 'html' });
    expect(decoded).toMatchObject({ charset: 'iso-8859-2', charsetSource: 'meta', replacementCount: 0 });
    expect(decoded.text).toContain('Ziemniaki na szóstej');
  });

  it('refuses a charset it cannot decode that a <meta> past the prescan declares', async () => {
    const body = new Uint8Array([
      ...ascii(`<head><!--${' '.repeat(META_PRESCAN_BYTES)}--><meta charset="x-no-such-charset">`),
      0xe9,
    ]);
    await expect(decodeBody(body, { declaration: 'html' })).rejects.toMatchObject({ code: 'charset_error' });
  });

  it('reads the XML declaration (ISO-8859-1 bytes)', async () => {
    const decoded = await decodeBody(fixture('iso-8859-1-feed.xml'), { declaration: 'xml' });
    expect(decoded).toMatchObject({
      charset: 'windows-1252',
      charsetSource: 'xml-declaration',
      replacementCount: 0,
    });
    expect(decoded.text).toContain('Crème brûlée à la française');
  });

  it('defaults to UTF-8 when the bytes are valid UTF-8', async () => {
    const decoded = await decodeBody(new TextEncoder().encode('naïve ☃'), { declaration: 'html' });
    expect(decoded).toEqual({
      text: 'naïve ☃',
      charset: 'utf-8',
      charsetSource: 'default',
      replacementCount: 0,
    });
  });

  // "BOM, then the HTTP charset, then the HTML meta or XML declaration, then UTF-8 with every
  // replacement character counted and reported. A charset guess may never change the decoded text."
  describe.each(LEGACY_CHARSETS)('undeclared %s bytes', (charset) => {
    it.each(LEGACY_FORMS)(
      'are read as UTF-8 (%s), every replacement counted, the charset only a hint',
      async (form) => {
        const body = new Uint8Array(legacyTextBytes(charset, form));
        const decoded = await decodeBody(body, { declaration: form === 'html' ? 'html' : 'none' });
        const asUtf8 = new TextDecoder('utf-8').decode(body);
        expect(decoded).toMatchObject({ text: asUtf8, charset: 'utf-8', charsetSource: 'default' });
        expect(decoded.replacementCount).toBe(countReplacements(asUtf8));
        expect(decoded.text).not.toContain(LEGACY_TEXTS[charset].paragraphs[0]);
        expect(decoded.charsetHint).not.toBe('utf-8');
      },
    );

    it('are named by the hint: the bytes decoded with it read as the article', async () => {
      const body = new Uint8Array(legacyTextBytes(charset, 'html'));
      const { charsetHint } = await decodeBody(body, { declaration: 'html' });
      expect(charsetHint).toBeDefined();
      // Greek windows-1253 may be named ISO-8859-7, GBK GB18030: the same text for these bytes.
      expect(decodeText(body, charsetHint ?? 'utf-8')).toContain(LEGACY_TEXTS[charset].paragraphs[1]);
    });

    it('are decoded right once the header names the charset', async () => {
      const decoded = await decodeBody(new Uint8Array(legacyTextBytes(charset, 'html')), {
        headerCharset: charset,
        declaration: 'html',
      });
      expect(decoded).toMatchObject({ charset, charsetSource: 'header', replacementCount: 0 });
      expect(decoded.text).toContain(LEGACY_TEXTS[charset].paragraphs[0]);
      expect(decoded.charsetHint).toBeUndefined();
    });
  });

  it('lets the HTTP charset win over a conflicting <meta>, and reports what the bytes look like', async () => {
    const body = new Uint8Array([
      ...ascii('<html><head><meta charset="windows-1251"></head><body>'),
      ...legacyTextBytes('windows-1251', 'text'),
    ]);
    const decoded = await decodeBody(body, { headerCharset: 'utf-8', declaration: 'html' });
    expect(decoded).toMatchObject({ charset: 'utf-8', charsetSource: 'header', charsetHint: 'windows-1251' });
    expect(decoded.replacementCount).toBeGreaterThan(0);
  });

  it('lets the first <meta> win over a later one', async () => {
    const body = new Uint8Array([
      ...ascii('<meta charset="koi8-r"><meta charset="windows-1251"><p>'),
      ...legacyTextBytes('koi8-r', 'text'),
    ]);
    const decoded = await decodeBody(body, { declaration: 'html' });
    expect(decoded).toMatchObject({ charset: 'koi8-r', charsetSource: 'meta', replacementCount: 0 });
    expect(decoded.text).toContain(LEGACY_TEXTS['koi8-r'].paragraphs[0]);
  });

  it('reads a <meta> naming UTF-16 in ASCII-compatible bytes as UTF-8, and x-user-defined as windows-1252', async () => {
    const utf16 = await decodeBody(ascii('<meta charset="utf-16"><p>caf\u00e9</p>'), { declaration: 'html' });
    expect(utf16).toMatchObject({ charset: 'utf-8', charsetSource: 'meta' });
    const user = await decodeBody(new Uint8Array([...ascii('<meta charset="x-user-defined"><p>caf'), 0xe9]), {
      declaration: 'html',
    });
    expect(user).toMatchObject({ charset: 'windows-1252', charsetSource: 'meta', replacementCount: 0 });
    expect(user.text).toContain('café');
  });

  it.each([
    ['utf-16le', 'UTF-16'],
    ['utf-16be', 'UTF-16'],
    ['utf-16le', undefined],
  ] as const)(
    'reads an XML declaration in %s without a byte order mark (encoding %s)',
    async (charset, label) => {
      const xml = `<?xml version="1.0"${label === undefined ? '' : ` encoding="${label}"`}?><p>Grüße</p>`;
      const units = Array.from(xml, (character) => character.charCodeAt(0));
      const body = new Uint8Array(
        units.flatMap((unit) =>
          charset === 'utf-16le' ? [unit & 0xff, unit >> 8] : [unit >> 8, unit & 0xff],
        ),
      );
      const decoded = await decodeBody(body, { declaration: 'xml' });
      expect(decoded).toMatchObject({
        text: xml,
        charset,
        charsetSource: 'xml-declaration',
        replacementCount: 0,
      });
    },
  );

  it('reads an XML declaration naming UTF-16 in ASCII-compatible bytes as UTF-8', async () => {
    const decoded = await decodeBody(ascii('<?xml version="1.0" encoding="UTF-16"?><p>ok</p>'), {
      declaration: 'xml',
    });
    expect(decoded).toMatchObject({
      charset: 'utf-8',
      charsetSource: 'xml-declaration',
      text: '<?xml version="1.0" encoding="UTF-16"?><p>ok</p>',
    });
  });

  it('reads an XHTML page that names its charset in its XML declaration only, and lets a <meta> win', async () => {
    const cyrillic = legacyTextBytes('windows-1251', 'text');
    const xhtml = new Uint8Array([
      ...ascii(
        '<?xml version="1.0" encoding="windows-1251"?><html xmlns="http://www.w3.org/1999/xhtml"><body><p>',
      ),
      ...cyrillic,
    ]);
    const decoded = await decodeBody(xhtml, { declaration: 'html' });
    expect(decoded).toMatchObject({
      charset: 'windows-1251',
      charsetSource: 'xml-declaration',
      replacementCount: 0,
    });
    expect(decoded.text).toContain(LEGACY_TEXTS['windows-1251'].paragraphs[0]);
    const both = new Uint8Array([
      ...ascii(
        '<?xml version="1.0" encoding="koi8-r"?><html><head><meta charset="windows-1251"></head><body><p>',
      ),
      ...cyrillic,
    ]);
    expect(await decodeBody(both, { declaration: 'html' })).toMatchObject({
      charset: 'windows-1251',
      charsetSource: 'meta',
      replacementCount: 0,
    });
  });

  it('reads undeclared UTF-16 with a byte order mark by the mark', async () => {
    const body = new Uint8Array([0xfe, 0xff, ...legacyTextBytes('utf-16be', 'text')]);
    const decoded = await decodeBody(body, { declaration: 'none' });
    expect(decoded).toMatchObject({ charset: 'utf-16be', charsetSource: 'bom', replacementCount: 0 });
    expect(decoded.text).toContain(LEGACY_TEXTS['utf-16be'].paragraphs[0]);
  });

  it('counts replacement characters from bytes invalid in the declared charset', async () => {
    const body = new Uint8Array([...ascii('ok '), 0xff, 0xfe, 0x80, ...ascii(' ok')]);
    const decoded = await decodeBody(body, { headerCharset: 'utf-8', declaration: 'none' });
    expect(decoded.replacementCount).toBe(3);
    expect(countReplacements(decoded.text)).toBe(3);
  });

  it('rejects a declared charset it cannot decode, from the header or the meta', async () => {
    await expect(
      decodeBody(ascii('x'), { headerCharset: 'x-klingon', declaration: 'none' }),
    ).rejects.toSatisfy(
      (error) => WebToolError.isInstance(error, 'charset_error') && error.details.charsetSource === 'header',
    );
    const meta = ascii('<meta charset="x-klingon"><p>x</p>');
    await expect(decodeBody(meta, { declaration: 'html' })).rejects.toSatisfy((error) =>
      WebToolError.isInstance(error, 'charset_error'),
    );
  });
});

// A page's own declaration is believed unless every byte of the body is valid UTF-8: a saved or
// re-encoded copy keeps the `<meta>` of the original while its bytes became UTF-8.
describe('decodeBody: a declaration the bytes contradict', () => {
  const ASCII_COMPATIBLE = LEGACY_CHARSETS.filter((charset) => !charset.startsWith('utf-16'));
  const article = (charset: (typeof LEGACY_CHARSETS)[number]) => LEGACY_TEXTS[charset].paragraphs.join('\n');

  it.each(ASCII_COMPATIBLE)('reads real %s bytes by the <meta> that names them', async (charset) => {
    const body = new Uint8Array([
      ...ascii(`<meta charset="${charset}"><p>`),
      ...legacyTextBytes(charset, 'text'),
    ]);
    const decoded = await decodeBody(body, { declaration: 'html' });
    expect(decoded).toMatchObject({ charset, charsetSource: 'meta', replacementCount: 0 });
    expect(decoded.declaredCharset).toBeUndefined();
    expect(decoded.text).toContain(LEGACY_TEXTS[charset].paragraphs[0]);
  });

  it.each(ASCII_COMPATIBLE)(
    'reads UTF-8 bytes under a <meta> naming %s as UTF-8, and names the declaration',
    async (charset) => {
      const body = ascii(
        `<html><head><meta http-equiv="Content-Type" content="text/html; charset=${charset}"></head><p>${article(charset)}`,
      );
      const decoded = await decodeBody(body, { declaration: 'html' });
      expect(decoded).toMatchObject({
        charset: 'utf-8',
        charsetSource: 'bytes',
        declaredCharset: charset,
        replacementCount: 0,
      });
      expect(decoded.text).toContain(LEGACY_TEXTS[charset].paragraphs[0]);
    },
  );

  it('names the declaration by its WHATWG name, and reads an XML declaration the same way', async () => {
    const gb2312 = await decodeBody(ascii('<meta charset="GB2312"><p>促进航天技术更好惠及人民</p>'), {
      declaration: 'html',
    });
    expect(gb2312).toMatchObject({
      charsetSource: 'bytes',
      declaredCharset: 'gbk',
      text: '<meta charset="GB2312"><p>促进航天技术更好惠及人民</p>',
    });
    const feed = ascii(
      '<?xml version="1.0" encoding="ISO-8859-1"?><rss><channel><title>Grüße aus Köln</title></channel></rss>',
    );
    expect(await decodeBody(feed, { declaration: 'xml' })).toMatchObject({
      charsetSource: 'bytes',
      declaredCharset: 'windows-1252',
    });
  });

  it('keeps the declaration for a body all in ASCII, and for one byte that is not UTF-8', async () => {
    const plain = await decodeBody(ascii('<meta charset="windows-1251"><p>plain</p>'), {
      declaration: 'html',
    });
    expect(plain).toMatchObject({ charset: 'windows-1251', charsetSource: 'meta' });
    const mixed = new Uint8Array([
      ...ascii('<meta charset="windows-1252"><p>Grüße '),
      0xe9,
      ...ascii('</p>'),
    ]);
    const decoded = await decodeBody(mixed, { declaration: 'html' });
    expect(decoded).toMatchObject({ charset: 'windows-1252', charsetSource: 'meta', replacementCount: 0 });
    expect(decoded.text).toContain('GrÃ¼ÃŸe é');
  });

  it('always obeys the HTTP charset and a byte order mark, which describe the bytes as sent', async () => {
    const body = ascii('<meta charset="utf-8"><p>Grüße</p>');
    const header = await decodeBody(body, { headerCharset: 'windows-1252', declaration: 'html' });
    expect(header).toMatchObject({
      charset: 'windows-1252',
      charsetSource: 'header',
      text: '<meta charset="utf-8"><p>GrÃ¼ÃŸe</p>',
    });
    expect(header.declaredCharset).toBeUndefined();
  });
});
