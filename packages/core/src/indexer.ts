/**
 * Projects a resolved selection onto the array's chunk grid with @zarr/spec's indexer:
 * this module only turns a {@link ResolvedDim} into the indexer spec projects.
 */
import {
  type ChunkProjection,
  chunkProjections,
  countChunks,
  type DimChunkProjection,
  type DimensionPartition,
  type DimProjections,
  rangeProjections,
} from "@zarr/spec";
import type { ResolvedDim } from "./selection.js";

export { type ChunkProjection, chunkProjections, countChunks };

/** One chunk's share of one dimension's selection (see @zarr/spec's `DimChunkProjection`). */
export type DimProjection = DimChunkProjection;

export type { DimProjections };

/**
 * Projects one resolved dimension onto one dimension of the grid (`length` is the
 * array's length along it). An integer becomes a one-position range: its output
 * dimension has size 1 until the caller drops it. Ranges are projected lazily (each
 * chunk's projection made when the plan's stream reaches it), so a plan over millions of
 * chunks holds none of them; index lists are projected by `projectPoints`
 * (selection-points.ts, loaded with the selections that have them), one entry per
 * chunk they touch, no more than the list itself.
 */
export function projectDimension(sel: ResolvedDim, part: DimensionPartition, length: number, projectPoints?: ProjectPoints): DimProjections {
  if (sel.kind === "int") return rangeProjections({ start: sel.index, step: 1, count: 1 }, part, length);
  if (sel.kind === "range") return rangeProjections(sel, part, length);
  // Present whenever a resolved dimension is a list of points (`needsOtherResolver`).
  return (projectPoints as ProjectPoints)(sel.indices, part, length);
}

/** Projects a list of indices (selection-points.ts). */
export type ProjectPoints = (indices: Float64Array, part: DimensionPartition, length: number) => DimProjection[];
