import { extract } from '../../extract.js';

const url = 'https://example.org/docs/guide.html';
const paragraph = (n: number) =>
  `<p>Paragraph ${n} explains how the harbour bridge was rebuilt after the storm, with new steel and a wider deck for cyclists and walkers.</p>`;

/** A guide page whose article holds `inner` between three paragraphs of prose before and three after. */
export const guidePage = (inner: string) =>
  `<!doctype html><html><head><title>Guide</title></head><body><nav><a href="/">Home</a></nav><article><h1>The guide</h1>${[1, 2, 3].map(paragraph).join('')}${inner}${[4, 5, 6].map(paragraph).join('')}</article><footer>Footer</footer></body></html>`;

/** The Markdown extract writes for a guide page holding `inner` (see {@link guidePage}). */
export const markdownInGuide = async (inner: string) =>
  (await extract({ body: guidePage(inner), url, contentType: 'text/html' })).content;
