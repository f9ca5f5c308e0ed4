/** Match extension, shared by the fast and the high-compression LZ4 encoders. */

/**
 * Where a match extended forwards ends: the first position from `end` (below `limit`) at
 * which `input` differs from the bytes from `r` (r < end), or `limit`. `view` is `input`
 * as a DataView. Compares four bytes at a time; of the first word that differs, the equal
 * low bytes count (words are read little-endian, so the low byte comes first).
 */
export function matchEnd(input: Uint8Array, view: DataView, end: number, r: number, limit: number): number {
  while (end + 4 <= limit) {
    const diff = view.getInt32(end, true) ^ view.getInt32(r, true);
    if (diff !== 0) return end + ((31 - Math.clz32(diff & -diff)) >>> 3);
    end += 4;
    r += 4;
  }
  while (end < limit && input[end] === input[r]) {
    end++;
    r++;
  }
  return end;
}
