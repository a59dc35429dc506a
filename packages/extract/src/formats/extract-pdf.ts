import { WebToolError } from '@mono-agent/budget-policy';
import { loadUnpdf } from '../lazy-modules.js';
import { assertPdfDecodedSize, MAX_PDF_PAGES } from '../pdf-bounds.js';

/** A PDF's text, page by page. */
export interface PdfText {
  /** The text with a `[page N of M]` marker line before each page. */
  content: string;
  /** The number of pages. */
  pageCount: number;
  /** The title from the document information, when present. */
  title: string | undefined;
}

/** The marker line put before each page's text. */
export function pageMarker(page: number, pageCount: number): string {
  return `[page ${page} of ${pageCount}]`;
}

/** The closing line of a PDF whose later pages were not extracted. */
export function pagesOmittedMarker(extracted: number, pageCount: number): string {
  return `[pages ${extracted + 1}-${pageCount} of ${pageCount} not extracted: the page limit is ${MAX_PDF_PAGES}]`;
}

/**
 * Extracts the text of every page, one page at a time, up to {@link MAX_PDF_PAGES}; an encrypted or
 * broken PDF is a `parse_error`, one whose streams inflate past the decoded-size bound `too_large`.
 */
export async function extractPdf(body: Uint8Array): Promise<PdfText> {
  assertPdfDecodedSize(body);
  const { getDocumentProxy, getMeta } = await loadUnpdf();
  // PDF.js takes ownership of (detaches) the buffer it is given; the caller's bytes stay intact.
  const data = new Uint8Array(body);
  let document: Awaited<ReturnType<typeof getDocumentProxy>> | undefined;
  try {
    document = await getDocumentProxy(data, { isEvalSupported: false, stopAtErrors: true });
    const totalPages = document.numPages;
    const text: string[] = [];
    for (let number = 1; number <= Math.min(totalPages, MAX_PDF_PAGES); number++) {
      const page = await document.getPage(number);
      const content = await page.getTextContent();
      text.push(
        content.items.map((item) => ('str' in item ? item.str + (item.hasEOL ? '\n' : '') : '')).join(''),
      );
      page.cleanup();
    }
    let title: string | undefined;
    try {
      const meta = await getMeta(document);
      const raw = meta.info.Title;
      title = typeof raw === 'string' && raw.trim() !== '' ? raw.trim() : undefined;
    } catch {
      title = undefined;
    }
    const pages = text.map((page, index) => `${pageMarker(index + 1, totalPages)}\n\n${page.trim()}`);
    if (totalPages > MAX_PDF_PAGES) pages.push(pagesOmittedMarker(MAX_PDF_PAGES, totalPages));
    return { content: pages.join('\n\n'), pageCount: totalPages, title };
  } catch (error) {
    if (WebToolError.isInstance(error)) throw error;
    const name = error instanceof Error ? error.name : '';
    const encrypted = name === 'PasswordException';
    throw new WebToolError({
      code: 'parse_error',
      message: encrypted
        ? 'The PDF is encrypted and needs a password; its text cannot be read.'
        : `The PDF could not be read: ${error instanceof Error ? error.message : String(error)}`.slice(
            0,
            300,
          ),
      cause: error,
      details: { kind: 'pdf', reason: encrypted ? 'encrypted' : name || 'invalid' },
    });
  } finally {
    await document?.destroy();
  }
}
