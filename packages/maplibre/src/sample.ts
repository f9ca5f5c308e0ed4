/**
 * The CPU half of a tile: for every tile pixel centre, EPSG:3857 → data CRS → window
 * pixel, then nearest or bilinear. Pure and synchronous: it runs the same on the main
 * thread and in a worker.
 */
import type { PointTransform } from "@zarr/geozarr";
import type { TileInput } from "./tile-read.js";
import { mercatorLat, mercatorLon, TILE_SIZE, tileBounds } from "./web-mercator.js";

/** How a value is taken from the source pixels. */
export type Resampling = "nearest" | "bilinear";

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
 * longitude/latitude data), else per pixel (NaN outside `clip`).
 */
function pixelCentres(input: TileInput, toData: PointTransform | undefined): { xs: Float64Array; ys: Float64Array; separable: boolean } {
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
  for (let j = 0; j < n; j++) {
    const my = y1 - (j + 0.5) * res;
    if (my < cy0 || my > cy1) continue;
    for (let i = 0; i < n; i++) {
      const mx = x0 + (i + 0.5) * res;
      if (mx < cx0 || mx > cx1) continue;
      const p = to(mx, my);
      xs[j * n + i] = p[0];
      ys[j * n + i] = p[1];
    }
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
export function sampleTile(input: TileInput, toData: PointTransform | undefined, resampling: Resampling = "nearest"): TileValues {
  const n = TILE_SIZE;
  const out = emptyTileValues();
  out.level = input.level;
  const { values, valid } = out;
  const { xs, ys, separable } = pixelCentres(input, toData);
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
