/**
 * The xz delta filter: each byte is stored as its difference from the byte `distance`
 * positions earlier (bytes before the start count as zero). Distance is 1..256.
 */

/** Undoes the delta filter in place over `buf[start, end)`. */
export function deltaDecode(buf: Uint8Array, start: number, end: number, distance: number): void {
  // The first `distance` bytes have only zero history; the rest add the already-decoded byte.
  for (let i = start + distance; i < end; i++) buf[i] += buf[i - distance];
}

/** Applies the delta filter in place: `buf[i] -= buf[i - distance]`, back to front. */
export function deltaEncode(buf: Uint8Array, distance: number): void {
  for (let i = buf.length - 1; i >= distance; i--) buf[i] -= buf[i - distance];
}
