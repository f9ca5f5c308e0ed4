/**
 * What `get` and `set` share: resolving a selection against an array into the chunks it
 * touches, and the progress and concurrency options.
 */
import type { DataType, Scalar } from "@zarr/spec";
import { type ChunkProjection, chunkProjections, countChunks, projectDimension } from "./indexer.js";
import type { ZarrArray } from "./nodes.js";
import { needsOtherResolver, type ResolvedDim, resolvedLength, resolveSelection, type Selection } from "./selection.js";

/** Default number of chunks read, decoded or written at once. */
export const DEFAULT_CONCURRENCY = 16;

/** Progress of a multi-chunk operation. */
export interface Progress {
  /** Chunks finished. */
  done: number;
  /** Chunks in the operation. */
  total: number;
}

/** A selection resolved against an array. */
export interface Plan {
  resolved: ResolvedDim[];
  /** Shape with a size-1 dimension for every integer-selected dimension. */
  internalShape: number[];
  /** Shape of the result (integer-selected dimensions dropped). */
  outShape: number[];
  projections: () => Generator<ChunkProjection>;
  total: number;
}

/**
 * Resolves `selection` against `array` into the chunks it touches, first dimension
 * fastest. Loads the resolver of index arrays and masks when the selection has them.
 */
export async function plan(array: ZarrArray, selection: Selection | null | undefined): Promise<Plan> {
  // Index arrays and masks: their resolver loads when a selection has them (bundle size).
  const points = needsOtherResolver(selection) ? await import("./selection-points.js") : undefined;
  const resolved = resolveSelection(selection, array.shape, points?.resolveOther);
  const perDim = resolved.map((r, d) => projectDimension(r, array.chunkGrid.dims[d], array.shape[d], points?.projectPoints));
  const internalShape = resolved.map(resolvedLength);
  const outShape = resolved.filter((r) => r.kind !== "int").map(resolvedLength);
  // First dimension fastest: chunks in flight together fill disjoint pages of a result.
  return { resolved, internalShape, outShape, projections: () => chunkProjections(perDim, "F"), total: countChunks(perDim) };
}

export function isZeroFill(dataType: DataType, fill: Scalar): boolean {
  return dataType.allEqual(dataType.allocate(1), fill, 0, 1);
}

