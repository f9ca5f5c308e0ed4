/**
 * Chunk keys read as numbers. A reference set is mostly chunk keys (`temp/0.1.2`,
 * `temp/c/0/1/2`): one array's prefix, then grid coordinates. Held as one string each in a
 * `Map`, a million of them take ~70 MB; held as a dense index over the array's chunk grid,
 * 4 bytes. This module splits a key's UTF-8 bytes into its prefix and coordinates, so the
 * table can place it without making a string of it.
 */

/** The most dimensions a key is read as coordinates for (longer ones stay text). */
export const MAX_KEY_DIMENSIONS = 32;

/** Digits of a coordinate (below 10^9, so well inside 2^31); longer runs stay text. */
const MAX_DIGITS = 9;

/** A key split by {@link splitChunkKey}: bytes `start`..`prefixEnd` are the prefix, `coords[0..ndim)` the coordinates. */
export interface ChunkKey {
  prefixEnd: number;
  /** The byte between coordinates: `.` or `/` (`.` when there is one coordinate). */
  separator: number;
  ndim: number;
  readonly coords: Uint32Array;
}

/** A {@link ChunkKey} to fill. */
export function chunkKey(): ChunkKey {
  return { prefixEnd: 0, separator: 0x2e, ndim: 0, coords: new Uint32Array(MAX_KEY_DIMENSIONS) };
}

/** The start of the digit run ending at `end` (not before `start`); `end` when there is none. */
function runStart(bytes: Uint8Array, start: number, end: number): number {
  let j = end;
  while (j > start && bytes[j - 1] >= 0x30 && bytes[j - 1] <= 0x39) j--;
  return j;
}

/** The value of the digits `bytes[from..to)` when they are a canonical coordinate (no leading zero, at most 9 digits), else -1. */
function coordinate(bytes: Uint8Array, from: number, to: number): number {
  const digits = to - from;
  if (digits === 0 || digits > MAX_DIGITS || (digits > 1 && bytes[from] === 0x30)) return -1;
  let value = 0;
  for (let k = from; k < to; k++) value = value * 10 + (bytes[k] - 0x30);
  return value;
}

/**
 * Splits the key in `bytes[start..end)` into a prefix and the decimal coordinates it ends
 * with, joined by one separator (`.` or `/`), into `out`; false when the key does not end
 * in a coordinate. Only canonical numbers (no leading zeros, at most 9 digits) count, so
 * `prefix + coords.join(separator)` gives back exactly the key: `v/0.1` is `v/` with (0, 1),
 * `v/c/0/1` is `v/c/` with (0, 1), `v/1/2.3` is `v/1/` with (2, 3); `v/007` is not split.
 */
export function splitChunkKey(bytes: Uint8Array, start: number, end: number, out: ChunkKey): boolean {
  const coords = out.coords;
  let i = runStart(bytes, start, end);
  const last = coordinate(bytes, i, end);
  if (last < 0) return false;
  // Coordinates from the last one back, written from the end of `coords`.
  let ndim = 1;
  coords[MAX_KEY_DIMENSIONS - 1] = last;
  let separator = 0;
  while (i > start && ndim < MAX_KEY_DIMENSIONS) {
    const before = bytes[i - 1];
    if ((before !== 0x2e && before !== 0x2f) || (separator !== 0 && before !== separator)) break;
    const from = runStart(bytes, start, i - 1);
    const value = coordinate(bytes, from, i - 1);
    if (value < 0) break;
    separator = before;
    coords[MAX_KEY_DIMENSIONS - 1 - ndim++] = value;
    i = from;
  }
  coords.copyWithin(0, MAX_KEY_DIMENSIONS - ndim, MAX_KEY_DIMENSIONS);
  out.ndim = ndim;
  out.prefixEnd = i;
  out.separator = ndim > 1 ? separator : 0x2e;
  return true;
}
