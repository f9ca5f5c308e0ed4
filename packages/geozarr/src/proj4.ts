/**
 * `@zarr/geozarr/proj4`: a {@link Reprojector} on the `proj4` package. proj4 is an
 * optional peer dependency: this module never imports it, the caller passes it in, so
 * applications that do not reproject never bundle it.
 *
 * @example
 * ```ts
 * import proj4 from "proj4";
 * import { proj4Reprojector } from "@zarr/geozarr/proj4";
 * const reproject = proj4Reprojector(proj4);
 * ```
 */
import { ZarrError } from "@zarr/spec";
import { type Crs, crsCode } from "./crs.js";
import type { Reprojection, Reprojector } from "./reproject.js";

/** The part of proj4's API the adapter uses. */
export interface Proj4Like {
  /** Definitions are codes, WKT strings or PROJJSON objects (passed as proj4 takes them). */
  (from: string, to: string): { forward(p: number[]): number[]; inverse(p: number[]): number[] };
  defs(name: string): unknown;
  defs(name: string, definition: string): void;
}

/** Options of {@link proj4Reprojector}. */
export interface Proj4ReprojectorOptions {
  /** Extra proj4 definitions by code, e.g. `{ "EPSG:2056": "+proj=somerc ..." }`. */
  definitions?: Record<string, string>;
}

/**
 * The proj4 definition of a CRS: its code when proj4 knows it (proj4 has EPSG:4326,
 * EPSG:3857 and the UTM zones built in), else its PROJJSON or WKT (proj4 ≥ 2.9 parses
 * WKT1, WKT2 and PROJJSON).
 */
export function proj4Definition(proj4: Proj4Like, crs: Crs): string | object {
  const code = crsCode(crs);
  if (code !== undefined) {
    const alias = code === "OGC:CRS84" ? "EPSG:4326" : code;
    if (proj4.defs(alias) !== undefined) return alias;
  }
  if (crs.projjson !== undefined) return crs.projjson;
  if (crs.wkt2 !== undefined) return crs.wkt2;
  throw new ZarrError(
    "UNSUPPORTED",
    `proj4 has no definition for ${code ?? "this CRS"}; pass it in proj4Reprojector(proj4, { definitions: { "${code ?? "CODE"}": "+proj=..." } })`,
  );
}

/**
 * A {@link Reprojector} backed by proj4. Coordinates are (x, y) = (easting, northing) or
 * (longitude, latitude) in every CRS, as proj4 orders them.
 */
export function proj4Reprojector(proj4: Proj4Like, options: Proj4ReprojectorOptions = {}): Reprojector {
  for (const [name, def] of Object.entries(options.definitions ?? {})) proj4.defs(name, def);
  return (from: Crs, to: Crs): Reprojection => {
    let converter: ReturnType<Proj4Like>;
    try {
      // proj4 takes a PROJJSON object where a string goes too.
      converter = proj4(proj4Definition(proj4, from) as string, proj4Definition(proj4, to) as string);
    } catch (error) {
      if (error instanceof ZarrError) throw error;
      throw new ZarrError("UNSUPPORTED", `proj4 cannot transform between these CRSs: ${(error as Error).message}`, { cause: error });
    }
    return {
      forward: (x, y) => {
        const p = converter.forward([x, y]);
        return [p[0], p[1]];
      },
      inverse: (x, y) => {
        const p = converter.inverse([x, y]);
        return [p[0], p[1]];
      },
    };
  };
}
