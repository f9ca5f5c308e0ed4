/**
 * Projects a selection onto a chunk grid: for every chunk the selection touches, which
 * chunk-local positions it picks, where they land in the selection's result, and
 * whether it picks every position of the chunk. Used for arrays (their chunk grid) and
 * for shards (their regular grid of inner chunks). Work is proportional to the chunks
 * touched (and the listed indices), never to the size of the array or shard.
 */
import type { DimensionPartition } from "./chunk-grid.js";
import { ZarrError } from "./errors.js";
import { inArrayExtent, outside } from "./indexer-parts.js";
import type { DimIndexer } from "./ndarray.js";

/** One chunk's share of one dimension's selection. */
export interface DimChunkProjection {
  /** Chunk index along the dimension. */
  chunk: number;
  /** Chunk-local positions, in the order the selection lists them. */
  src: DimIndexer;
  /** Positions in the selection's result, one per entry of `src`. */
  dst: DimIndexer;
  /**
   * Every position of the chunk that lies inside the array (or shard) is selected, so a
   * write may replace the chunk without reading it.
   */
  covers: boolean;
}

/** One chunk touched by a selection: the per-dimension projections combined. */
export interface ChunkProjection {
  /** Chunk grid coordinates. */
  coords: number[];
  /** Chunk-local positions, per dimension. */
  src: DimIndexer[];
  /** Positions in the selection's result, per dimension. */
  dst: DimIndexer[];
  /** Every in-array position of the chunk is selected. */
  covers: boolean;
}

/**
 * One dimension's chunk projections, in the order the selection reaches the chunks: an
 * array ({@link projectRange}, `projectDimension`), or a lazy sequence
 * ({@link rangeProjections}) that computes each one when asked, so a range over millions
 * of chunks holds none of them in memory.
 */
export interface DimProjections {
  readonly length: number;
  /** The `i`-th projection (0 ≤ i < length). */
  at(i: number): DimChunkProjection | undefined;
}

/** A {@link ChunkProjection} with the chunk's linear index in the grid. */
export interface LinearChunkProjection extends ChunkProjection {
  /** `Σ coords[d] * gridStrides[d]`: with C-order strides, the chunk's C-order index. */
  linear: number;
}

/** Equal chunks of `chunkSize` over `[0, extent)`; the last one may overhang the edge. */
class RegularDimensionPartition implements DimensionPartition {
  readonly count: number;
  readonly uniformSize: number;
  constructor(
    private readonly chunkSize: number,
    extent: number,
  ) {
    this.count = Math.ceil(extent / chunkSize);
    this.uniformSize = chunkSize;
  }
  start(i: number): number {
    return i * this.chunkSize;
  }
  size(): number {
    return this.chunkSize;
  }
  chunkOf(index: number): number {
    return Math.floor(index / this.chunkSize);
  }
}

/**
 * A regular partition of `[0, extent)` into chunks of `chunkSize` (the last one may
 * overhang `extent`), e.g. a shard's grid of inner chunks along one dimension.
 *
 * @example
 * ```ts
 * const part = regularPartition(4, 10); // chunks [0,4) [4,8) [8,12)
 * part.count;      // 3
 * part.chunkOf(9); // 2
 * ```
 */
export function regularPartition(chunkSize: number, extent: number): DimensionPartition {
  if (!Number.isSafeInteger(chunkSize) || chunkSize < 1) {
    throw new ZarrError("INVALID_ARGUMENT", `A chunk size must be a positive integer, got ${chunkSize}`);
  }
  if (!Number.isSafeInteger(extent) || extent < 0) {
    throw new ZarrError("INVALID_ARGUMENT", `An extent must be a non-negative integer, got ${extent}`);
  }
  return new RegularDimensionPartition(chunkSize, extent);
}

/**
 * {@link projectDimension} for an arithmetic progression (`step` may be negative), the
 * selections of slices and integers. Apart from the index lists' projection, so a reader
 * that selects no index lists does not load that.
 *
 * @example
 * ```ts
 * projectRange({ start: 2, step: 1, count: 5 }, regularPartition(4, 10), 10);
 * // [{chunk: 0, src: {start: 2, step: 1, count: 2}, dst: {start: 0, step: 1, count: 2}, covers: false},
 * //  {chunk: 1, src: {start: 0, step: 1, count: 3}, dst: {start: 2, step: 1, count: 3}, covers: false}]
 * ```
 */
export function projectRange(sel: RangeSelection, part: DimensionPartition, length: number): DimChunkProjection[] {
  checkRange(sel, length);
  const out: DimChunkProjection[] = [];
  for (let k = 0; k < sel.count; ) {
    const run = chunkRunAt(sel, part, length, k);
    out.push(run);
    k += run.dst.count;
  }
  return out;
}

/** An arithmetic progression of positions: `start`, `start + step`, … (`count` of them). */
export interface RangeSelection {
  start: number;
  step: number;
  count: number;
}

