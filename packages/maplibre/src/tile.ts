/** The tile function: a GeoZarr variable as a 256 × 256 Web Mercator tile, values or colours. */
import type { WorkerPool } from "@zarr/spec";
import { type Colormap, colormapTable, colourise } from "./colormap.js";
import { emptyTileValues, type SampleOptions, sampleTile, type TileValues } from "./sample.js";
import type { TileSource } from "./source.js";
import { readTileInput } from "./tile-read.js";
import type { TileCoord } from "./web-mercator.js";

/** Options of {@link tileValues}. */
export interface TileValuesOptions extends SampleOptions {
  signal?: AbortSignal;
  /** Decodes the tile's chunks in this pool (see `readTileInput`); the pixel work stays on this thread. */
  workers?: WorkerPool;
}

/** Options of {@link renderTile}. */
export interface RenderTileOptions extends TileValuesOptions {
  /** A built-in colour map name or a 1024-byte RGBA table (default `"viridis"`). */
  colormap?: Colormap;
  /** Flip the colour map. */
  reverse?: boolean;
  /** The values the colour map spans (default the source's range). */
  range?: readonly [number, number];
}

/**
 * The values of a Web Mercator tile before colouring, with a validity mask: the level
 * whose resolution fits the tile, only the chunks the tile needs, each pixel centre
 * inverse-projected to the data's pixel grid. A tile outside the data comes back all
 * invalid (not an error).
 *
 * @example
 * ```ts
 * const { values, valid, level } = await tileValues(source, { z: 10, x: 550, y: 360 });
 * ```
 */
export async function tileValues(source: TileSource, tile: TileCoord, options: TileValuesOptions = {}): Promise<TileValues> {
  const input = await readTileInput(source, tile, options);
  if (input === undefined) return emptyTileValues();
  return sampleTile(input, source.transforms.toData, options);
}

/**
 * A Web Mercator tile as 256 × 256 RGBA pixels (row by row from the north-west corner):
 * {@link tileValues} through a colour map; nodata, NaN and pixels outside the data are
 * transparent.
 *
 * @example
 * ```ts
 * const rgba = await renderTile(source, { z: 3, x: 4, y: 2 }, { colormap: "magma", range: [250, 310] });
 * ```
 */
export async function renderTile(source: TileSource, tile: TileCoord, options: RenderTileOptions = {}): Promise<Uint8ClampedArray> {
  const { values, valid } = await tileValues(source, tile, options);
  return colourise(values, valid, options.range ?? source.range, colormapTable(options.colormap ?? "viridis", { reverse: options.reverse }));
}
