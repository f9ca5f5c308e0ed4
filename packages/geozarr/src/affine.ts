/**
 * Affine transforms in the spatial convention's (Rasterio/Affine) order `[a, b, c, d, e, f]`:
 * `x = a*col + b*row + c`, `y = d*col + e*row + f`, where `(col, row) = (0, 0)` is the
 * outer corner of the top-left pixel. Rotated and sheared grids (b, d ≠ 0) are supported
 * everywhere.
 */
import { ZarrError } from "@zarr/spec";

/** `[a, b, c, d, e, f]`. */
export type Affine = readonly [number, number, number, number, number, number];

/** The identity transform. */
export const IDENTITY: Affine = [1, 0, 0, 0, 1, 0];

/** True when `value` is six finite numbers. */
export function isAffine(value: unknown): value is Affine {
  return Array.isArray(value) && value.length === 6 && value.every((v) => typeof v === "number" && Number.isFinite(v));
}

/** Maps pixel-space `(col, row)` to CRS coordinates `[x, y]`. */
export function applyAffine(t: Affine, col: number, row: number): [number, number] {
  return [t[0] * col + t[1] * row + t[2], t[3] * col + t[4] * row + t[5]];
}

/** Determinant `a*e - b*d` (zero: the transform cannot be inverted). */
export function determinant(t: Affine): number {
  return t[0] * t[4] - t[1] * t[3];
}

/** The inverse transform (CRS → pixel space); throws `INVALID_ARGUMENT` when it is singular. */
export function invertAffine(t: Affine): Affine {
  const det = determinant(t);
  if (det === 0 || !Number.isFinite(det)) {
    throw new ZarrError("INVALID_ARGUMENT", `The affine transform [${t.join(", ")}] cannot be inverted (determinant ${det})`);
  }
  const [a, b, c, d, e, f] = t;
  const ia = e / det;
  const ib = -b / det;
  const id = -d / det;
  const ie = a / det;
  return [ia, ib, -(ia * c + ib * f), id, ie, -(id * c + ie * f)];
}

/** `outer ∘ inner`: first `inner`, then `outer`. */
export function composeAffine(outer: Affine, inner: Affine): Affine {
  const [a, b, c, d, e, f] = outer;
  const [A, B, C, D, E, F] = inner;
  return [a * A + b * D, a * B + b * E, a * C + b * F + c, d * A + e * D, d * B + e * E, d * C + e * F + f];
}

/**
 * The transform of a level whose pixel `(col, row)` covers source pixels starting at
 * `(col * scaleX + translateX, row * scaleY + translateY)`: `source ∘ (scale, translate)`.
 * With integer factors and no translation this is exact (only a, b, d, e are multiplied).
 */
export function scaleAffine(t: Affine, scaleX: number, scaleY: number, translateX = 0, translateY = 0): Affine {
  return composeAffine(t, [scaleX, 0, translateX, 0, scaleY, translateY]);
}

/** From GDAL's geotransform `[c, a, b, f, d, e]`. */
export function affineFromGdal(gt: readonly number[]): Affine {
  if (gt.length !== 6 || !gt.every((v) => Number.isFinite(v))) {
    throw new ZarrError("INVALID_ARGUMENT", `A GDAL geotransform has six finite numbers, got [${gt.join(", ")}]`);
  }
  return [gt[1], gt[2], gt[0], gt[4], gt[5], gt[3]];
}

/** To GDAL's geotransform `[c, a, b, f, d, e]`. */
export function affineToGdal(t: Affine): [number, number, number, number, number, number] {
  return [t[2], t[0], t[1], t[5], t[3], t[4]];
}

/** True when the grid is axis-aligned (no rotation or shear: b = d = 0). */
export function isAxisAligned(t: Affine): boolean {
  return t[1] === 0 && t[3] === 0;
}

/** Ground size of a pixel along columns and rows: `[|(a, d)|, |(b, e)|]` (CRS units). */
export function pixelSize(t: Affine): [number, number] {
  return [Math.hypot(t[0], t[3]), Math.hypot(t[1], t[4])];
}

/** Bounding box `[xmin, ymin, xmax, ymax]` of the pixel-space rectangle `[c0, c1] × [r0, r1]`. */
export function affineBounds(t: Affine, c0: number, r0: number, c1: number, r1: number): [number, number, number, number] {
  const pts = [applyAffine(t, c0, r0), applyAffine(t, c1, r0), applyAffine(t, c0, r1), applyAffine(t, c1, r1)];
  let xmin = Number.POSITIVE_INFINITY;
  let ymin = Number.POSITIVE_INFINITY;
  let xmax = Number.NEGATIVE_INFINITY;
  let ymax = Number.NEGATIVE_INFINITY;
  for (const [x, y] of pts) {
    xmin = Math.min(xmin, x);
    xmax = Math.max(xmax, x);
    ymin = Math.min(ymin, y);
    ymax = Math.max(ymax, y);
  }
  return [xmin, ymin, xmax, ymax];
}

/** True when every coefficient agrees within `relative` of the pixel size (a, b, d, e) or `absolute` CRS units (c, f). */
export function affineClose(p: Affine, q: Affine, relative = 1e-9, absolute?: number): boolean {
  const size = Math.max(...pixelSize(p), ...pixelSize(q));
  const lin = relative * size;
  const off = absolute ?? lin;
  for (const i of [0, 1, 3, 4]) if (Math.abs(p[i] - q[i]) > lin) return false;
  return Math.abs(p[2] - q[2]) <= off && Math.abs(p[5] - q[5]) <= off;
}
