/**
 * Byte ranges of stored values: resolving a `ByteRange` against a value's size, and
 * checking the ranges of a scatter read. Stores call them on their range paths (their own
 * module, so a bundle whose reads take whole values leaves them out of its first chunk).
 */
import { ZarrError } from "./errors.js";
import type { ByteRange, ReadIntoRange } from "./store.js";

/**
 * Resolves a byte range against a value of `size` bytes, returning `[start, end)`
 * clamped to the value. Throws `INVALID_ARGUMENT` for negative or non-integer numbers.
 */
export function resolveByteRange(range: ByteRange, size: number): [number, number] {
  if ("suffixLength" in range) {
    const n = range.suffixLength;
    if (!Number.isSafeInteger(n) || n < 0) throw new ZarrError("INVALID_ARGUMENT", `Invalid suffix length ${n}`);
    return [Math.max(0, size - n), size];
  }
  const { offset, length } = range;
  if (!Number.isSafeInteger(offset) || offset < 0) {
    throw new ZarrError("INVALID_ARGUMENT", `Invalid range offset ${offset}`);
  }
  if (length !== undefined && (!Number.isSafeInteger(length) || length < 0)) {
    throw new ZarrError("INVALID_ARGUMENT", `Invalid range length ${length}`);
  }
  const start = Math.min(offset, size);
  const end = length === undefined ? size : Math.min(size, offset + length);
  return [start, end];
}

/**
 * Checks the ranges of a scatter read (`readInto`) before any I/O: each offset a
 * non-negative safe integer and each target a `Uint8Array`. Resolves the span they cover,
 * `[first, end)` (`[0, 0]` when every target is empty). Throws `INVALID_ARGUMENT` naming the
 * key and the bad range.
 */
export function checkReadIntoRanges(key: string, ranges: readonly ReadIntoRange[]): [number, number] {
  let first = Infinity;
  let end = 0;
  for (let i = 0; i < ranges.length; i++) {
    const { offset, target } = ranges[i];
    if (!Number.isSafeInteger(offset) || offset < 0 || !(target instanceof Uint8Array)) {
      const what = target instanceof Uint8Array ? `offset ${offset}` : "a target that is not a Uint8Array";
      throw new ZarrError("INVALID_ARGUMENT", `Invalid scatter-read range ${i} for key ${JSON.stringify(key)}: ${what}`, { key });
    }
    if (target.length === 0) continue;
    first = Math.min(first, offset);
    end = Math.max(end, offset + target.length);
  }
  return end === 0 ? [0, 0] : [first, end];
}
