/**
 * The Web Mercator tile scheme (EPSG:3857, XYZ numbering with y growing southwards) and
 * the spherical Mercator formulas: what MapLibre, OpenLayers and `gdalwarp -t_srs EPSG:3857`
 * agree on.
 */
import type { BBox } from "@zarr/geozarr";
import { ZarrError } from "@zarr/spec";

/** The sphere EPSG:3857 projects (WGS 84's semi-major axis). */
export const EARTH_RADIUS = 6378137;
/** Half the width of the projected world: x and y run from −HALF_WORLD to +HALF_WORLD. */
export const HALF_WORLD = Math.PI * EARTH_RADIUS;
/** Pixels along each side of a tile. */
export const TILE_SIZE = 256;

/** A tile address: zoom, column (west → east) and row (north → south). */
export interface TileCoord {
  z: number;
  x: number;
  y: number;
}

/** Refuses a tile address that is not one (`INVALID_ARGUMENT`). */
export function checkTile(tile: TileCoord): void {
  const { z, x, y } = tile ?? ({} as TileCoord);
  const n = 2 ** z;
  if (!(Number.isInteger(z) && z >= 0 && z <= 30 && Number.isInteger(x) && Number.isInteger(y) && x >= 0 && y >= 0 && x < n && y < n)) {
    throw new ZarrError("INVALID_ARGUMENT", `No Web Mercator tile ${JSON.stringify(tile)}: z is an integer 0–30 and x, y integers in [0, 2^z)`);
  }
}

/** The EPSG:3857 bounds `[xmin, ymin, xmax, ymax]` of a tile (what `gdalwarp -te` takes). */
export function tileBounds(tile: TileCoord): BBox {
  const size = (2 * HALF_WORLD) / 2 ** tile.z;
  const xmin = -HALF_WORLD + tile.x * size;
  const ymax = HALF_WORLD - tile.y * size;
  return [xmin, ymax - size, xmin + size, ymax];
}

const DEGREES = 180 / Math.PI;

/** Longitude in degrees of a Mercator x. */
export function mercatorLon(x: number): number {
  return (x / EARTH_RADIUS) * DEGREES;
}

/** Latitude in degrees of a Mercator y (the inverse Gudermannian). */
export function mercatorLat(y: number): number {
  return (Math.PI / 2 - 2 * Math.atan(Math.exp(-y / EARTH_RADIUS))) * DEGREES;
}

/** Mercator `[x, y]` of a longitude and latitude in degrees. */
export function lonLatToMercator(lon: number, lat: number): [number, number] {
  const phi = Math.max(-89.999999, Math.min(89.999999, lat)) / DEGREES;
  return [(lon / DEGREES) * EARTH_RADIUS, EARTH_RADIUS * Math.log(Math.tan(Math.PI / 4 + phi / 2))];
}
