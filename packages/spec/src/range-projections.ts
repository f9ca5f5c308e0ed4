/**
 * Lazy projections of a range onto a partition: the same projections as `projectRange`,
 * computed one at a time when asked for, so that a read touching millions of chunks along
 * one dimension (or 10^15 of them) holds a constant amount of memory for its plan.
 */
import type { DimensionPartition } from "./chunk-grid.js";
import { checkRange, chunkRunAt, type DimProjections, type RangeChunkProjection, type RangeSelection } from "./indexer.js";

/**
 * {@link projectRange}'s projections as a lazy sequence: the count is arithmetic, and the
 * `i`-th projection is computed when asked for. Asking in order (what `chunkProjections`
 * does) costs one step each; on a partition that declares `uniformSize`, or for a step of
 * ±1, any `i` costs one step. Only a range with |step| > 1 over chunks of varying sizes
 * walks the chunks (once to count them, and from the last one asked for).
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
  checkRange(sel, length);
  return new RangeProjections({ start: sel.start, step: sel.step, count: sel.count }, part, length);
}

class RangeProjections implements DimProjections {
  readonly length: number;
  /** The chunk index of the first position. */
  readonly #firstChunk: number;
  /** The last projection asked for, and its place in the sequence. */
  #index = -1;
  #current: RangeChunkProjection | undefined;

  constructor(
    private readonly sel: RangeSelection,
    private readonly part: DimensionPartition,
    /** The array's (or shard's) length along the dimension. */
    private readonly extent: number,
  ) {
    this.#firstChunk = sel.count === 0 ? 0 : part.chunkOf(sel.start);
    this.length = this.#count();
  }

  at(i: number): RangeChunkProjection | undefined {
    if (!Number.isInteger(i) || i < 0 || i >= this.length) return undefined;
    if (i === this.#index) return this.#current;
    const current = chunkRunAt(this.sel, this.part, this.extent, this.#firstPosition(i));
    this.#index = i;
    this.#current = current;
    return current;
  }

  /** Chunks the range touches. */
  #count(): number {
    const { start, step, count } = this.sel;
    if (count === 0) return 0;
    const last = start + (count - 1) * step;
    const size = this.part.uniformSize;
    if (size !== undefined) {
      // A step of a chunk or more puts each position in a chunk of its own; a shorter one
      // visits every chunk between the first position's and the last one's.
      return Math.abs(step) >= size ? count : Math.abs(Math.floor(last / size) - Math.floor(start / size)) + 1;
    }
    if (Math.abs(step) === 1) return Math.abs(this.part.chunkOf(last) - this.#firstChunk) + 1;
    // Sizes vary and the step may skip chunks: walk them (such a grid lists every chunk's size anyway).
    let n = 0;
    for (let k = 0; k < count; k += chunkRunAt(this.sel, this.part, this.extent, k).dst.count) n++;
    return n;
  }

  /** The position in the range (`k`, 0-based) of the first one in the `i`-th chunk touched. */
  #firstPosition(i: number): number {
    if (i === 0) return 0;
    const previous = this.#current;
    if (i === this.#index + 1 && previous !== undefined) return previous.dst.start + previous.dst.count;
    const { start, step } = this.sel;
    const size = this.part.uniformSize;
    if (size !== undefined && Math.abs(step) >= size) return i;
    if (size !== undefined || Math.abs(step) === 1) {
      // The chunks touched are consecutive: the i-th is i chunks on from the first, in the step's direction.
      const c = this.#firstChunk + (step > 0 ? i : -i);
      const low = this.part.start(c);
      // First position at or past the chunk's edge the range enters it from.
      const distance = step > 0 ? low - start : start - (low + this.part.size(c) - 1);
      return Math.max(0, Math.ceil(distance / Math.abs(step)));
    }
    // Walk on from the last one asked for when it lies before, else from the start.
    let j = this.#index >= 0 && this.#index < i && previous !== undefined ? this.#index + 1 : 0;
    let k = j === 0 ? 0 : (previous as RangeChunkProjection).dst.start + (previous as RangeChunkProjection).dst.count;
    for (; j < i; j++) k += chunkRunAt(this.sel, this.part, this.extent, k).dst.count;
    return k;
  }
}
