/**
 * Copying a response body into scatter-read targets as it arrives (for
 * `HttpStore.readInto`): no buffer ever holds the whole body.
 */
import type { ReadIntoRange } from "@zarr/spec";
import { TransientError } from "./transient-error.js";

/** The ranges sorted by offset (the same array when they already are). */
export function sortedByOffset(ranges: readonly ReadIntoRange[]): readonly ReadIntoRange[] {
  for (let i = 1; i < ranges.length; i++) {
    if (ranges[i].offset < ranges[i - 1].offset) return [...ranges].sort((a, b) => a.offset - b.offset);
  }
  return ranges;
}

/**
 * Streams `response`'s body, whose first byte is byte `start` of the value, into the
 * targets of `ranges` (sorted by offset) that it overlaps. With `expected` set the body
 * must be exactly that long (else `TransientError`: the caller retries). Resolves the
 * number of body bytes received.
 */
export async function scatterBody(
  response: Response,
  start: number,
  ranges: readonly ReadIntoRange[],
  expected: number | undefined,
): Promise<number> {
  const body = response.body;
  if (body === null) {
    if (expected !== undefined && expected !== 0) throw new TransientError(`the response has no body, expected ${expected} bytes`);
    return 0;
  }
  const reader = body.getReader();
  let position = start; // value offset of the next body byte
  let first = 0; // ranges before this one end at or before `position`
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      const end = position + value.length;
      if (expected !== undefined && end - start > expected) {
        throw new TransientError(`the body is longer than the ${expected} bytes announced`);
      }
      for (let i = first; i < ranges.length && ranges[i].offset < end; i++) {
        const { offset, target } = ranges[i];
        const from = Math.max(offset, position);
        const to = Math.min(offset + target.length, end);
        if (from < to) target.set(value.subarray(from - position, to - position), from - offset);
      }
      while (first < ranges.length && ranges[first].offset + ranges[first].target.length <= end) first++;
      position = end;
    }
  } catch (error) {
    reader.cancel().catch(() => {});
    throw error;
  }
  const received = position - start;
  if (expected !== undefined && received !== expected) {
    throw new TransientError(`the body ended after ${received} of ${expected} bytes (connection closed early)`);
  }
  return received;
}
