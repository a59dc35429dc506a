import type { ExtractedDocument } from '@mono-agent/extract';
import { neutralizeMarkers } from './untrusted-frame.js';

/**
 * The longest author, date, site name or language shown, in characters: the bound extraction
 * applies (`MAX_METADATA_FIELD_CHARS` of @mono-agent/extract), applied again here because a host may
 * build the document itself. A value, not an import: this package takes only types from extract.
 */
export const MAX_METADATA_LINE_CHARS = 200;

/** The longest description shown, in characters (extraction's `MAX_DESCRIPTION_CHARS`). */
export const MAX_DESCRIPTION_LINE_CHARS = 1000;

/** C0 and C1 controls, bidi embeddings, overrides, isolates and marks, zero-width characters. */
// biome-ignore lint/suspicious/noControlCharactersInRegex: removing controls is the point.
const CONTROL_OR_BIDI = /[\u0000-\u001f\u007f-\u009f\u061c\u200b-\u200f\u202a-\u202e\u2060-\u2069\ufeff]/g;

/** `value` on one line without controls or bidi characters, cut at `max` characters. */
function oneLine(value: string, max: number): string {
  const text = value.replace(CONTROL_OR_BIDI, ' ').replace(/\s+/g, ' ').trim();
  const characters = Array.from(text);
  return characters.length <= max ? text : `${characters.slice(0, max - 1).join('')}…`;
}

/** The metadata fields of a document shown under its title, in the order they are shown. */
export type PageMetadataFields = Pick<
  ExtractedDocument,
  'author' | 'published' | 'siteName' | 'language' | 'description'
>;

const LABELS: readonly [keyof PageMetadataFields, string, number][] = [
  ['author', 'Author', MAX_METADATA_LINE_CHARS],
  ['published', 'Published', MAX_METADATA_LINE_CHARS],
  ['siteName', 'Site', MAX_METADATA_LINE_CHARS],
  ['language', 'Language', MAX_METADATA_LINE_CHARS],
  ['description', 'Description', MAX_DESCRIPTION_LINE_CHARS],
];

/**
 * The header lines (`Author: …`, `Published: …`, `Site: …`, `Language: …`, `Description: …`) for
 * the fields the page states. They are page text and go inside the untrusted frame: each is cut to
 * its bound, kept on one line without controls or bidi characters, and its frame markers are
 * neutralized, whoever built the document.
 */
export function pageMetadataLines(document: PageMetadataFields): string[] {
  const lines: string[] = [];
  for (const [key, label, max] of LABELS) {
    const value = document[key];
    if (value === undefined) continue;
    const text = neutralizeMarkers(oneLine(value, max));
    if (text !== '') lines.push(`${label}: ${text}`);
  }
  return lines;
}

/** The fields the page states, made safe as the header lines are, for the structured result. */
export function pageMetadataFields(document: PageMetadataFields): PageMetadataFields {
  const fields: PageMetadataFields = {};
  for (const [key, , max] of LABELS) {
    const value = document[key];
    if (value === undefined) continue;
    const text = neutralizeMarkers(oneLine(value, max));
    if (text !== '') fields[key] = text;
  }
  return fields;
}
