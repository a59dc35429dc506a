/**
 * Elements a page's head is made of. A browser's parser keeps listening for a `<meta>` charset
 * past the prescan while the document is still in its head; the first tag of any other element
 * (the body has begun) or `</head>` ends that.
 */
const HEAD_ELEMENTS = new Set([
  'html',
  'head',
  'meta',
  'link',
  'base',
  'title',
  'script',
  'style',
  'noscript',
  'template',
  'object',
]);

/** The end tag of each head element whose content is text, not markup: a `<meta>` inside one declares nothing. */
const TEXT_CONTENT_ENDS: Readonly<Record<string, RegExp>> = {
  title: /<\/title/gi,
  script: /<\/script/gi,
  style: /<\/style/gi,
  noscript: /<\/noscript/gi,
  template: /<\/template/gi,
};

/** A comment's opening, or a start or end tag's name. */
const TAG_OR_COMMENT = /<(?:!--|(\/?)([a-zA-Z][^\s/>]*))/g;

/** The charset a `<meta>` tag names, by `charset=` or an http-equiv `content="…; charset=…"`. */
export const META_CHARSET = /<meta\b[^>]*?charset\s*=\s*["']?\s*([^\s"'/>;]+)[^>]*>/i;

/**
 * The charset label the first `<meta>` of a page's head names, read from `text` (the body's bytes as
 * Latin-1, one character per byte), or undefined when the head names none. Comments and the
 * content of `<script>`, `<style>`, `<title>`, `<noscript>` and `<template>` are skipped; the search
 * ends at the first tag of an element a head does not hold, at `</head>`, and at markup left
 * unclosed. Linear in the head's length.
 */
export function headMetaCharset(text: string): string | undefined {
  const tags = new RegExp(TAG_OR_COMMENT.source, 'g');
  for (let found = tags.exec(text); found !== null; found = tags.exec(text)) {
    if (found[0] === '<!--') {
      const end = text.indexOf('-->', tags.lastIndex);
      if (end === -1) return undefined;
      tags.lastIndex = end + 3;
      continue;
    }
    const name = (found[2] as string).toLowerCase();
    if (found[1] === '/') {
      if (name === 'head') return undefined;
      continue;
    }
    if (!HEAD_ELEMENTS.has(name)) return undefined;
    const end = text.indexOf('>', tags.lastIndex);
    if (end === -1) return undefined;
    if (name === 'meta') {
      const label = META_CHARSET.exec(text.slice(found.index, end + 1))?.[1];
      if (label !== undefined) return label;
    }
    tags.lastIndex = end + 1;
    const contentEnd = TEXT_CONTENT_ENDS[name];
    if (contentEnd !== undefined) {
      contentEnd.lastIndex = end + 1;
      if (contentEnd.exec(text) === null) return undefined;
      tags.lastIndex = contentEnd.lastIndex;
    }
  }
  return undefined;
}
