/**
 * Projects a shard-local selection onto the shard's regular grid of inner chunks: which
 * inner chunks it touches, and for each the positions inside the inner chunk and the
 * positions in the selection's result. Work is proportional to the inner chunks
 * touched (and the listed indices), never to the shard's size.
 */
import { type DimIndexer, indexerLength, ZarrError } from "@zarr/spec";

/** One inner chunk's share of one dimension of a selection. */
export interface DimPart {
  /** Inner chunk index along the dimension. */
  chunk: number;
  /** Positions inside the inner chunk. */
  local: DimIndexer;
  /** Positions in the selection's result (or the update's value). */
  out: DimIndexer;
  /** Every position of the inner chunk is selected. */
  covers: boolean;
}

/** An inner chunk touched by a selection. */
export interface TouchedChunk {
  /** Index of the inner chunk in C order (its index entry). */
  linear: number;
  /** Inner chunk grid coordinates. */
  coords: number[];
  /** Positions inside the inner chunk, per dimension. */
  local: DimIndexer[];
  /** Positions in the result, per dimension. */
  out: DimIndexer[];
  /** The selection covers the whole inner chunk. */
  covers: boolean;
}

function badSelection(dim: number, what: string): ZarrError {
  return new ZarrError("INVALID_ARGUMENT", `Shard selection of dimension ${dim} ${what}`);
}

/**
 * Splits one dimension's selection (`step > 0` ranges or index lists, within
 * `[0, extent)`) by inner chunks of `size`. `withCovers` computes `covers` for index
 * lists (which needs a pass over each group); ranges always get it.
 */
export function projectDimension(
  sel: DimIndexer,
  size: number,
  extent: number,
  dim: number,
  withCovers: boolean,
): DimPart[] {
  if ("indices" in sel) return projectIndices(sel.indices, size, extent, dim, withCovers);
  const { start, step, count } = sel;
  if (!Number.isSafeInteger(count) || count < 0) throw badSelection(dim, `has an invalid count ${count}`);
  if (count === 0) return [];
  if (!Number.isSafeInteger(start) || !Number.isSafeInteger(step) || step < 1 || start < 0) {
    throw badSelection(dim, `must be an ascending range of integers (start ${start}, step ${step})`);
  }
  const last = start + (count - 1) * step;
  if (last >= extent) throw badSelection(dim, `reaches index ${last}, outside the shard's extent ${extent}`);
  const parts: DimPart[] = [];
  let k = 0;
  while (k < count) {
    const i = start + k * step;
    const chunk = Math.floor(i / size);
    const chunkStart = chunk * size;
    const n = Math.min(count - k, Math.floor((chunkStart + size - 1 - i) / step) + 1);
    parts.push({
      chunk,
      local: { start: i - chunkStart, step, count: n },
      out: { start: k, step: 1, count: n },
      covers: step === 1 && n === size,
    });
    k += n;
  }
  return parts;
}

function projectIndices(
  indices: ArrayLike<number>,
  size: number,
  extent: number,
  dim: number,
  withCovers: boolean,
): DimPart[] {
  const m = indices.length;
  if (m === 0) return [];
  const chunkOf = new Float64Array(m);
  let sorted = true;
  for (let i = 0; i < m; i++) {
    const v = indices[i];
    if (!Number.isInteger(v) || v < 0 || v >= extent) {
      throw badSelection(dim, `lists index ${v}, outside the shard's extent ${extent}`);
    }
    chunkOf[i] = Math.floor(v / size);
    if (i > 0 && chunkOf[i] < chunkOf[i - 1]) sorted = false;
  }
  // Visit positions grouped by inner chunk, keeping their order within a chunk.
  let order: ArrayLike<number>;
  if (sorted) {
    const identity = new Float64Array(m);
    for (let i = 0; i < m; i++) identity[i] = i;
    order = identity;
  } else {
    const idx = Array.from({ length: m }, (_, i) => i);
    idx.sort((a, b) => chunkOf[a] - chunkOf[b] || a - b);
    order = idx;
  }
  const parts: DimPart[] = [];
  let p = 0;
  while (p < m) {
    const chunk = chunkOf[order[p]];
    let q = p;
    while (q < m && chunkOf[order[q]] === chunk) q++;
    const chunkStart = chunk * size;
    const local = new Float64Array(q - p);
    const out = new Float64Array(q - p);
    for (let k = p; k < q; k++) {
      local[k - p] = indices[order[k]] - chunkStart;
      out[k - p] = order[k];
    }
    let covers = false;
    if (withCovers && local.length >= size) {
      const seen = new Uint8Array(size);
      let distinct = 0;
      for (let k = 0; k < local.length; k++) {
        if (seen[local[k]] === 0) {
          seen[local[k]] = 1;
          distinct++;
        }
      }
      covers = distinct === size;
    }
    parts.push({ chunk, local: { indices: local }, out: { indices: out }, covers });
    p = q;
  }
  return parts;
}

/**
 * Every inner chunk a selection touches: the cartesian product of the per-dimension
 * parts. `gridStrides` are the C-order strides of the inner chunk grid.
 */
export function touchedChunks(perDim: readonly DimPart[][], gridStrides: readonly number[]): TouchedChunk[] {
  const ndim = perDim.length;
  if (perDim.some((parts) => parts.length === 0)) return [];
  const out: TouchedChunk[] = [];
  const counters = new Array<number>(ndim).fill(0);
  for (;;) {
    const coords = new Array<number>(ndim);
    const local = new Array<DimIndexer>(ndim);
    const outSel = new Array<DimIndexer>(ndim);
    let linear = 0;
    let covers = true;
    for (let d = 0; d < ndim; d++) {
      const part = perDim[d][counters[d]];
      coords[d] = part.chunk;
      local[d] = part.local;
      outSel[d] = part.out;
      linear += part.chunk * gridStrides[d];
      covers &&= part.covers;
    }
    out.push({ linear, coords, local, out: outSel, covers });
    let d = ndim - 1;
    for (; d >= 0; d--) {
      if (++counters[d] < perDim[d].length) break;
      counters[d] = 0;
    }
    if (d < 0) return out;
  }
}

/** The shape of a selection's result: its length per dimension. */
export function selectionShape(selection: readonly DimIndexer[]): number[] {
  return selection.map(indexerLength);
}
