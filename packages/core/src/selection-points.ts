/**
 * Resolving index arrays and boolean masks (and refusing what is not a selection), and
 * projecting the index lists they become onto chunks: the part of `resolveSelection` and
 * `projectDimension` that only fancier selections need, loaded for them by `plan`.
 */
import { type DimensionPartition, projectDimension } from "@zarr/spec";
import type { DimProjection } from "./indexer.js";
import { type DimSelection, invalid, type ResolvedDim, resolveIndex } from "./up-front.js";

/** Projects a list of indices of one dimension onto its chunks (core's `projectDimension` for index lists). */
export function projectPoints(indices: Float64Array, part: DimensionPartition, length: number): DimProjection[] {
  return projectDimension({ indices }, part, length);
}

function resolveMask(values: ArrayLike<boolean | number>, length: number, dim: number): ResolvedDim {
  if (values.length !== length) {
    invalid(`Boolean mask for dimension ${dim} has length ${values.length}, but the dimension has length ${length}`);
  }
  let n = 0;
  for (let i = 0; i < length; i++) if (values[i]) n++;
  const indices = new Float64Array(n);
  for (let i = 0, k = 0; i < length; i++) if (values[i]) indices[k++] = i;
  return { kind: "points", indices };
}

function isBooleanArray(v: unknown): v is readonly boolean[] {
  return Array.isArray(v) && v.length > 0 && typeof v[0] === "boolean";
}

/** Resolves an index array or a mask for dimension `dim` of length `length`; throws `INVALID_SELECTION` for anything else. */
export function resolveOther(sel: DimSelection, length: number, dim: number): ResolvedDim {
  if (ArrayBuffer.isView(sel) || Array.isArray(sel)) {
    if (isBooleanArray(sel)) return resolveMask(sel, length, dim);
    const list = sel as ArrayLike<number>;
    const indices = new Float64Array(list.length);
    for (let i = 0; i < list.length; i++) {
      if (typeof list[i] !== "number") invalid(`Index arrays must hold integers (dimension ${dim}), found ${typeof list[i]}`);
      indices[i] = resolveIndex(list[i], length, dim);
    }
    return { kind: "points", indices };
  }
  if (typeof sel === "object" && sel !== null && "kind" in sel && sel.kind === "mask") return resolveMask(sel.values, length, dim);
  return invalid(`Cannot select dimension ${dim} with ${JSON.stringify(sel)}`);
}
