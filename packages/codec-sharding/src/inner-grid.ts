/**
 * A shard-local selection on the shard's regular grid of inner chunks: checks the
 * selection against the shard (with the codec's `INVALID_ARGUMENT` errors), then lets
 * @zarr/spec's indexer project it.
 */
import {
  type DimChunkProjection,
  type DimIndexer,
  indexerLength,
  linearChunkProjections,
  projectDimension as projectIndexer,
  regularPartition,
  ZarrError,
} from "@zarr/spec";

/** One inner chunk's share of one dimension of a selection (`src`: inside the inner chunk, `dst`: in the result). */
export type DimPart = DimChunkProjection;

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

/** Throws unless `sel` is an ascending range or an index list within `[0, extent)`. */
function checkShardSelection(sel: DimIndexer, extent: number, dim: number): void {
  if ("indices" in sel) {
    const { indices } = sel;
    for (let i = 0; i < indices.length; i++) {
      const v = indices[i];
      if (!Number.isInteger(v) || v < 0 || v >= extent) {
        throw badSelection(dim, `lists index ${v}, outside the shard's extent ${extent}`);
      }
    }
    return;
  }
  const { start, step, count } = sel;
  if (!Number.isSafeInteger(count) || count < 0) throw badSelection(dim, `has an invalid count ${count}`);
  if (count === 0) return;
  if (!Number.isSafeInteger(start) || !Number.isSafeInteger(step) || step < 1 || start < 0) {
    throw badSelection(dim, `must be an ascending range of integers (start ${start}, step ${step})`);
  }
  const last = start + (count - 1) * step;
  if (last >= extent) throw badSelection(dim, `reaches index ${last}, outside the shard's extent ${extent}`);
}

/**
 * Splits one dimension's selection (`step > 0` ranges or index lists, within
 * `[0, extent)`) by inner chunks of `size`. `covers` is always computed (for index
 * lists it costs a pass over a chunk's positions only when they could cover it), so
 * the last argument is ignored; it stays for existing callers.
 */
export function projectDimension(sel: DimIndexer, size: number, extent: number, dim: number, _withCovers?: boolean): DimPart[] {
  checkShardSelection(sel, extent, dim);
  return projectIndexer(sel, regularPartition(size, extent), extent);
}

/**
 * Every inner chunk a selection touches: the cartesian product of the per-dimension
 * parts. `gridStrides` are the C-order strides of the inner chunk grid.
 */
export function touchedChunks(perDim: readonly DimPart[][], gridStrides: readonly number[]): TouchedChunk[] {
  const out: TouchedChunk[] = [];
  for (const p of linearChunkProjections(perDim, gridStrides)) {
    out.push({ linear: p.linear, coords: p.coords, local: p.src, out: p.dst, covers: p.covers });
  }
  return out;
}

/** The shape of a selection's result: its length per dimension. */
export function selectionShape(selection: readonly DimIndexer[]): number[] {
  return selection.map(indexerLength);
}
