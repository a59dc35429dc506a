import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { extract } from '../src/extract.js';

/** What a golden page's Markdown must hold, hold once, or leave out. */
export interface Behaviour {
  keeps?: readonly string[];
  once?: readonly string[];
  drops?: readonly string[];
}

/** The folder holding one folder per golden page. */
export const GOLDEN_PAGES_DIRECTORY = fileURLToPath(new URL('./pages/', import.meta.url));

/** The URL every golden page is extracted as (its links resolve against it). */
export const goldenPageUrl = (name: string) => `https://pages.example/${name}/`;

/** The page's source, its expected Markdown and its expected metadata, by file name. */
export const GOLDEN_FILES = {
  source: 'source.html',
  markdown: 'expected.md',
  metadata: 'expected-metadata.json',
} as const;

/** The names of the golden pages, in order. */
export function goldenPageNames(): string[] {
  return readdirSync(GOLDEN_PAGES_DIRECTORY, { withFileTypes: true })
    .filter((entry) => entry.isDirectory())
    .map((entry) => entry.name)
    .sort();
}

/** What extraction gives for a golden page today, as the expected files hold it. */
export async function extractGoldenPage(name: string): Promise<{ markdown: string; metadata: string }> {
  const body = readFileSync(join(GOLDEN_PAGES_DIRECTORY, name, GOLDEN_FILES.source));
  const document = await extract({ body, url: goldenPageUrl(name), contentType: 'text/html; charset=utf-8' });
  const metadata = {
    title: document.title ?? null,
    author: document.author ?? null,
    published: document.published ?? null,
    siteName: document.siteName ?? null,
    language: document.language ?? null,
    description: document.description ?? null,
    stage: document.stage,
  };
  return { markdown: `${document.content.trimEnd()}\n`, metadata: `${JSON.stringify(metadata, null, 2)}\n` };
}
