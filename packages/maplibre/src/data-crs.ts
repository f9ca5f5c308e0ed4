/**
 * How a tile's pixel centres (EPSG:3857) reach a dataset's CRS: Web Mercator and
 * WGS 84 longitude/latitude are built in; any other CRS goes through the caller's
 * Reprojector (e.g. `proj4Reprojector(proj4)` of `@zarr/geozarr/proj4`).
 */
import { type Crs, crsCode, type PointTransform, type Reprojector, reprojection } from "@zarr/geozarr";
import { ZarrError } from "@zarr/spec";
import { lonLatToMercator, mercatorLat, mercatorLon } from "./web-mercator.js";

/** The route from Web Mercator to the data's CRS. */
export type CrsRoute =
  /** The data is in EPSG:3857: no transform. */
  | { kind: "mercator" }
  /** The data is in longitude/latitude degrees (EPSG:4326, OGC:CRS84): x depends on the column only, y on the row. */
  | { kind: "lonlat" }
  /** Anything else: through a Reprojector. */
  | { kind: "reproject"; crs: Crs };

const MERCATOR_CODES = new Set(["EPSG:3857", "EPSG:900913", "EPSG:3785"]);
const LONLAT_CODES = new Set(["EPSG:4326", "OGC:CRS84"]);

/** The route for a dataset CRS. */
export function crsRoute(crs: Crs): CrsRoute {
  const code = crsCode(crs)?.toUpperCase();
  if (code !== undefined && MERCATOR_CODES.has(code)) return { kind: "mercator" };
  if (code !== undefined && LONLAT_CODES.has(code)) return { kind: "lonlat" };
  return { kind: "reproject", crs };
}

/** Both directions between EPSG:3857 and the data's CRS. */
export interface MercatorTransforms {
  /** EPSG:3857 → data CRS. */
  toData: PointTransform;
  /** Data CRS → EPSG:3857. */
  toMercator: PointTransform;
}

const identity: PointTransform = (x, y) => [x, y];

/** The transforms of a route (`UNSUPPORTED` naming the CRS when it needs a reprojector and none is given). */
export async function mercatorTransforms(route: CrsRoute, reprojector: Reprojector | undefined): Promise<MercatorTransforms> {
  if (route.kind === "mercator") return { toData: identity, toMercator: identity };
  if (route.kind === "lonlat") return { toData: (x, y) => [mercatorLon(x), mercatorLat(y)], toMercator: lonLatToMercator };
  if (reprojector === undefined) {
    const name = crsCode(route.crs) ?? "the dataset's CRS";
    throw new ZarrError(
      "UNSUPPORTED",
      `Tiles of data in ${name} need a reprojector (EPSG:3857 and EPSG:4326 are built in): pass reprojector: proj4Reprojector(proj4) from @zarr/geozarr/proj4`,
    );
  }
  const r = await reprojection("EPSG:3857", route.crs, reprojector);
  return { toData: r.forward, toMercator: r.inverse };
}
