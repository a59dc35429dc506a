/** Collapses every run of whitespace (non-breaking spaces included) to one space and trims the ends. */
export function normalizeText(text: string): string {
  return text.replace(/\s+/g, ' ').trim();
}
