import { readFileSync } from 'node:fs';
import {
  LEGACY_CHARSETS,
  LEGACY_FORMS,
  type LegacyCharset,
  type LegacyForm,
} from '../legacy-text/legacy-texts.js';
import { choiceQuery, parseChoice } from '../query-parameters.js';
import type { Route } from '../route-context.js';
import { send } from '../send.js';

const loaded = new Map<string, Buffer>();

/** The iconv-encoded bytes of one legacy page, read once. */
export function legacyTextBytes(charset: LegacyCharset, form: LegacyForm): Buffer {
  const file = `${charset}.${form === 'html' ? 'html' : 'txt'}`;
  let bytes = loaded.get(file);
  if (bytes === undefined) {
    bytes = readFileSync(new URL(`../__fixtures__/legacy-text/${file}`, import.meta.url));
    loaded.set(file, bytes);
  }
  return bytes;
}

/**
 * `/legacy-text/<charset>?as=<html|text>`: an article in a legacy charset that nothing declares:
 * no BOM, no charset parameter (`text/html` or `text/plain`), no `<meta>`.
 */
export const legacyTextRoute: Route = {
  pattern: '/legacy-text/:charset',
  handle(context) {
    const charset = parseChoice('charset', context.params['charset'], LEGACY_CHARSETS);
    const form = choiceQuery(context.url, 'as', LEGACY_FORMS, 'html');
    const contentType = form === 'html' ? 'text/html' : 'text/plain';
    send(context, 200, { 'content-type': contentType }, legacyTextBytes(charset, form));
  },
};