/** A {@link DimChunkProjection} of a range: its positions are ranges too. */
export interface RangeChunkProjection extends DimChunkProjection {
  src: RangeSelection;
  dst: RangeSelection;
}

/**
 * Throws `INVALID_ARGUMENT` for a malformed range and `OUT_OF_BOUNDS` for one reaching
 * outside `[0, length)`.
 */
export function checkRange(sel: RangeSelection, length: number): void {
  const { start, step, count } = sel;
  if (!Number.isSafeInteger(count) || count < 0) {
    throw new ZarrError("INVALID_ARGUMENT", `A dimension selection has an invalid count ${count}`);
  }
  if (count === 0) return;
  if (!Number.isSafeInteger(start) || !Number.isSafeInteger(step) || step === 0) {
    throw new ZarrError("INVALID_ARGUMENT", `A dimension range needs integers and a non-zero step (start ${start}, step ${step})`);
  }
  const last = start + (count - 1) * step;
  if (Math.min(start, last) < 0 || Math.max(start, last) >= length) {
    throw outside(`reaches from ${start} to ${last}`, length);
  }
}

/**
 * The projection of the chunk holding the `k`-th position of a (checked) range: the run of
 * positions from `k` on that fall in that chunk.
 */
export function chunkRunAt(sel: RangeSelection, part: DimensionPartition, length: number, k: number): RangeChunkProjection {
  const { step, count } = sel;
  const i = sel.start + k * step;
  const c = part.chunkOf(i);
  const cs = part.start(c);
  const extent = inArrayExtent(part, c, length);
  // Positions of this chunk the progression still visits from `i` on.
  const room = step > 0 ? Math.floor((cs + extent - 1 - i) / step) + 1 : Math.floor((i - cs) / -step) + 1;
  const n = Math.min(count - k, room);
  return {
    chunk: c,
    src: { start: i - cs, step, count: n },
    dst: { start: k, step: 1, count: n },
    // n distinct in-chunk positions: all of them exactly when n equals the extent
    // (for |step| > 1 that happens only when the extent is 1).
    covers: n === extent,
  };
}

/** Number of chunks the per-dimension projections combine into. */
export function countChunks(perDim: readonly DimProjections[]): number {
  let n = 1;
  for (const d of perDim) n *= d.length;
  return n;
}

/**
 * Every chunk a selection touches: the cartesian product of `perDim`, one
 * {@link projectDimension} result per dimension, in C order (last dimension fastest) or,
 * with `order: "F"`, first dimension fastest. A 0-d selection touches its one chunk.
 *
 * Readers that fill one result from several chunks at once use "F": chunks read at the
 * same time then lie in different rows of chunks, so they write disjoint pages of the
 * result. In C order neighbours share every page along their common edge, and threads
 * filling them at once fault on the same fresh pages (a third more page faults on a
 * 256 MiB read from disk, and contention in the kernel).
 */
export function* chunkProjections(
  perDim: readonly DimProjections[],
  order: "C" | "F" = "C",
): Generator<ChunkProjection> {
  for (const p of product(perDim, undefined, order)) yield p;
}

/**
 * {@link chunkProjections} with each chunk's linear index `Σ coords[d] * gridStrides[d]`;
 * pass `cStrides(gridShape)` for the C-order index (a shard's index entry).
 */
export function* linearChunkProjections(
  perDim: readonly DimProjections[],
  gridStrides: readonly number[],
): Generator<LinearChunkProjection> {
  if (gridStrides.length !== perDim.length) {
    throw new ZarrError("INVALID_ARGUMENT", `${gridStrides.length} grid strides for a selection of ${perDim.length} dimensions`);
  }
  for (const p of product(perDim, gridStrides, "C")) yield p as LinearChunkProjection;
}

function* product(
  perDim: readonly DimProjections[],
  gridStrides: readonly number[] | undefined,
  order: "C" | "F",
): Generator<ChunkProjection | LinearChunkProjection> {
  const ndim = perDim.length;
  if (perDim.some((d) => d.length === 0)) return;
  const counters = new Array<number>(ndim).fill(0);
  for (;;) {
    const coords = new Array<number>(ndim);
    const src = new Array<DimIndexer>(ndim);
    const dst = new Array<DimIndexer>(ndim);
    let covers = true;
    let linear = 0;
    for (let d = 0; d < ndim; d++) {
      const p = perDim[d].at(counters[d]) as DimChunkProjection;
      coords[d] = p.chunk;
      src[d] = p.src;
      dst[d] = p.dst;
      covers &&= p.covers;
      if (gridStrides !== undefined) linear += p.chunk * gridStrides[d];
    }
    yield gridStrides === undefined ? { coords, src, dst, covers } : { linear, coords, src, dst, covers };
    // Advance like an odometer whose fastest wheel is the last dimension (C) or the first (F).
    let k = 0;
    for (; k < ndim; k++) {
      const d = order === "C" ? ndim - 1 - k : k;
      if (++counters[d] < perDim[d].length) break;
      counters[d] = 0;
    }
    if (k === ndim) return;
  }
}
