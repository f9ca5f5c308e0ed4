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
  return new RangeProjections({ start: sel.start, step: sel.step, count: sel.count }, part, length);
}

/** Chunks of a uniform size, or a step of ±1: the chunks touched follow by arithmetic. */
class RangeProjections implements DimProjections {
  readonly length: number;
  /** The chunk index of the first position. */
  readonly #firstChunk: number;
  /** The last projection asked for, and its place in the sequence (the plan asks for each several times). */
  #index = -1;
  #current: RangeChunkProjection | undefined;

  constructor(
    private readonly sel: RangeSelection,
    private readonly part: DimensionPartition,
    /** The array's (or shard's) length along the dimension. */
    private readonly extent: number,
  ) {
    const { start, step, count } = sel;
    this.#firstChunk = count === 0 ? 0 : part.chunkOf(start);
    // A step of a chunk or more puts each position in a chunk of its own; a shorter one
    // visits every chunk between the first position's and the last one's.
    this.length = count === 0 ? 0 : this.#apart() ? count : Math.abs(part.chunkOf(start + (count - 1) * step) - this.#firstChunk) + 1;
  }

  /** Each position lies in a chunk of its own (|step| at least the uniform chunk size). */
  #apart(): boolean {
    return Math.abs(this.sel.step) >= (this.part.uniformSize ?? Number.POSITIVE_INFINITY);
  }

  at(i: number): RangeChunkProjection | undefined {
    if (!Number.isInteger(i) || i < 0 || i >= this.length) return undefined;
    if (i !== this.#index) {
      this.#current = chunkRunAt(this.sel, this.part, this.extent, this.#firstPosition(i));
      this.#index = i;
    }
    return this.#current;
  }

  /** The position in the range (`k`, 0-based) of the first one in the `i`-th chunk touched. */
  #firstPosition(i: number): number {
    if (this.#apart()) return i;
    const { start, step } = this.sel;
    // The chunks touched are consecutive: the i-th is i chunks on from the first, in the step's direction.
    const c = this.#firstChunk + (step > 0 ? i : -i);
    const low = this.part.start(c);
    // First position at or past the chunk's edge the range enters it from.
    const distance = step > 0 ? low - start : start - (low + this.part.size(c) - 1);
    return Math.max(0, Math.ceil(distance / Math.abs(step)));
  }
}
