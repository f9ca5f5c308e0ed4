/**
 * The CPU half of a tile: for every tile pixel centre, EPSG:3857 → data CRS → window
 * pixel, then nearest or bilinear. Pure and synchronous: it runs the same on the main
 * thread and in a worker.
 */
import type { PointTransform } from "@zarr/geozarr";
import type { Resampling, TileInput } from "./tile-read.js";
import { mercatorLat, mercatorLon, TILE_SIZE, tileBounds } from "./web-mercator.js";

export type { Resampling } from "./tile-read.js";

/** The default of {@link SampleOptions.reprojectionError}, in source pixels. */
export const DEFAULT_REPROJECTION_ERROR = 0.01;

/** How tile pixels are sampled. */
export interface SampleOptions {
  /** `"nearest"` (default) or `"bilinear"`. */
  resampling?: Resampling;
  /**
   * For data in CRSs other than EPSG:3857 and EPSG:4326: the largest position error, in
   * source pixels, of interpolating the reprojection along a tile row (GDAL's approximate
   * transformer, `gdalwarp -et`, whose default is 0.125). 0 reprojects every pixel centre
   * exactly (about 1 µs each with proj4: tens of ms for a full tile). Default 0.01: a value differs
   * from the exact one only where a pixel centre is within 0.01 pixel of a source pixel edge.
   */
  reprojectionError?: number;
}

/** A tile's values before colouring. */
export interface TileValues {
  /** `256 × 256` values, row by row from the north-west corner (0 where not valid). */
  values: Float64Array;
  /** 1 where `values` holds data, 0 for nodata, NaN and pixels outside the data. */
  valid: Uint8Array;
  /** The level read (its multiscales asset), or `undefined` when the tile is outside the data. */
  level?: string;
}

/** An empty (fully transparent) tile. */
export function emptyTileValues(): TileValues {
  return { values: new Float64Array(TILE_SIZE * TILE_SIZE), valid: new Uint8Array(TILE_SIZE * TILE_SIZE) };
}

/**
 * Data-CRS coordinates of the tile's pixel centres: per column and per row (`separable`,
 * 256 each) when x depends on the column only and y on the row only (EPSG:3857 and
 * longitude/latitude data), else per pixel (NaN outside `clip`), reprojected exactly or,
 * with `maxError` > 0, interpolated along rows within that many source pixels.
 */
function pixelCentres(input: TileInput, toData: PointTransform | undefined, maxError: number): { xs: Float64Array; ys: Float64Array; separable: boolean } {
  const n = TILE_SIZE;
  const [x0, , x1, y1] = tileBounds(input.tile);
  const res = (x1 - x0) / n;
  const [cx0, cy0, cx1, cy1] = input.clip;
  if (input.route.kind !== "reproject") {
    const xs = new Float64Array(n);
    const ys = new Float64Array(n);
    const lonlat = input.route.kind === "lonlat";
    const west = input.west ?? -180;
    for (let i = 0; i < n; i++) {
      const mx = x0 + (i + 0.5) * res;
      const my = y1 - (i + 0.5) * res;
      xs[i] = mx < cx0 || mx > cx1 ? Number.NaN : lonlat ? wrap(mercatorLon(mx), west) : mx;
      ys[i] = my < cy0 || my > cy1 ? Number.NaN : lonlat ? mercatorLat(my) : my;
    }
    return { xs, ys, separable: true };
  }
  const xs = new Float64Array(n * n).fill(Number.NaN);
  const ys = new Float64Array(n * n).fill(Number.NaN);
  const to = toData as PointTransform;
  // Columns whose centre lies in the clip box: one contiguous run per row.
  const iStart = Math.max(0, Math.ceil((cx0 - x0) / res - 0.5));
  const iEnd = Math.min(n - 1, Math.floor((cx1 - x0) / res - 0.5));
  const [a, b, , d, e] = input.toPixel;
  const exact = !(maxError > 0);
  const fill = (row: number, my: number, i: number) => {
    const p = to(x0 + (i + 0.5) * res, my);
    xs[row + i] = p[0];
    ys[row + i] = p[1];
  };
  // GDAL's approximate transformer, per row: reproject the ends and the middle of a run;
  // when the middle is within maxError source pixels of the straight line between the
  // ends, interpolate the run, else split it in two.
  const refine = (row: number, my: number, i0: number, i1: number) => {
    if (i1 - i0 < 2) return;
    const mid = (i0 + i1) >> 1;
    fill(row, my, mid);
    const f = (mid - i0) / (i1 - i0);
    const dx = xs[row + mid] - (xs[row + i0] + f * (xs[row + i1] - xs[row + i0]));
    const dy = ys[row + mid] - (ys[row + i0] + f * (ys[row + i1] - ys[row + i0]));
    if (Math.abs(a * dx + b * dy) <= maxError && Math.abs(d * dx + e * dy) <= maxError) {
      for (let i = i0 + 1; i < i1; i++) {
        if (i === mid) continue;
        const g = (i - i0) / (i1 - i0);
        xs[row + i] = xs[row + i0] + g * (xs[row + i1] - xs[row + i0]);
        ys[row + i] = ys[row + i0] + g * (ys[row + i1] - ys[row + i0]);
      }
      return;
    }
    refine(row, my, i0, mid);
    refine(row, my, mid, i1);
  };
  for (let j = 0; j < n; j++) {
    const my = y1 - (j + 0.5) * res;
    if (my < cy0 || my > cy1 || iStart > iEnd) continue;
    const row = j * n;
    if (exact) {
      for (let i = iStart; i <= iEnd; i++) fill(row, my, i);
      continue;
    }
    fill(row, my, iStart);
    fill(row, my, iEnd);
    // A run whose ends failed to reproject is done point by point.
    if (Number.isFinite(xs[row + iStart] + ys[row + iStart] + xs[row + iEnd] + ys[row + iEnd])) refine(row, my, iStart, iEnd);
    else for (let i = iStart + 1; i < iEnd; i++) fill(row, my, i);
  }
  return { xs, ys, separable: false };
}

