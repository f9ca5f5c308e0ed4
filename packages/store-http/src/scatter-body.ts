/**
 * Copying a response body into scatter-read targets as it arrives (for
 * `HttpStore.readInto`): no buffer ever holds the whole body.
 */
import type { ReadIntoRange } from "@zarr/spec";
import { pipeBounded } from "./bounded-body.js";
import { kit } from "./kit.js";

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
export function scatterBody(
  response: Response,
  start: number,
  ranges: readonly ReadIntoRange[],
  expected: number | undefined,
): Promise<number> {
  return kit.pipeExactBody(response, expected, scatterInto(start, ranges));
}

/**
 * Scatters a body that is the whole value (a server that ignored `Range`) into the
 * targets of `ranges` (sorted by offset), which end at `last`. With the value's size
 * `declared` known, reading stops once byte `last` has arrived (the rest is never
 * transferred); without it the body is streamed to its end (nothing more is kept) to
 * learn the size, at most `limit` bytes (`BodyLimitExceeded`). Resolves the value's size.
 */
export async function scatterWhole(
  response: Response,
  ranges: readonly ReadIntoRange[],
  last: number,
  declared: number | undefined,
  limit: number,
): Promise<number> {
  if (declared !== undefined && declared < last) return declared; // too short for the ranges: nothing to copy
  const scatter = scatterInto(0, ranges);
  const { received } = await pipeBounded(response, limit, (piece, at) => {
    scatter(piece, at);
    return declared !== undefined && at + piece.length >= last;
  });
  return declared ?? received;
}

/** A body sink copying pieces (the first at value offset `start`) into the overlapping targets. */
function scatterInto(start: number, ranges: readonly ReadIntoRange[]): (piece: Uint8Array, at: number) => void {
  let first = 0; // ranges before this one end at or before the current piece
  return (piece, at) => {
    const position = start + at; // value offset of the piece's first byte
    const end = position + piece.length;
    for (let i = first; i < ranges.length && ranges[i].offset < end; i++) {
      const { offset, target } = ranges[i];
      const from = Math.max(offset, position);
      const to = Math.min(offset + target.length, end);
      if (from < to) target.set(piece.subarray(from - position, to - position), from - offset);
    }
    while (first < ranges.length && ranges[first].offset + ranges[first].target.length <= end) first++;
  };
}
