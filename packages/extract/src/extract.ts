import { WebToolError } from '@mono-agent/budget-policy';
import { parseContentType } from './decode/content-type.js';
import { countReplacements, type DecodedBody, decodeBody } from './decode/decode-body.js';
import { detectKind } from './decode/detect-kind.js';
import { failureReason } from './failure-reason.js';
import { extractJson } from './formats/extract-json.js';
import { extractPdf } from './formats/extract-pdf.js';
import { parseXml } from './formats/extract-xml.js';
import { feedToMarkdown } from './formats/feed-to-markdown.js';
import { closeStrayCdata } from './html/cdata-in-html.js';
import { extractHtml } from './html/extract-html.js';
import { htmlToStreamedText } from './html/html-streamed-text.js';
import { markdownToText } from './html/markdown-to-text.js';
import { addressDate } from './html/metadata-address-date.js';
import type { DomNode } from './html/metadata-markup.js';
import type { PageMetadata, PageStatement } from './html/page-metadata.js';
import { titleWithoutSite } from './html/page-title.js';
import { parseHtmlDocument } from './html/parse-html-document.js';
import { detectSparseShell } from './html/sparse-shell.js';
import { openImpliedRows } from './html/table-rows.js';
import { boundsReason, measureHtml, withinDomBounds } from './html-bounds.js';
import { loadDefuddle, loadLinkedom, loadReadability, loadTurndown } from './lazy-modules.js';
import { assertParseable } from './structured-limit.js';
import { type ContentKind, type ExtractedDocument, OUTPUT_FORMATS, type OutputFormat } from './types.js';

/** Input of {@link extract}. */
export interface ExtractOptions {
  /** The response body: bytes as received, or text already decoded. */
  body: Uint8Array | string;
  /** The absolute http(s) URL the body came from; relative links resolve against it. */
  url: string;
  /** The response's Content-Type header value, when known. */
  contentType?: string | undefined;
  /** The output format; `markdown` by default. */
  format?: OutputFormat | undefined;
}

/**
 * Turns a response body into a model-readable document: decodes it, recognises its kind and
 * extracts it (HTML article, pretty JSON, feed entries, XML, PDF text or plain text) in the
 * requested format. Expected failures are `WebToolError`s (`charset_error`, `parse_error`,
 * `too_large`, `unsupported_content`, `validation_error`).
 */
export async function extract(options: ExtractOptions): Promise<ExtractedDocument> {
  return extractWith(options, {});
}

/** How {@link extractWith} treats HTML; the extraction worker sets it when it falls back. */
export interface ExtractStrategy {
  /**
   * Why the DOM stages are skipped and the page read by the streamed-text stage instead (they ran
   * out of time or memory on an earlier try); unset, the page's shape decides.
   */
  skipDomStages?: string | undefined;
  /** Called when the DOM stages are about to start, so a pool can bound them by time. */
  onDomStages?: (() => void) | undefined;
}

/** {@link extract} with a strategy for HTML pages. */
export async function extractWith(
  options: ExtractOptions,
  strategy: ExtractStrategy,
): Promise<ExtractedDocument> {
  const format = options.format ?? 'markdown';
  validate(options, format);
  const { mediaType, charset: headerCharset } = parseContentType(options.contentType);
  const { body, url } = options;
  const kind = detectKind(mediaType, body);
  const byteLength = typeof body === 'string' ? Buffer.byteLength(body, 'utf8') : body.byteLength;

  if (kind === 'pdf') return extractPdfDocument(body, url, format, byteLength);
  const decoded = await decodeAs(body, kind, headerCharset);
  const base = documentBase(url, format, decoded);
  if (format === 'raw') {
    return { ...base, kind, content: decoded.text, stage: 'raw', parserFailures: [] };
  }
  if (kind === 'text') {
    return { ...base, kind, content: decoded.text, stage: 'text', parserFailures: [] };
  }
  assertParseable(byteLength, kind);
  if (kind === 'json') {
    return { ...base, kind, content: await extractJson(decoded.text), stage: 'json', parserFailures: [] };
  }
  if (kind === 'xml' || kind === 'feed') return extractXmlDocument(decoded.text, url, format, base);
  return extractHtmlDocument(decoded.text, url, format, base, strategy);
}

