/**
 * Lazy projections of a range onto a partition: the same projections as `projectRange`,
 * computed one at a time when asked for, so that a read touching millions of chunks along
 * one dimension (or 10^15 of them) holds a constant amount of memory for its plan.
 */
import type { DimensionPartition } from "./chunk-grid.js";
import { checkRange, chunkRunAt, type DimProjections, projectRange, type RangeChunkProjection, type RangeSelection } from "./indexer.js";

/**
 * {@link projectRange}'s projections as a lazy sequence: the count is arithmetic, and the
 * `i`-th projection is computed when asked for, in one step whatever `i`, on a partition
 * that declares `uniformSize` or for a step of ±1. A range with |step| > 1 over chunks of
 * varying sizes gets `projectRange`'s array: such a (rectilinear) grid lists every chunk's
 * size anyway, so the array is no larger than the metadata, and no walking code ships.
 * Throws as `projectRange` does for a malformed range or one outside `[0, length)`.
 *
 * @example
 * ```ts
 * const seq = rangeProjections({ start: 0, step: 1, count: 1e15 }, regularPartition(1, 1e15), 1e15);
 * seq.length; // 1e15, in constant memory
 * seq.at(123); // {chunk: 123, src: {start: 0, step: 1, count: 1}, dst: {start: 123, step: 1, count: 1}, covers: true}
 * ```
 */
export function rangeProjections(sel: RangeSelection, part: DimensionPartition, length: number): DimProjections {
  if (part.uniformSize === undefined && Math.abs(sel.step) > 1) {
    const all = projectRange(sel, part, length);
    // Indexed, not `Array.prototype.at`: a negative or fractional `i` is undefined here too.
    return { length: all.length, at: (i) => all[i] };
  }
  checkRange(sel, length);
  // Chunks of a uniform size, or a step of ±1: the chunks touched follow by arithmetic.
  // (A closure, not a class: its names minify, bundle size.)
  const { start, step, count } = sel;
  const range: RangeSelection = { start, step, count };
  // Each position lies in a chunk of its own: |step| is at least the uniform chunk size.
  const apart = Math.abs(step) >= (part.uniformSize ?? Infinity);
  const firstChunk = count === 0 ? 0 : part.chunkOf(start);
  // A shorter step visits every chunk between the first position's and the last one's.
  const n = count === 0 ? 0 : apart ? count : Math.abs(part.chunkOf(start + (count - 1) * step) - firstChunk) + 1;
  /** The position in the range (`k`, 0-based) of the first one in the `i`-th chunk touched. */
  const firstPosition = (i: number): number => {
    if (apart) return i;
    // The chunks touched are consecutive: the i-th is i chunks on from the first, in the step's direction.
    const c = firstChunk + (step > 0 ? i : -i);
    const low = part.start(c);
    // First position at or past the chunk's edge the range enters it from.
    return Math.max(0, Math.ceil((step > 0 ? low - start : start - (low + part.size(c) - 1)) / Math.abs(step)));
  };
  // The last projection asked for, and its place: the plan asks for each several times.
  let index = -1;
  let current: RangeChunkProjection | undefined;
  return {
    length: n,
    at(i) {
      if (!Number.isInteger(i) || i < 0 || i >= n) return undefined;
      if (i !== index) {
        current = chunkRunAt(range, part, length, firstPosition(i));
        index = i;
      }
      return current;
    },
  };
}
