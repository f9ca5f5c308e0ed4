/** The value range of a variable when its metadata gives none: the coarsest level's minimum and maximum. */
import { type DimSelection, get } from "@zarr/core";
import type { TileSource } from "./source-types.js";
import { numericSamples } from "./tile-read.js";

/** Minimum and maximum of the coarsest level at the source's non-spatial indices ([0, 1] when nothing is valid). */
export async function valueRangeOf(source: Pick<TileSource, "levels" | "select" | "nodata">, signal?: AbortSignal): Promise<[number, number]> {
  const level = source.levels[source.levels.length - 1];
  const array = await level.array();
  const selection: DimSelection[] = level.dimensionNames.map((name, d) =>
    d === level.roles.y || d === level.roles.x ? null : (source.select[name ?? `#${d}`] ?? 0),
  );
  const data = numericSamples((await get(array, selection, { signal })).data, level.arrayPath);
  const nodata = source.nodata;
  let min = Number.POSITIVE_INFINITY;
  let max = Number.NEGATIVE_INFINITY;
  for (let i = 0; i < data.length; i++) {
    const v = data[i];
    if (Number.isNaN(v) || v === nodata) continue;
    if (v < min) min = v;
    if (v > max) max = v;
  }
  return min <= max ? [min, max] : [0, 1];
}
