import type TurndownService from 'turndown';
import { loadTurndown } from './lazy-modules.js';
import { safeAbsoluteUrl } from './safe-link.js';

/** Elements whose content is never readable text. */
const DROPPED_ELEMENTS = new Set([
  'script',
  'style',
  'noscript',
  'template',
  'iframe',
  'object',
  'embed',
  'form',
  'button',
  'input',
  'select',
  'textarea',
  'svg',
  'canvas',
]);

/**
 * Converts an HTML fragment to Markdown. Links and images are resolved against `baseUrl`; a link
 * whose target is not a safe http(s) URL keeps its text only, and such an image is dropped.
 */
export async function htmlToMarkdown(html: string, baseUrl: string): Promise<string> {
  const service = await serviceFor(baseUrl);
  return tidyMarkdown(service.turndown(html));
}

/** Collapses runs of blank lines and trailing spaces that Turndown leaves between blocks. */
export function tidyMarkdown(markdown: string): string {
  return markdown
    .replace(/[ \t]+$/gm, '')
    .replace(/\n{3,}/g, '\n\n')
    .trim();
}

async function serviceFor(baseUrl: string): Promise<TurndownService> {
  const Turndown = await loadTurndown();
  const service = new Turndown({
    headingStyle: 'atx',
    codeBlockStyle: 'fenced',
    bulletListMarker: '-',
    emDelimiter: '*',
    strongDelimiter: '**',
  });
  service.remove((node) => DROPPED_ELEMENTS.has(node.nodeName.toLowerCase()));
  service.addRule('safeLink', {
    filter: (node) => node.nodeName === 'A',
    replacement: (content, node) => {
      const text = content.trim();
      const href = safeAbsoluteUrl((node as HTMLElement).getAttribute('href'), baseUrl);
      if (text === '') return '';
      if (href === undefined) return content;
      const title = (node as HTMLElement).getAttribute('title');
      const titlePart = title ? ` "${title.replace(/"/g, '\\"')}"` : '';
      return `[${text}](${href.replace(/\(/g, '%28').replace(/\)/g, '%29')}${titlePart})`;
    },
  });
  service.addRule('safeImage', {
    filter: 'img',
    replacement: (_content, node) => {
      const element = node as HTMLElement;
      const src = safeAbsoluteUrl(element.getAttribute('src'), baseUrl);
      const alt = (element.getAttribute('alt') ?? '').replace(/\s+/g, ' ').trim();
      if (src === undefined) return '';
      return `![${alt.replace(/[[\]]/g, '\\$&')}](${src.replace(/\(/g, '%28').replace(/\)/g, '%29')})`;
    },
  });
  return service;
}
