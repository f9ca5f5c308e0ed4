/**
 * Georeferencing written before the conventions: GDAL's `_CRS`, CF `grid_mapping`
 * variables (`crs_wkt`, `spatial_ref`, `GeoTransform`), STAC's `proj:epsg` and 9-element
 * `proj:transform`, and xarray dimension names that say which axes are Y and X.
 */
import type { JsonObject, JsonValue } from "@zarr/spec";
import { type Affine, affineFromGdal, determinant } from "./affine.js";
import { type Crs, crsFromGdal, crsFromString } from "./crs.js";

/**
 * The variable a CF `grid_mapping` attribute names. Handles the plain form (`"spatial_ref"`)
 * and the first mapping of the extended form (`"crs: x y"`).
 */
export function gridMappingName(attributes: JsonObject): string | undefined {
  const gm = attributes.grid_mapping;
  if (typeof gm !== "string") return undefined;
  const t = gm.trim();
  if (t === "") return undefined;
  const extended = /^([^\s:]+)\s*:/.exec(t);
  return extended ? extended[1] : t.split(/\s+/)[0];
}

/** The CRS of a CF grid-mapping variable's attributes (`crs_wkt`, then GDAL's `spatial_ref`, then `epsg_code`). */
export function crsFromGridMapping(attributes: JsonObject): Crs | undefined {
  for (const key of ["crs_wkt", "spatial_ref"]) {
    const v = attributes[key];
    if (typeof v === "string") {
      const crs = crsFromString(v);
      if (crs !== undefined) return crs;
    }
  }
  const epsg = attributes.epsg_code;
  if (typeof epsg === "string") return crsFromString(epsg);
  if (typeof epsg === "number" && Number.isSafeInteger(epsg)) return { code: `EPSG:${epsg}` };
  return undefined;
}

/** GDAL's `GeoTransform` attribute of a grid-mapping variable (`"c a b f d e"` as text or six numbers). */
export function transformFromGeoTransform(value: JsonValue | undefined): Affine | undefined {
  let nums: number[] | undefined;
  if (typeof value === "string") nums = value.trim().split(/[\s,]+/).map(Number);
  else if (Array.isArray(value) && value.every((v) => typeof v === "number")) nums = value as number[];
  if (nums === undefined || nums.length !== 6 || !nums.every(Number.isFinite)) return undefined;
  const t = affineFromGdal(nums);
  return determinant(t) === 0 ? undefined : t;
}

/** GDAL's `_CRS` attribute of an array (object with `url`/`wkt`/`projjson`, or a string). */
export function crsFromGdalAttribute(attributes: JsonObject): Crs | undefined {
  return crsFromGdal(attributes._CRS);
}

/** STAC's `proj:epsg` (a number; `null` means "no EPSG code"). */
export function crsFromStacEpsg(attributes: JsonObject): Crs | undefined {
  const v = attributes["proj:epsg"];
  if (typeof v === "number" && Number.isSafeInteger(v) && v > 0) return { code: `EPSG:${v}` };
  if (typeof v === "string" && /^\d+$/.test(v)) return { code: `EPSG:${v}` };
  return undefined;
}

/** A legacy `proj:transform` (STAC: six numbers, or nine with a last row `0, 0, 1`, Affine order). */
export function transformFromStac(attributes: JsonObject): Affine | undefined {
  const v = attributes["proj:transform"];
  if (!Array.isArray(v) || (v.length !== 6 && v.length !== 9) || !v.every((x) => typeof x === "number" && Number.isFinite(x))) {
    return undefined;
  }
  const n = v as number[];
  if (n.length === 9 && (n[6] !== 0 || n[7] !== 0 || n[8] !== 1)) return undefined;
  const t: Affine = [n[0], n[1], n[2], n[3], n[4], n[5]];
  return determinant(t) === 0 ? undefined : t;
}

/** A legacy `proj:shape` `[height, width]`. */
export function shapeFromStac(attributes: JsonObject): [number, number] | undefined {
  const v = attributes["proj:shape"];
  if (Array.isArray(v) && v.length === 2 && v.every((x) => typeof x === "number" && Number.isSafeInteger(x) && x > 0)) {
    return [v[0] as number, v[1] as number];
  }
  return undefined;
}

const AXIS_PAIRS: ReadonlyArray<readonly [RegExp, RegExp]> = [
  [/^y$/i, /^x$/i],
  [/^lat(itude)?$/i, /^lon(gitude)?$/i],
  [/^rlat$/i, /^rlon$/i],
  [/^northing$/i, /^easting$/i],
  [/^projection_y_coordinate$/i, /^projection_x_coordinate$/i],
  [/^grid_latitude$/i, /^grid_longitude$/i],
];

/**
 * Guesses the `[Y, X]` dimensions from dimension names (`y`/`x`, `lat`/`lon`,
 * `latitude`/`longitude`, `northing`/`easting`...), as xarray and GDAL name them.
 */
export function inferSpatialDimensions(names: readonly (string | null)[]): [string, string] | undefined {
  for (const [ry, rx] of AXIS_PAIRS) {
    const y = names.find((n): n is string => n !== null && ry.test(n));
    const x = names.find((n): n is string => n !== null && rx.test(n));
    if (y !== undefined && x !== undefined) return [y, x];
  }
  return undefined;
}