function wrap(lon: number, west: number): number {
  return lon + 360 * Math.ceil((west - lon) / 360);
}

/**
 * Samples a tile from the window `input` holds. `toData` (EPSG:3857 → data CRS) is needed
 * only for CRSs other than EPSG:3857 and EPSG:4326.
 */
export function sampleTile(input: TileInput, toData: PointTransform | undefined, options: SampleOptions = {}): TileValues {
  const resampling = options.resampling ?? "nearest";
  const n = TILE_SIZE;
  const out = emptyTileValues();
  out.level = input.level;
  const { values, valid } = out;
  const { xs, ys, separable } = pixelCentres(input, toData, options.reprojectionError ?? DEFAULT_REPROJECTION_ERROR);
  const [a, b, c, d, e, f] = input.toPixel;
  const { data, rows, cols, rowStride, colStride } = input;
  const nodata = input.nodata;
  const hasNodata = nodata !== undefined && !Number.isNaN(nodata);
  const bilinear = resampling === "bilinear";
  for (let j = 0; j < n; j++) {
    for (let i = 0; i < n; i++) {
      const k = j * n + i;
      const X = separable ? xs[i] : xs[k];
      const Y = separable ? ys[j] : ys[k];
      // NaN coordinates (outside the clip box, or a failed reprojection) fall through every comparison.
      const u = a * X + b * Y + c;
      const v = d * X + e * Y + f;
      if (!(u >= 0 && u < cols && v >= 0 && v < rows)) continue;
      const col = Math.floor(u);
      const row = Math.floor(v);
      if (!bilinear) {
        const value = data[row * rowStride + col * colStride];
        if (Number.isNaN(value) || (hasNodata && value === nodata)) continue;
        values[k] = value;
        valid[k] = 1;
        continue;
      }
      // Bilinear between the four nearest pixel centres, leaving out nodata ones (weights renormalised).
      const fu = u - 0.5;
      const fv = v - 0.5;
      const c0 = Math.floor(fu);
      const r0 = Math.floor(fv);
      const wx = fu - c0;
      const wy = fv - r0;
      let sum = 0;
      let weight = 0;
      for (let dr = 0; dr < 2; dr++) {
        const r = Math.min(rows - 1, Math.max(0, r0 + dr));
        const ky = dr === 0 ? 1 - wy : wy;
        for (let dc = 0; dc < 2; dc++) {
          const cc = Math.min(cols - 1, Math.max(0, c0 + dc));
          const w = ky * (dc === 0 ? 1 - wx : wx);
          const value = data[r * rowStride + cc * colStride];
          if (w === 0 || Number.isNaN(value) || (hasNodata && value === nodata)) continue;
          sum += w * value;
          weight += w;
        }
      }
      if (weight > 0) {
        values[k] = sum / weight;
        valid[k] = 1;
      }
    }
  }
  return out;
}
