// CRC-32 (the gzip one) works in GF(2)[x] modulo a fixed polynomial. Appending a zero byte multiplies
// the CRC register by x^8, so n zero bytes multiply it by x^(8n), which square-and-multiply reaches in
// about 2·log2(n) steps: the trailer of a 1 GiB bomb costs microseconds instead of a pass over 1 GiB.
// Values use the reflected bit order of the gzip CRC: bit 31 holds the coefficient of x^0.

const REFLECTED_POLYNOMIAL = 0xedb88320;
const X_TO_THE_0 = 0x80000000;
const X_TO_THE_8 = 0x00800000;

function multiplyModulo(left: number, right: number): number {
  let product = 0;
  let shifted = right;
  for (let bit = X_TO_THE_0; bit !== 0; bit >>>= 1) {
    if ((left & bit) !== 0) product ^= shifted;
    shifted = (shifted & 1) !== 0 ? (shifted >>> 1) ^ REFLECTED_POLYNOMIAL : shifted >>> 1;
  }
  return product >>> 0;
}

function xToThe8n(byteCount: number): number {
  let result = X_TO_THE_0;
  let square = X_TO_THE_8;
  let remaining = byteCount;
  while (remaining > 0) {
    if (remaining % 2 === 1) result = multiplyModulo(result, square);
    square = multiplyModulo(square, square);
    remaining = Math.floor(remaining / 2);
  }
  return result;
}

/** The CRC-32 of `previous`'s data followed by `byteCount` zero bytes, as `zlib.crc32` would report it. */
export function crc32OfZeros(byteCount: number, previous = 0): number {
  if (!Number.isSafeInteger(byteCount) || byteCount < 0)
    throw new RangeError('byteCount must be a safe integer ≥ 0');
  const register = ~previous >>> 0;
  return ~multiplyModulo(register, xToThe8n(byteCount)) >>> 0;
}

/** The Adler-32 of `byteCount` zero bytes: its low sum stays 1 and its high sum grows by 1 per byte. */
export function adler32OfZeros(byteCount: number): number {
  const high = byteCount % 65_521;
  return ((high << 16) | 1) >>> 0;
}
