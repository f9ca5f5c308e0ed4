/** What the range and index-list projections (indexer.ts, dimension-projection.ts) share. */
import type { DimensionPartition } from "./chunk-grid.js";
import { ZarrError } from "./errors.js";

/** The `OUT_OF_BOUNDS` error of a selection reaching outside `[0, length)`. */
export function outside(what: string, length: number): ZarrError {
  return new ZarrError("OUT_OF_BOUNDS", `A dimension selection ${what}, outside [0, ${length})`);
}

/** Positions of chunk `c` that lie inside `[0, length)`. */
export function inArrayExtent(part: DimensionPartition, c: number, length: number): number {
  const cs = part.start(c);
  return Math.min(cs + part.size(c), length) - cs;
}

