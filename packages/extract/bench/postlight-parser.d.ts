// The part of Mercury (@postlight/parser, which ships no type declarations) the benchmark calls.
declare module '@postlight/parser' {
  interface MercuryOptions {
    html?: string;
    contentType?: 'html' | 'markdown' | 'text';
    fetchAllPages?: boolean;
  }
  interface MercuryResult {
    title?: string | null;
    content?: string | null;
  }
  const Mercury: { parse(url: string, options?: MercuryOptions): Promise<MercuryResult | null> };
  export default Mercury;
}
