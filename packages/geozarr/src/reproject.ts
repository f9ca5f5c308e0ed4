/**
 * Pluggable reprojection. This package ships no CRS database: a {@link Reprojector}
 * turns a pair of CRSs into point transforms. `@zarr/geozarr/proj4` adapts the `proj4`
 * package (an optional peer dependency); any other library fits the same interface.
 */
import { ZarrError } from "@zarr/spec";
import type { BBox } from "./attributes.js";
import { type Crs, crsFromString, sameCrs } from "./crs.js";

/** Transforms one point. */
export type PointTransform = (x: number, y: number) => [number, number];

/** Both directions between two CRSs. */
export interface Reprojection {
  /** From the source CRS to the target CRS. */
  forward: PointTransform;
  /** From the target CRS back to the source CRS. */
  inverse: PointTransform;
}

/** Creates reprojections between CRSs (may be asynchronous, e.g. to fetch a definition). */
export type Reprojector = (from: Crs, to: Crs) => Reprojection | Promise<Reprojection>;

/** A CRS or a string (`"EPSG:4326"`, a WKT). */
export type CrsLike = Crs | string;

/** Normalises a {@link CrsLike}. */
export function toCrs(crs: CrsLike): Crs {
  if (typeof crs !== "string") return crs;
  const parsed = crsFromString(crs);
  if (parsed === undefined) throw new ZarrError("INVALID_ARGUMENT", `"${crs}" is neither AUTHORITY:CODE nor WKT`);
  return parsed;
}

const identity: PointTransform = (x, y) => [x, y];

/** The reprojection between a CRS and itself. */
export const IDENTITY_REPROJECTION: Reprojection = { forward: identity, inverse: identity };

/**
 * Resolves the reprojection from `from` to `to`: the identity when both are the same
 * CRS, else through `reprojector` (`UNSUPPORTED` when none is given).
 */
export async function reprojection(from: CrsLike, to: CrsLike, reprojector?: Reprojector): Promise<Reprojection> {
  const a = toCrs(from);
  const b = toCrs(to);
  if (sameCrs(a, b) === true) return IDENTITY_REPROJECTION;
  if (reprojector === undefined) {
    throw new ZarrError(
      "UNSUPPORTED",
      "Reprojecting between different CRSs needs a reprojector, e.g. proj4Reprojector(proj4) from @zarr/geozarr/proj4 (npm install proj4)",
    );
  }
  return reprojector(a, b);
}

/**
 * The bounding box of `bbox` after transforming it: the edges are densified
 * (`densify` points per edge) so curved images of straight edges are covered.
 * A box crossing the antimeridian (xmin > xmax) is transformed with xmax + 360.
 */
export function reprojectBbox(bbox: BBox, transform: PointTransform, densify = 21): BBox {
  const [x0, y0, x1raw, y1] = bbox;
  const x1 = x1raw < x0 ? x1raw + 360 : x1raw;
  let xmin = Number.POSITIVE_INFINITY;
  let ymin = Number.POSITIVE_INFINITY;
  let xmax = Number.NEGATIVE_INFINITY;
  let ymax = Number.NEGATIVE_INFINITY;
  const n = Math.max(2, densify);
  const visit = (x: number, y: number) => {
    const [u, v] = transform(x, y);
    if (!Number.isFinite(u) || !Number.isFinite(v)) return;
    if (u < xmin) xmin = u;
    if (u > xmax) xmax = u;
    if (v < ymin) ymin = v;
    if (v > ymax) ymax = v;
  };
  for (let i = 0; i < n; i++) {
    const f = i / (n - 1);
    visit(x0 + (x1 - x0) * f, y0);
    visit(x0 + (x1 - x0) * f, y1);
    visit(x0, y0 + (y1 - y0) * f);
    visit(x1, y0 + (y1 - y0) * f);
  }
  if (!Number.isFinite(xmin)) throw new ZarrError("INVALID_ARGUMENT", `The box [${bbox.join(", ")}] has no valid point in the target CRS`);
  return [xmin, ymin, xmax, ymax];
}
