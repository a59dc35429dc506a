import { WebToolError } from '@mono-agent/budget-policy';
import type { ContentKind } from '../types.js';

/** How many leading bytes are looked at to recognise an undeclared body. */
export const SNIFF_BYTES = 512;

const TEXT_TYPES = new Set([
  'text/plain',
  'text/markdown',
  'text/x-markdown',
  'text/csv',
  'text/tab-separated-values',
]);
const FEED_TYPES = new Set([
  'application/rss+xml',
  'application/atom+xml',
  'application/rdf+xml',
  'application/feed+xml',
]);
// Servers label all sorts of bodies as these; the bytes decide.
const GENERIC_TYPES = new Set(['application/octet-stream', 'binary/octet-stream', 'application/unknown']);

/**
 * The content kind of a body: the declared media type decides, and an absent or generic one is
 * sniffed from the first bytes. Images, audio, archives and other binary types are
 * `unsupported_content`.
 */
export function detectKind(mediaType: string | undefined, head: Uint8Array | string): ContentKind {
  if (mediaType === undefined || GENERIC_TYPES.has(mediaType)) {
    const sniffed = sniffKind(head);
    if (sniffed !== undefined) return sniffed;
    // Text never holds NUL bytes; undeclared bytes that do are some binary format.
    const binary =
      typeof head !== 'string' && !hasUtf16Bom(head) && head.subarray(0, SNIFF_BYTES).includes(0);
    if (mediaType === undefined && !binary) return 'text';
    throw unsupported(mediaType ?? 'undeclared binary');
  }
  if (mediaType === 'text/html' || mediaType === 'application/xhtml+xml') return 'html';
  if (mediaType === 'application/json' || mediaType.endsWith('+json') || mediaType === 'text/json')
    return 'json';
  if (FEED_TYPES.has(mediaType)) return 'feed';
  if (mediaType === 'application/xml' || mediaType === 'text/xml' || mediaType.endsWith('+xml')) return 'xml';
  if (mediaType === 'application/pdf' || mediaType === 'application/x-pdf') return 'pdf';
  if (TEXT_TYPES.has(mediaType) || mediaType.startsWith('text/')) return 'text';
  throw unsupported(mediaType);
}

function sniffKind(head: Uint8Array | string): ContentKind | undefined {
  const start =
    typeof head === 'string'
      ? head.slice(0, SNIFF_BYTES)
      : new TextDecoder('latin1').decode(head.subarray(0, SNIFF_BYTES));
  if (start.startsWith('%PDF-')) return 'pdf';
  const trimmed = start.replace(/^(\uFEFF|\u00EF\u00BB\u00BF|\s)+/, '').toLowerCase();
  if (/^(<!doctype html|<html[\s>]|<head[\s>]|<body[\s>])/.test(trimmed)) return 'html';
  if (trimmed.startsWith('<?xml') || /^<(rss|feed|rdf:rdf)[\s>]/.test(trimmed)) return 'xml';
  if (/^<!--/.test(trimmed) && /<html[\s>]/.test(trimmed)) return 'html';
  return undefined;
}

function hasUtf16Bom(head: Uint8Array): boolean {
  return (head[0] === 0xfe && head[1] === 0xff) || (head[0] === 0xff && head[1] === 0xfe);
}

function unsupported(mediaType: string): WebToolError {
  return new WebToolError({
    code: 'unsupported_content',
    message: `Content of type ${mediaType.slice(0, 100)} cannot be extracted as text.`,
    details: { mediaType: mediaType.slice(0, 100) },
  });
}
