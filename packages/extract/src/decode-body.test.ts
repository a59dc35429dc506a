import { readFileSync } from 'node:fs';
import { WebToolError } from '@mono-agent/budget-policy';
import { describe, expect, it } from 'vitest';
import { countReplacements, decodeBody, META_PRESCAN_BYTES } from './decode-body.js';

const fixture = (name: string) =>
  new Uint8Array(readFileSync(new URL(`./__fixtures__/${name}`, import.meta.url)));
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

  it(`looks for the meta in the first ${META_PRESCAN_BYTES} bytes only`, async () => {
    const meta = '<meta charset="windows-1251">';
    const at = (padding: number) =>
      new Uint8Array([
        ...ascii(`<html><head>${' '.repeat(padding)}${meta}</head><body>`),
        0xe9,
        ...ascii('</body>'),
      ]);
    const fits = META_PRESCAN_BYTES - '<html><head>'.length - meta.length;
    expect((await decodeBody(at(fits), { declaration: 'html' })).charsetSource).toBe('meta');
    expect((await decodeBody(at(fits + 1), { declaration: 'html' })).charsetSource).not.toBe('meta');
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

  it('detects Shift_JIS when nothing is declared and the bytes are not UTF-8', async () => {
    const decoded = await decodeBody(fixture('shift-jis-undeclared.txt'), { declaration: 'none' });
    expect(decoded).toMatchObject({ charset: 'shift_jis', charsetSource: 'detected', replacementCount: 0 });
    expect(decoded.text).toContain('名前はまだ無い');
  });

  it('detects windows-1251 when nothing is declared', async () => {
    const decoded = await decodeBody(fixture('windows-1251.txt'), { declaration: 'none' });
    expect(decoded).toMatchObject({ charset: 'windows-1251', charsetSource: 'detected' });
    expect(decoded.text).toContain('французских');
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
