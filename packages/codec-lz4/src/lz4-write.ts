/**
 * Writing LZ4 sequences: shared by the fast and the high-compression encoders. Both
 * functions return the new output position, or −1 when the sequence does not fit
 * before `outputEnd`.
 */

/** Copies `count` bytes; short runs byte by byte, long ones with `set`. */
function copyBytes(src: Uint8Array, from: number, count: number, dst: Uint8Array, to: number): void {
  if (count < 32) {
    for (let i = 0; i < count; i++) dst[to + i] = src[from + i];
  } else {
    dst.set(src.subarray(from, from + count), to);
  }
}

/** Writes the bytes of a length beyond the token's 15 (255, 255, ..., remainder). */
function writeLengthBytes(rest: number, output: Uint8Array, op: number): number {
  while (rest >= 255) {
    output[op++] = 255;
    rest -= 255;
  }
  output[op++] = rest;
  return op;
}

/**
 * Writes one sequence: `literalCount` literals from `input[literalStart...]`, then a
 * match of `matchLength` (≥ 4) bytes at distance `offset` (1…65535).
 */
export function writeSequence(
  input: Uint8Array,
  literalStart: number,
  literalCount: number,
  offset: number,
  matchLength: number,
  output: Uint8Array,
  op: number,
  outputEnd: number,
): number {
  // Upper bound of the sequence's size: token, length bytes, literals, offset.
  const worst = literalCount + ((literalCount / 255) | 0) + ((matchLength / 255) | 0) + 5;
  if (op + worst > outputEnd) return -1;
  const ml = matchLength - 4;
  const tokenPos = op++;
  let token: number;
  if (literalCount >= 15) {
    token = 0xf0;
    op = writeLengthBytes(literalCount - 15, output, op);
  } else {
    token = literalCount << 4;
  }
  copyBytes(input, literalStart, literalCount, output, op);
  op += literalCount;
  output[op++] = offset & 0xff;
  output[op++] = offset >>> 8;
  if (ml >= 15) {
    token |= 15;
    op = writeLengthBytes(ml - 15, output, op);
  } else {
    token |= ml;
  }
  output[tokenPos] = token;
  return op;
}

/** Writes the final literals-only sequence. */
export function writeLastLiterals(
  input: Uint8Array,
  literalStart: number,
  literalCount: number,
  output: Uint8Array,
  op: number,
  outputEnd: number,
): number {
  const worst = literalCount + ((literalCount / 255) | 0) + 2;
  if (op + worst > outputEnd) return -1;
  if (literalCount >= 15) {
    output[op++] = 0xf0;
    op = writeLengthBytes(literalCount - 15, output, op);
  } else {
    output[op++] = literalCount << 4;
  }
  copyBytes(input, literalStart, literalCount, output, op);
  return op + literalCount;
}