/** The text of a PDF body, which must be bytes and may not be asked for raw. */
async function extractPdfDocument(
  body: Uint8Array | string,
  url: string,
  format: OutputFormat,
  byteLength: number,
): Promise<ExtractedDocument> {
  const kind = 'pdf';
  if (format === 'raw') {
    throw new WebToolError({
      code: 'unsupported_content',
      message: 'A PDF has no decoded text form; ask for format "markdown" or "text".',
      details: { kind, format },
    });
  }
  if (typeof body === 'string') {
    throw new WebToolError({
      code: 'validation_error',
      message: 'A PDF body must be passed as bytes, not as a string.',
      details: { kind },
    });
  }
  assertParseable(byteLength, kind);
  const pdf = await extractPdf(body);
  return {
    url,
    kind,
    format,
    content: format === 'text' ? markdownToText(pdf.content) : pdf.content,
    ...(pdf.title === undefined ? {} : { title: pdf.title }),
    charset: 'binary',
    charsetSource: 'binary',
    replacementCount: 0,
    stage: 'pdf',
    parserFailures: [],
    pageCount: pdf.pageCount,
  };
}

/** The body as text: a string as it is, bytes decoded by the charset their kind may declare. */
async function decodeAs(
  body: Uint8Array | string,
  kind: ContentKind,
  headerCharset: string | undefined,
): Promise<DecodedBody> {
  if (typeof body === 'string') {
    return {
      text: body,
      charset: 'utf-8',
      charsetSource: 'string',
      replacementCount: countReplacements(body),
    };
  }
  return decodeBody(body, {
    headerCharset,
    declaration: kind === 'html' ? 'html' : kind === 'xml' || kind === 'feed' ? 'xml' : 'none',
  });
}

/** The fields every decoded document has, whatever its kind. */
function documentBase(url: string, format: OutputFormat, decoded: DecodedBody) {
  return {
    url,
    format,
    charset: decoded.charset,
    charsetSource: decoded.charsetSource,
    replacementCount: decoded.replacementCount,
    ...(decoded.charsetHint === undefined ? {} : { charsetHint: decoded.charsetHint }),
    ...(decoded.declaredCharset === undefined ? {} : { declaredCharset: decoded.declaredCharset }),
  };
}

type DocumentBase = ReturnType<typeof documentBase>;

/** An XML body as its trimmed text, or a feed as the Markdown of its entries. */
async function extractXmlDocument(
  text: string,
  url: string,
  format: OutputFormat,
  base: DocumentBase,
): Promise<ExtractedDocument> {
  const xml = await parseXml(text, url);
  if (xml.kind === 'xml') {
    return { ...base, kind: 'xml', content: text.trim(), stage: 'xml', parserFailures: [] };
  }
  const markdown = await feedToMarkdown(xml.title, xml.entries, url);
  return {
    ...base,
    kind: 'feed',
    content: format === 'text' ? markdownToText(markdown) : markdown,
    ...(xml.title === undefined ? {} : { title: xml.title }),
    stage: 'feed',
    parserFailures: [],
  };
}

/** What the DOM stages made of a page: its article and metadata, or why the streamed text is read instead. */
interface DomStagesResult {
  article: Awaited<ReturnType<typeof extractHtml>> | undefined;
  /**
   * What the page states of itself (its metadata, and the titles its title is weighed against),
   * read from the parsed page; undefined when the page broke the DOM stages before it was read.
   */
  statement: PageStatement | undefined;
  streamReason: string | undefined;
}

/**
 * The publication date of a page whose markup states none, when its address files it under a day
 * (see `html/metadata-address-date.ts`); nothing when the markup states one or the address does not.
 */
function datedByAddress(metadata: PageMetadata, url: string): Pick<PageMetadata, 'published'> {
  if (metadata.published !== undefined) return {};
  const published = addressDate(url);
  return published === undefined ? {} : { published };
}

/** What a page states when it states nothing, or when what it states cannot be read. */
const NO_STATEMENT: PageStatement = { metadata: {}, sharedTitles: [], siteNames: [] };

