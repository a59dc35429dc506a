const ZEROS = Buffer.alloc(1024 * 1024);

/** True when every byte is zero; compares natively in 1 MiB windows instead of byte by byte in JS. */
export function isAllZeros(bytes: Uint8Array): boolean {
  const buffer = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  for (let start = 0; start < buffer.length; start += ZEROS.length) {
    const window = buffer.subarray(start, start + ZEROS.length);
    if (!window.equals(ZEROS.subarray(0, window.length))) return false;
  }
  return true;
}
