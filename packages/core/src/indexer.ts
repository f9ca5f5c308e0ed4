/**
 * Projects a resolved selection onto the chunk grid: for every chunk the selection
 * touches, which chunk-local positions are read and where they land in the output.
 * Work is proportional to the chunks touched, never to the array's size.
 */
import type { DimensionPartition, DimIndexer } from "@zarr/spec";
import type { ResolvedDim } from "./selection.js";

/** One chunk's share of one dimension's selection. */
export interface DimProjection {
  /** Chunk index along the dimension. */
  chunk: number;
  /** Chunk-local positions. */
  src: DimIndexer;
  /** Output positions (along this dimension of the output, a size-1 dimension for integers). */
  dst: DimIndexer;
  /** True when every position of the chunk that lies inside the array is selected. */
  covers: boolean;
}

/** Projects one resolved dimension onto one dimension of the grid. */
export function projectDimension(sel: ResolvedDim, part: DimensionPartition, length: number): DimProjection[] {
  const validExtent = (c: number) => Math.min(part.start(c) + part.size(c), length) - part.start(c);
  if (sel.kind === "int") {
    const c = part.chunkOf(sel.index);
    return [
      {
        chunk: c,
        src: { start: sel.index - part.start(c), step: 1, count: 1 },
        dst: { start: 0, step: 1, count: 1 },
        covers: validExtent(c) === 1,
      },
    ];
  }
  if (sel.kind === "range") {
    const out: DimProjection[] = [];
    const { start, step, count } = sel;
    let k = 0;
    while (k < count) {
      const i = start + k * step;
      const c = part.chunkOf(i);
      const cs = part.start(c);
      const extent = validExtent(c);
      let n: number;
      if (step > 0) n = Math.min(count - k, Math.floor((cs + extent - 1 - i) / step) + 1);
      else n = Math.min(count - k, Math.floor((i - cs) / -step) + 1);
      out.push({
        chunk: c,
        src: { start: i - cs, step, count: n },
        dst: { start: k, step: 1, count: n },
        covers: (step === 1 || step === -1) && n === extent,
      });
      k += n;
    }
    return out;
  }
  return projectPoints(sel.indices, part, validExtent);
}

function projectPoints(
  indices: Float64Array,
  part: DimensionPartition,
  validExtent: (c: number) => number,
): DimProjection[] {
  const n = indices.length;
  if (n === 0) return [];
  const chunkOfPoint = new Float64Array(n);
  let sorted = true;
  for (let i = 0; i < n; i++) {
    chunkOfPoint[i] = part.chunkOf(indices[i]);
    if (i > 0 && chunkOfPoint[i] < chunkOfPoint[i - 1]) sorted = false;
  }
  // Stable order of points by chunk (identity when already grouped).
  let order: Uint32Array | Float64Array;
  if (sorted) {
    order = new Float64Array(n);
    for (let i = 0; i < n; i++) order[i] = i;
  } else {
    const idx = Array.from({ length: n }, (_, i) => i);
    idx.sort((a, b) => chunkOfPoint[a] - chunkOfPoint[b] || a - b);
    order = Float64Array.from(idx);
  }
  const out: DimProjection[] = [];
  let p = 0;
  while (p < n) {
    const c = chunkOfPoint[order[p]];
    let q = p;
    while (q < n && chunkOfPoint[order[q]] === c) q++;
    const cs = part.start(c);
    const src = new Float64Array(q - p);
    const dst = new Float64Array(q - p);
    for (let k = p; k < q; k++) {
      src[k - p] = indices[order[k]] - cs;
      dst[k - p] = order[k];
    }
    const extent = validExtent(c);
    let covers = false;
    if (src.length >= extent) {
      const seen = new Uint8Array(extent);
      let distinct = 0;
      for (let k = 0; k < src.length; k++) {
        if (seen[src[k]] === 0) {
          seen[src[k]] = 1;
          distinct++;
        }
      }
      covers = distinct === extent;
    }
    out.push({ chunk: c, src: { indices: src }, dst: { indices: dst }, covers });
    p = q;
  }
  return out;
}

/** One chunk touched by a selection, with its per-dimension projections. */
export interface ChunkProjection {
  coords: number[];
  src: DimIndexer[];
  dst: DimIndexer[];
  /** Every in-array position of the chunk is selected. */
  covers: boolean;
}

/** Number of chunks the per-dimension projections combine into. */
export function countChunks(perDim: readonly DimProjection[][]): number {
  let n = 1;
  for (const d of perDim) n *= d.length;
  return n;
}

/** Yields every touched chunk (the cartesian product of the per-dimension projections). */
export function* chunkProjections(perDim: readonly DimProjection[][]): Generator<ChunkProjection> {
  const ndim = perDim.length;
  if (perDim.some((d) => d.length === 0)) return;
  const counters = new Array<number>(ndim).fill(0);
  for (;;) {
    const coords = new Array<number>(ndim);
    const src = new Array<DimIndexer>(ndim);
    const dst = new Array<DimIndexer>(ndim);
    let covers = true;
    for (let d = 0; d < ndim; d++) {
      const p = perDim[d][counters[d]];
      coords[d] = p.chunk;
      src[d] = p.src;
      dst[d] = p.dst;
      covers &&= p.covers;
    }
    yield { coords, src, dst, covers };
    let d = ndim - 1;
    for (; d >= 0; d--) {
      if (++counters[d] < perDim[d].length) break;
      counters[d] = 0;
    }
    if (d < 0) return;
  }
}