/** An HTML page's article by the DOM stages, or its streamed text when they are skipped or break. */
async function extractHtmlDocument(
  text: string,
  url: string,
  format: OutputFormat,
  base: DocumentBase,
  strategy: ExtractStrategy,
): Promise<ExtractedDocument> {
  const kind = 'html';
  // Every HTML stage reads a stray `<![CDATA[` (see html/cdata-in-html.ts) and a table cell outside
  // any row (see html/table-rows.ts) as a browser does.
  const html = openImpliedRows(closeStrayCdata(text));
  // The DOM stages cost time, memory and stack that grow faster than the page; a page past their
  // bounds is read in one streaming pass instead, and so is one the DOM stages broke on.
  const skipReason =
    strategy.skipDomStages ??
    (await measureHtml(html).then((shape) => (withinDomBounds(shape) ? undefined : boundsReason(shape))));
  const { article, statement, streamReason } =
    skipReason === undefined
      ? await runDomStages(html, url, strategy)
      : { article: undefined, statement: undefined, streamReason: `skipped: ${skipReason}` };
  if (article === undefined) {
    const streamed = await htmlToStreamedText(html, url);
    // The page's own statement as the DOM stages read it, when they got that far: it has the byline
    // and the dateline the page shows, which the streamed markup lacks.
    const { metadata, sharedTitles, siteNames } = statement ?? (await readStreamedStatement(streamed.stated));
    const reason = streamReason ?? 'failed';
    return {
      ...base,
      kind,
      content: format === 'text' ? streamed.text : streamed.markdown,
      ...(streamed.title === undefined
        ? {}
        : { title: titleWithoutSite(streamed.title, siteNames, sharedTitles) }),
      ...metadata,
      ...datedByAddress(metadata, url),
      stage: 'streamed-text',
      parserFailures: [
        { stage: 'readability', reason },
        { stage: 'defuddle', reason },
        { stage: 'cleaned-body', reason },
      ],
    };
  }
  const { metadata, sharedTitles, siteNames } = statement ?? NO_STATEMENT;
  return {
    ...base,
    kind,
    content: format === 'text' ? article.text : article.markdown,
    ...(article.title === undefined
      ? {}
      : { title: titleWithoutSite(article.title, siteNames, sharedTitles) }),
    ...metadata,
    ...datedByAddress(metadata, url),
    stage: article.stage,
    parserFailures: article.parserFailures,
    // A shell's description of itself is no text its body holds: it stays sparse.
    sparseShell: detectSparseShell(html, article.stage === 'page-description' ? '' : article.text),
  };
}

/**
 * What a page read by streaming states of itself: its metadata as its `<meta>` tags, JSON-LD and
 * `<html lang>` give it (see `stated-markup.ts`). A statement that cannot be read is no statement.
 */
async function readStreamedStatement(stated: DomNode): Promise<PageStatement> {
  const { readStatedMetadata } = await import('./html/page-metadata.js');
  try {
    return readStatedMetadata(stated);
  } catch (error) {
    if (WebToolError.isInstance(error)) throw error;
    return NO_STATEMENT;
  }
}

/**
 * Runs the DOM stages on a page within their bounds; a failure other than a `WebToolError` says
 * why, and leaves no article when extraction itself broke (the page's statement, when it was read
 * before, stays).
 */
async function runDomStages(html: string, url: string, strategy: ExtractStrategy): Promise<DomStagesResult> {
  // Loaded before the DOM stages' time budget starts, so that it bounds their work alone.
  await Promise.all([loadLinkedom(), loadReadability(), loadDefuddle(), loadTurndown()]);
  strategy.onDomStages?.();
  let statement: PageStatement | undefined;
  try {
    // The page is parsed once: its metadata is read from the document as served, before the stages
    // change it (extraction drops the head and the byline with the chrome), and the stages go on
    // with the same document. Loaded here, like the DOM stages, so a worker that never reads HTML
    // never loads it.
    const parsed = await parseHtmlDocument(html);
    const { readDocumentMetadata } = await import('./html/page-metadata.js');
    statement = await readDocumentMetadata(parsed, html).catch((error: unknown) => {
      // A page whose metadata cannot be read still has its article, without metadata.
      if (WebToolError.isInstance(error)) throw error;
      return NO_STATEMENT;
    });
    const article = await extractHtml(html, url, parsed);
    return { article, statement, streamReason: undefined };
  } catch (error) {
    if (WebToolError.isInstance(error)) throw error;
    return { article: undefined, statement, streamReason: `failed: ${failureReason(error)}` };
  }
}

function validate(options: ExtractOptions, format: OutputFormat): void {
  if (!OUTPUT_FORMATS.includes(format)) {
    throw invalid(`format must be one of ${OUTPUT_FORMATS.join(', ')}.`, {
      format: String(format).slice(0, 40),
    });
  }
  if (typeof options.body !== 'string' && !(options.body instanceof Uint8Array)) {
    throw invalid('body must be a Uint8Array or a string.', {});
  }
  let parsed: URL;
  try {
    parsed = new URL(options.url);
  } catch {
    throw invalid('url must be an absolute http(s) URL.', {});
  }
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') {
    throw invalid('url must be an absolute http(s) URL.', { protocol: parsed.protocol });
  }
}

function invalid(message: string, details: Record<string, unknown>): WebToolError {
  return new WebToolError({ code: 'validation_error', message, details });
}
