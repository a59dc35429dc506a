import type { SparseShellSignal } from './html/sparse-shell.js';

/** What the body turned out to be, which decides how it is extracted. */
export type ContentKind = 'html' | 'json' | 'xml' | 'feed' | 'pdf' | 'text';

/** The output shape: article Markdown, plain readable text, or the decoded body unchanged. */
export type OutputFormat = 'markdown' | 'text' | 'raw';

/** The output formats, in the order they are documented. */
export const OUTPUT_FORMATS: readonly OutputFormat[] = ['markdown', 'text', 'raw'];

/** The extraction step whose output became the document's content. */
export type ExtractionStage =
  | 'defuddle'
  | 'readability'
  | 'cleaned-body'
  | 'page-description'
  | 'streamed-text'
  | 'json'
  | 'xml'
  | 'feed'
  | 'pdf'
  | 'text'
  | 'raw';

/** Where the charset used to decode the body came from. */
export type CharsetSource =
  | 'bom'
  | 'header'
  | 'meta'
  | 'xml-declaration'
  /** The bytes themselves: the page declared another charset, but every byte is valid UTF-8. */
  | 'bytes'
  | 'default'
  | 'string'
  | 'binary';

/** A parser that failed, found nothing, or found only a loading shell; the chain went on without it. */
export interface ParserFailure {
  /** The stage that failed. */
  stage: ExtractionStage;
  /** A short, bounded reason (an error class name or rule), never page content. */
  reason: string;
}

/** A body turned into model-readable content. */
export interface ExtractedDocument {
  /** The URL the body came from; relative links were resolved against it. */
  url: string;
  /** What the body is. */
  kind: ContentKind;
  /** The shape of {@link ExtractedDocument.content}. */
  format: OutputFormat;
  /** The extracted content. */
  content: string;
  /** The document's title, when one is known. */
  title?: string;
  /** The byline's names, without "By" (HTML only; absent when the page names no author). */
  author?: string;
  /** When the page says it was published, as an ISO 8601 date or date-time (HTML only). */
  published?: string;
  /** The name of the site or publication, when the page states it (HTML only). */
  siteName?: string;
  /** The page's language as a BCP 47 tag, when it declares one (HTML only). */
  language?: string;
  /** The summary the page gives of itself, when it gives one (HTML only). */
  description?: string;
  /** The charset the body was decoded with (lower-case WHATWG name), or `binary` for PDF. */
  charset: string;
  /** Where {@link ExtractedDocument.charset} came from. */
  charsetSource: CharsetSource;
  /** How many U+FFFD replacement characters the decoded text holds. */
  replacementCount: number;
  /**
   * The charset a detector reads the bytes as, when they did not decode cleanly with
   * {@link ExtractedDocument.charset}. Only a hint for the reader: the content is never decoded with it.
   */
  charsetHint?: string;
  /**
   * The charset the page's `<meta>` or XML declaration named, when its bytes were valid UTF-8
   * throughout and were read as UTF-8 instead ({@link ExtractedDocument.charsetSource} `bytes`).
   */
  declaredCharset?: string;
  /** The extraction step that produced the content. */
  stage: ExtractionStage;
  /** Parsers that failed or found nothing usable on the way (a stage that merely lost is not listed). */
  parserFailures: ParserFailure[];
  /** Number of pages, for PDF documents. */
  pageCount?: number;
  /**
   * For HTML: extracted text length, visible text length and client-rendering markers, and whether
   * together they make the page a sparse application shell that a browser would likely fill in.
   */
  sparseShell?: SparseShellSignal;
}
