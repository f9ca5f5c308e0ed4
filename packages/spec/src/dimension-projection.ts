/**
 * Projects one dimension's selection, a range or a list of indices, onto the chunks of a
 * partition (see indexer.ts for ranges and for combining dimensions).
 */
import type { DimensionPartition } from "./chunk-grid.js";
import { type DimChunkProjection, projectRange } from "./indexer.js";
import { inArrayExtent, outside } from "./indexer-parts.js";
import type { DimIndexer } from "./ndarray.js";

/**
 * Splits one dimension's selection by the chunks of `part`. `sel` is an arithmetic
 * progression (`step` may be negative) or a list of indices (any order, repeats
 * allowed), all within `[0, length)`; `length` is the array's (or shard's) length along
 * the dimension, so that an edge chunk overhanging it is covered once its in-array
 * positions are. An integer index is the range `{start: i, step: 1, count: 1}`.
 * Chunks come in the order the selection reaches them (descending for a negative step,
 * ascending for index lists); within a chunk, positions keep the selection's order.
 * Throws `OUT_OF_BOUNDS` for positions outside `[0, length)` and `INVALID_ARGUMENT`
 * for a malformed range.
 *
 * @example
 * ```ts
 * projectDimension({ start: 9, step: -3, count: 4 }, regularPartition(4, 10), 10);
 * // positions 9, 6, 3, 0:
 * // [{chunk: 2, src: {start: 1, step: -3, count: 1}, dst: {start: 0, step: 1, count: 1}, covers: false},
 * //  {chunk: 1, src: {start: 2, step: -3, count: 1}, dst: {start: 1, step: 1, count: 1}, covers: false},
 * //  {chunk: 0, src: {start: 3, step: -3, count: 2}, dst: {start: 2, step: 1, count: 2}, covers: false}]
 * ```
 */
export function projectDimension(sel: DimIndexer, part: DimensionPartition, length: number): DimChunkProjection[] {
  return "indices" in sel ? projectIndices(sel.indices, part, length) : projectRange(sel, part, length);
}

function projectIndices(indices: ArrayLike<number>, part: DimensionPartition, length: number): DimChunkProjection[] {
  const m = indices.length;
  if (m === 0) return [];
  const chunkOfPoint = new Float64Array(m);
  let grouped = true;
  for (let i = 0; i < m; i++) {
    const v = indices[i];
    if (!Number.isInteger(v) || v < 0 || v >= length) throw outside(`lists index ${v}`, length);
    chunkOfPoint[i] = part.chunkOf(v);
    if (i > 0 && chunkOfPoint[i] < chunkOfPoint[i - 1]) grouped = false;
  }
  // Visit the points grouped by chunk, keeping their order within a chunk (a stable
  // sort; the identity when they already come chunk by chunk).
  let order: ArrayLike<number>;
  if (grouped) {
    const identity = new Float64Array(m);
    for (let i = 0; i < m; i++) identity[i] = i;
    order = identity;
  } else {
    const idx = Array.from({ length: m }, (_, i) => i);
    idx.sort((a, b) => chunkOfPoint[a] - chunkOfPoint[b] || a - b);
    order = idx;
  }
  const out: DimChunkProjection[] = [];
  let p = 0;
  while (p < m) {
    const c = chunkOfPoint[order[p]];
    let q = p;
    while (q < m && chunkOfPoint[order[q]] === c) q++;
    const cs = part.start(c);
    const src = new Float64Array(q - p);
    const dst = new Float64Array(q - p);
    for (let k = p; k < q; k++) {
      src[k - p] = indices[order[k]] - cs;
      dst[k - p] = order[k];
    }
    out.push({ chunk: c, src: { indices: src }, dst: { indices: dst }, covers: coversAll(src, inArrayExtent(part, c, length)) });
    p = q;
  }
  return out;
}

/**
 * Whether `local` (chunk-local positions, repeats allowed) holds every position of
 * `[0, extent)`: counts distinct positions, so repeats never stand in for missing ones.
 */
function coversAll(local: Float64Array, extent: number): boolean {
  if (local.length < extent) return false;
  const seen = new Uint8Array(extent);
  let distinct = 0;
  for (let k = 0; k < local.length; k++) {
    const v = local[k];
    if (seen[v] === 0) {
      seen[v] = 1;
      distinct++;
    }
  }
  return distinct === extent;
}

