/**
 * Turning georeferenced values into canvas pixels: the view (centre, resolution, size),
 * its bounding box, a grey-scale stretch, and nearest-neighbour sampling through the
 * data's affine transform (so any level, rotated or not, lands where it belongs).
 */
import { type Affine, applyAffine, type BBox, invertAffine } from "@zarr/geozarr";

/** What the canvas shows: a centre in CRS units, CRS units per screen pixel, and the canvas size. */
export interface View {
  center: [number, number];
  resolution: number;
  width: number;
  height: number;
}

/** The CRS bounding box the view covers. */
export function viewBbox(view: View): BBox {
  const hw = (view.width / 2) * view.resolution;
  const hh = (view.height / 2) * view.resolution;
  return [view.center[0] - hw, view.center[1] - hh, view.center[0] + hw, view.center[1] + hh];
}

/** Value range of finite values that are not `nodata`. */
export function valueRange(data: ArrayLike<number>, nodata?: number): { min: number; max: number } {
  let min = Number.POSITIVE_INFINITY;
  let max = Number.NEGATIVE_INFINITY;
  for (let i = 0; i < data.length; i++) {
    const v = data[i];
    if (!Number.isFinite(v) || v === nodata) continue;
    if (v < min) min = v;
    if (v > max) max = v;
  }
  return Number.isFinite(min) ? { min, max } : { min: 0, max: 1 };
}

/** The grey level of a value under a linear stretch (0–255). */
export function grey(v: number, stretch: { min: number; max: number }): number {
  const span = stretch.max - stretch.min;
  const g = span > 0 ? Math.round((255 * (v - stretch.min)) / span) : 0;
  return Math.min(255, Math.max(0, g));
}

/**
 * Samples a 2-D grid (`values` in C order, `[height, width]`, with its transform) at the
 * centre of every canvas pixel of `view` into `rgba`. Pixels outside the grid, NaN and
 * `nodata` stay transparent.
 */
export function renderView(
  grid: { values: ArrayLike<number>; shape: readonly [number, number]; transform: Affine },
  view: View,
  stretch: { min: number; max: number },
  rgba: Uint8ClampedArray,
  nodata?: number,
): void {
  rgba.fill(0);
  const inv = invertAffine(grid.transform);
  const [x0, , , y1] = viewBbox(view);
  const [h, w] = grid.shape;
  for (let py = 0; py < view.height; py++) {
    const y = y1 - (py + 0.5) * view.resolution;
    for (let px = 0; px < view.width; px++) {
      const x = x0 + (px + 0.5) * view.resolution;
      const [u, v] = applyAffine(inv, x, y);
      const col = Math.floor(u);
      const row = Math.floor(v);
      if (col < 0 || row < 0 || col >= w || row >= h) continue;
      const value = grid.values[row * w + col];
      if (!Number.isFinite(value) || value === nodata) continue;
      const g = grey(value, stretch);
      const o = (py * view.width + px) * 4;
      rgba[o] = g;
      rgba[o + 1] = g;
      rgba[o + 2] = g;
      rgba[o + 3] = 255;
    }
  }
}
