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
  projectRange,
} from "@zarr/spec";
import type { ResolvedDim } from "./selection.js";

export { type ChunkProjection, chunkProjections, countChunks };

/** One chunk's share of one dimension's selection (see @zarr/spec's `DimChunkProjection`). */
export type DimProjection = DimChunkProjection;

/**
 * Projects one resolved dimension onto one dimension of the grid (`length` is the
 * array's length along it). An integer becomes a one-position range: its output
 * dimension has size 1 until the caller drops it. Index lists are projected by
 * `projectPoints` (selection-points.ts, loaded with the selections that have them).
 */
export function projectDimension(sel: ResolvedDim, part: DimensionPartition, length: number, projectPoints?: ProjectPoints): DimProjection[] {
  if (sel.kind === "int") return projectRange({ start: sel.index, step: 1, count: 1 }, part, length);
  if (sel.kind === "range") return projectRange(sel, part, length);
  // Present whenever a resolved dimension is a list of points (`needsOtherResolver`).
  return (projectPoints as ProjectPoints)(sel.indices, part, length);
}

/** Projects a list of indices (selection-points.ts). */
export type ProjectPoints = (indices: Float64Array, part: DimensionPartition, length: number) => DimProjection[];
