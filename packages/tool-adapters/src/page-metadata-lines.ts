import {
  cleanMetadataText,
  type ExtractedDocument,
  MAX_DESCRIPTION_CHARS,
  MAX_METADATA_FIELD_CHARS,
} from '@mono-agent/extract';
import { neutralizeMarkers } from './untrusted-frame.js';

/** The metadata fields of a document shown under its title, in the order they are shown. */
export type PageMetadataFields = Pick<
  ExtractedDocument,
  'author' | 'published' | 'siteName' | 'language' | 'description'
>;

const LABELS: readonly [keyof PageMetadataFields, string, number][] = [
  ['author', 'Author', MAX_METADATA_FIELD_CHARS],
  ['published', 'Published', MAX_METADATA_FIELD_CHARS],
  ['siteName', 'Site', MAX_METADATA_FIELD_CHARS],
  ['language', 'Language', MAX_METADATA_FIELD_CHARS],
  ['description', 'Description', MAX_DESCRIPTION_CHARS],
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
    const text = neutralizeMarkers(cleanMetadataText(value, max));
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
    const text = neutralizeMarkers(cleanMetadataText(value, max));
    if (text !== '') fields[key] = text;
  }
  return fields;
}
