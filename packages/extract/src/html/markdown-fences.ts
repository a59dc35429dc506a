/** The opening or closing line of a fenced code block (up to three spaces of indent, as CommonMark allows). */
const FENCE_LINE = /^ {0,3}(`{3,}|~{3,})/;

/**
 * The fence left open once `line` is read, given the fence open before it (`undefined` outside code):
 * a fence line opens one, and a line of the same character at least as long closes it.
 */
export function fenceAfter(line: string, open: string | undefined): string | undefined {
  const marker = FENCE_LINE.exec(line)?.[1];
  if (marker === undefined) return open;
  if (open === undefined) return marker;
  return marker[0] === open[0] && marker.length >= open.length ? undefined : open;
}
