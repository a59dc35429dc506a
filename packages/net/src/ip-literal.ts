/**
 * `isIP` of `node:net` (4, 6 or 0), loading `node:net` (and the streams it brings) only for text that
 * could be an address: IPv4 text is digits and dots alone, IPv6 text has a colon, so anything else
 * (every host name) is 0 without asking. A process that only checks names never loads it.
 */
export function isIP(text: string): number {
  if (!text.includes(':') && !/^[\d.]+$/.test(text)) return 0;
  return process.getBuiltinModule('node:net').isIP(text);
}
