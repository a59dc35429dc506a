import { WebToolError } from '@mono-agent/budget-policy';
import { parseContentType } from './content-type.js';
import { countReplacements, type DecodedBody, decodeBody } from './decode-body.js';
import { detectKind } from './detect-kind.js';
import { extractHtml } from './extract-html.js';
import { extractJson } from './extract-json.js';
import { extractPdf } from './extract-pdf.js';
import { parseXml } from './extract-xml.js';
import { feedToMarkdown } from './feed-to-markdown.js';
import { markdownToText } from './markdown-to-text.js';
import { assertParseable } from './structured-limit.js';
import { type ExtractedDocument, OUTPUT_FORMATS, type OutputFormat } from './types.js';

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
  const format = options.format ?? 'markdown';
  validate(options, format);
  const { mediaType, charset: headerCharset } = parseContentType(options.contentType);
  const { body, url } = options;
  const kind = detectKind(mediaType, body);
  const byteLength = typeof body === 'string' ? Buffer.byteLength(body, 'utf8') : body.byteLength;

  if (kind === 'pdf') {
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

  const decoded: DecodedBody =
    typeof body === 'string'
      ? { text: body, charset: 'utf-8', charsetSource: 'string', replacementCount: countReplacements(body) }
      : await decodeBody(body, {
          headerCharset,
          declaration: kind === 'html' ? 'html' : kind === 'xml' || kind === 'feed' ? 'xml' : 'none',
        });
  const base = {
    url,
    format,
    charset: decoded.charset,
    charsetSource: decoded.charsetSource,
    replacementCount: decoded.replacementCount,
  };
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
  if (kind === 'xml' || kind === 'feed') {
    const xml = await parseXml(decoded.text, url);
    if (xml.kind === 'xml') {
      return { ...base, kind: 'xml', content: decoded.text.trim(), stage: 'xml', parserFailures: [] };
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
  const article = await extractHtml(decoded.text, url);
  return {
    ...base,
    kind,
    content: format === 'text' ? article.text : article.markdown,
    ...(article.title === undefined ? {} : { title: article.title }),
    stage: article.stage,
    parserFailures: article.parserFailures,
  };
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
