/** The shapes of a tile source (source.ts makes them), apart so the tile readers need no import of source.ts. */
import type { ChunkCache, ZarrArray } from "@zarr/core";
import type { Affine, BBox, Crs, DimensionRoles, Registration } from "@zarr/geozarr";
import type { JsonValue } from "@zarr/spec";
import type { CrsRoute, MercatorTransforms } from "./data-crs.js";

/** One resolution level of a {@link TileSource}. */
export interface SourceLevel {
  /** The multiscales asset (`"0"` for a plain Dataset). */
  asset: string;
  /** Store path of the variable's array at this level. */
  arrayPath: string;
  transform: Affine;
  /** `[height, width]`. */
  shape: readonly [number, number];
  registration: Registration;
  /** Geometric mean of the pixel size, in CRS units. */
  resolution: number;
  roles: DimensionRoles;
  dimensionNames: readonly (string | null)[];
  /** The opened array (opened on first use). */
  array(): Promise<ZarrArray>;
}

/** A variable ready to be tiled: what {@link openTileSource} resolves. */
export interface TileSource {
  /** The variable's name. */
  variable: string;
  crs: Crs;
  /** How tile pixels reach the data's CRS. */
  route: CrsRoute;
  transforms: MercatorTransforms;
  /** Levels, finest first. */
  levels: SourceLevel[];
  /** Index chosen for each non-spatial dimension, by name (or `#index` for unnamed ones). */
  select: Record<string, number>;
  nodata?: number;
  /** The values the colour map spans. */
  range: [number, number];
  /** The variable's `units` attribute, when it has one. */
  units?: string;
  /** Extent of the finest level in its CRS. */
  extent: BBox;
  /** Extent of the data in EPSG:3857 (densified edges): tiles outside it are not read. */
  mercatorExtent: BBox;
  chunkCache?: ChunkCache;
  /** The variable's attributes (finest level). */
  attributes: Record<string, JsonValue>;
}
