/**
 * Geo helpers: pixel ↔ CRS coordinates, bounding box → index windows (clipped,
 * optionally snapped to chunks, antimeridian-aware), level choice, tile grids.
 */
import { ZarrError } from "@zarr/spec";
import { type Affine, affineBounds, applyAffine, invertAffine, isAxisAligned, pixelSize, scaleAffine } from "./affine.js";
import type { BBox, Registration } from "./attributes.js";
import { crsCode } from "./crs.js";
import type { MultiscaleDataset, MultiscaleLevel } from "./multiscale.js";

/** A grid: its transform, `[height, width]`, and registration. */
export interface GridGeometry {
  transform: Affine;
  shape: readonly [number, number];
  registration?: Registration;
}

/**
 * CRS coordinates of a pixel-space position. With `center: true`, `(col, row)` are pixel
 * indices and the result is the pixel's centre (the sample position for node registration).
 */
export function pixelToCrs(grid: Pick<GridGeometry, "transform" | "registration">, col: number, row: number, options: { center?: boolean } = {}): [number, number] {
  const o = options.center && grid.registration !== "node" ? 0.5 : 0;
  return applyAffine(grid.transform, col + o, row + o);
}

/**
 * The fractional pixel-space position `[col, row]` of CRS coordinates (pixel (i, j) spans
 * `[i, i+1) × [j, j+1)` for pixel registration). `Math.floor` of it is the pixel index;
 * for node registration, round instead.
 */
export function crsToPixel(grid: Pick<GridGeometry, "transform">, x: number, y: number): [number, number] {
  return applyAffine(invertAffine(grid.transform), x, y);
}

/** The pixel index `[col, row]` holding CRS point `(x, y)`, or `undefined` outside the grid. */
export function pixelAt(grid: GridGeometry, x: number, y: number): [number, number] | undefined {
  const [u, v] = crsToPixel(grid, x, y);
  const o = grid.registration === "node" ? 0.5 : 0;
  const col = Math.floor(u + o);
  const row = Math.floor(v + o);
  if (col < 0 || row < 0 || col >= grid.shape[1] || row >= grid.shape[0]) return undefined;
  return [col, row];
}

/** A window of a grid: rows `[rowStart, rowStop)` and columns `[colStart, colStop)`. */
export interface IndexWindow {
  rowStart: number;
  rowStop: number;
  colStart: number;
  colStop: number;
  /** Transform of the window's own pixel grid. */
  transform: Affine;
  /** Extent of the window (CRS units, as the grid sees them). */
  bbox: BBox;
  /** The CRS shift applied to the requested box to meet the grid (antimeridian wrapping), 0 normally. */
  xShift: number;
}

/** Options of {@link bboxToWindows}. */
export interface WindowOptions {
  /** Clip to the grid (default true). Unclipped windows may extend beyond it. */
  clip?: boolean;
  /** Widen to chunk boundaries: `[chunkRows, chunkCols]`. */
  snap?: readonly [number, number];
  /**
   * The CRS's x period for antimeridian handling: 360 for longitudes. When given, the
   * box is also shifted by multiples of it to meet the grid (a 0–360° grid read with a
   * −180–180° box). A box with xmin > xmax crosses the antimeridian and uses 360 when no
   * period is given.
   */
  period?: number;
}

const EPS = 1e-9;

/**
 * The index windows of `grid` covered by `bbox` `[xmin, ymin, xmax, ymax]`: every pixel
 * the box touches. A box crossing the antimeridian (xmin > xmax), or one that meets the
 * grid only after shifting by the period, yields one window per piece (west to east in
 * the box's own order). Rotated grids get the window enclosing the box's corners.
 *
 * @example
 * ```ts
 * const grid = { transform: [10, 0, 500000, 0, -10, 5000000], shape: [1000, 1000] } as const;
 * bboxToWindows(grid, [500100, 4999000, 500500, 4999900]);
 * // [{ rowStart: 10, rowStop: 100, colStart: 10, colStop: 50, ... }]
 * ```
 */
export function bboxToWindows(grid: GridGeometry, bbox: BBox, options: WindowOptions = {}): IndexWindow[] {
  const [x0, y0, x1raw, y1] = bbox;
  if (![x0, y0, x1raw, y1].every(Number.isFinite) || y0 > y1) {
    throw new ZarrError("INVALID_ARGUMENT", `Invalid bounding box [${bbox.join(", ")}]: four finite numbers with ymin ≤ ymax`);
  }
  const crosses = x0 > x1raw;
  const period = options.period ?? (crosses ? 360 : 0);
  if (crosses && period <= 0) throw new ZarrError("INVALID_ARGUMENT", `The box [${bbox.join(", ")}] has xmin > xmax and wrapping is off`);
  const x1 = crosses ? x1raw + period : x1raw;
  const o = grid.registration === "node" ? -0.5 : 0;
  const extent = affineBounds(grid.transform, o, o, grid.shape[1] + o, grid.shape[0] + o);
  const shifts = period > 0 ? [-2, -1, 0, 1, 2].map((k) => k * period) : [0];
  const pieces: Array<{ key: number; window: IndexWindow }> = [];
  for (const shift of shifts) {
    const a = Math.max(x0 + shift, extent[0]);
    const b = Math.min(x1 + shift, extent[2]);
    if (b <= a && !(b === a && x0 === x1)) continue;
    const box: BBox = options.clip === false ? [x0 + shift, y0, x1 + shift, y1] : [a, y0, b, y1];
    const w = windowOf(grid, box, options, shift);
    // Order the pieces as they come in the box, west to east in its own coordinates.
    if (w !== undefined) pieces.push({ key: a - shift, window: w });
  }
  pieces.sort((p, q) => p.key - q.key);
  return dedupe(pieces.map((p) => p.window));
}

function dedupe(ws: IndexWindow[]): IndexWindow[] {
  const seen = new Set<string>();
  return ws.filter((w) => {
    const k = `${w.rowStart},${w.rowStop},${w.colStart},${w.colStop}`;
    if (seen.has(k)) return false;
    seen.add(k);
    return true;
  });
}

function windowOf(grid: GridGeometry, box: BBox, options: WindowOptions, xShift: number): IndexWindow | undefined {
  const inv = invertAffine(grid.transform);
  const corners = [applyAffine(inv, box[0], box[1]), applyAffine(inv, box[2], box[1]), applyAffine(inv, box[0], box[3]), applyAffine(inv, box[2], box[3])];
  const o = grid.registration === "node" ? 0.5 : 0;
  let u0 = Number.POSITIVE_INFINITY;
  let u1 = Number.NEGATIVE_INFINITY;
  let v0 = Number.POSITIVE_INFINITY;
  let v1 = Number.NEGATIVE_INFINITY;
  for (const [u, v] of corners) {
    u0 = Math.min(u0, u + o);
    u1 = Math.max(u1, u + o);
    v0 = Math.min(v0, v + o);
    v1 = Math.max(v1, v + o);
  }
  let colStart = Math.floor(u0 + EPS);
  let colStop = Math.ceil(u1 - EPS);
  let rowStart = Math.floor(v0 + EPS);
  let rowStop = Math.ceil(v1 - EPS);
  // A box thinner than a pixel still touches the pixel it lies in.
  if (colStop <= colStart) colStop = colStart + 1;
  if (rowStop <= rowStart) rowStop = rowStart + 1;
  const [h, w] = grid.shape;
  if (options.snap !== undefined) {
    const [cy, cx] = options.snap;
    if (!(cy >= 1 && cx >= 1)) throw new ZarrError("INVALID_ARGUMENT", `snap must be a chunk shape [rows, cols] ≥ 1, got [${cy}, ${cx}]`);
    rowStart = Math.floor(rowStart / cy) * cy;
    colStart = Math.floor(colStart / cx) * cx;
    rowStop = Math.ceil(rowStop / cy) * cy;
    colStop = Math.ceil(colStop / cx) * cx;
  }
  if (options.clip ?? true) {
    rowStart = Math.max(0, rowStart);
    colStart = Math.max(0, colStart);
    rowStop = Math.min(h, rowStop);
    colStop = Math.min(w, colStop);
    if (rowStart >= rowStop || colStart >= colStop) return undefined;
  }
  const transform = scaleAffine(grid.transform, 1, 1, colStart, rowStart);
  const oo = grid.registration === "node" ? -0.5 : 0;
  return {
    rowStart,
    rowStop,
    colStart,
    colStop,
    transform,
    bbox: affineBounds(transform, oo, oo, colStop - colStart + oo, rowStop - rowStart + oo),
    xShift,
  };
}

/** How {@link chooseLevel} picks among levels. */
export type LevelTarget =
  | { resolution: number; mode?: "nearest" | "finer" | "coarser" }
  | { width: number; height: number; bbox?: BBox };

/**
 * Chooses a level: for a target resolution (CRS units per pixel; `nearest` in log scale,
 * `finer`: the coarsest level at least as fine, `coarser`: the finest level at least as
 * coarse), or for an output size (the coarsest level that still gives at least
 * `width × height` pixels over `bbox` or the whole extent, so nothing is upsampled).
 * Levels without a transform are skipped.
 *
 * @example
 * ```ts
 * chooseLevel(ms.levels, { resolution: 55, mode: "finer" }); // the 20 m level of 10/20/60 m
 * chooseLevel(ms.levels, { width: 512, height: 512 });
 * ```
 */
export function chooseLevel(levels: readonly MultiscaleLevel[], target: LevelTarget): MultiscaleLevel {
  const usable = levels.filter((l) => l.resolution !== undefined && l.kind !== "missing");
  if (usable.length === 0) throw new ZarrError("INVALID_ARGUMENT", "No level has a known resolution (spatial:transform)");
  const res = (l: MultiscaleLevel) => {
    const [rx, ry] = l.resolution as [number, number];
    return Math.sqrt(rx * ry);
  };
  const sorted = usable.slice().sort((a, b) => res(a) - res(b)); // finest first
  if ("resolution" in target) {
    const r = target.resolution;
    if (!(r > 0)) throw new ZarrError("INVALID_ARGUMENT", `A target resolution is positive, got ${r}`);
    const mode = target.mode ?? "nearest";
    const tol = 1 + 1e-9;
    if (mode === "finer") return sorted.filter((l) => res(l) <= r * tol).pop() ?? sorted[0];
    if (mode === "coarser") return sorted.find((l) => res(l) * tol >= r) ?? sorted[sorted.length - 1];
    let best = sorted[0];
    for (const l of sorted) if (Math.abs(Math.log(res(l) / r)) < Math.abs(Math.log(res(best) / r))) best = l;
    return best;
  }
  const { width, height } = target;
  if (!(width > 0 && height > 0)) throw new ZarrError("INVALID_ARGUMENT", `An output size is positive, got ${width}×${height}`);
  let chosen = sorted[0];
  for (const l of sorted) {
    const box = target.bbox ?? l.extent;
    if (box === undefined) continue;
    const [rx, ry] = l.resolution as [number, number];
    const bw = box[2] >= box[0] ? box[2] - box[0] : box[2] + 360 - box[0];
    if (bw / rx >= width * (1 - 1e-9) && (box[3] - box[1]) / ry >= height * (1 - 1e-9)) chosen = l;
  }
  return chosen;
}

/** One zoom level of a {@link TileGrid}. */
export interface TileMatrix {
  /** The level's asset. */
  id: string;
  /** CRS units per pixel. */
  resolution: number;
  /** `[width, height]` of a tile in pixels. */
  tileSize: [number, number];
  /** `[columns, rows]` of tiles. */
  matrixSize: [number, number];
  /** `[height, width]` of the level in pixels. */
  shape: readonly [number, number];
  /** CRS coordinates of the level's top-left corner. */
  topLeft: [number, number];
}

/** A tile grid for web maps (OpenLayers `TileGrid`, OGC TileMatrixSet style). */
export interface TileGrid {
  /** The CRS code, when known. */
  crs?: string;
  /** Extent of the finest level. */
  extent: BBox;
  /** Top-left corner shared by the levels (the finest level's). */
  origin: [number, number];
  /** Resolutions from coarsest to finest (what web map libraries expect). */
  resolutions: number[];
  /** Matrices in the same order as `resolutions`. */
  matrices: TileMatrix[];
}

/**
 * Describes a Multiscale Dataset as a tile grid whose tiles are the levels' chunks (so
 * a tile is one chunk read), or `tileSize` pixels when given. Needs north-up, axis-aligned
 * levels (`UNSUPPORTED` otherwise).
 *
 * @example
 * ```ts
 * const grid = tileGrid(describeMultiscales(h));
 * // new ol.tilegrid.TileGrid({ extent: grid.extent, origin: grid.origin, resolutions: grid.resolutions, tileSizes: grid.matrices.map(m => m.tileSize) })
 * ```
 */
export function tileGrid(ms: MultiscaleDataset, options: { tileSize?: number } = {}): TileGrid {
  const matrices: TileMatrix[] = [];
  for (const l of ms.levels) {
    if (l.transform === undefined || l.shape === undefined) continue;
    if (!isAxisAligned(l.transform) || l.transform[4] >= 0 || l.transform[0] <= 0) {
      throw new ZarrError("UNSUPPORTED", `Level "${l.asset}" is not north-up and axis-aligned: no web-map tile grid`);
    }
    const [rx] = pixelSize(l.transform);
    const tw = options.tileSize ?? l.chunkShape?.[1] ?? 256;
    const th = options.tileSize ?? l.chunkShape?.[0] ?? 256;
    matrices.push({
      id: l.asset,
      resolution: rx,
      tileSize: [tw, th],
      matrixSize: [Math.ceil(l.shape[1] / tw), Math.ceil(l.shape[0] / th)],
      shape: l.shape,
      topLeft: [l.transform[2], l.transform[5]],
    });
  }
  if (matrices.length === 0) throw new ZarrError("INVALID_ARGUMENT", `"${ms.path || "/"}" has no level with a transform and shape`);
  matrices.sort((a, b) => b.resolution - a.resolution);
  const finest = matrices[matrices.length - 1];
  const fl = ms.levels.find((l) => l.asset === finest.id) as MultiscaleLevel;
  const extent = affineBounds(fl.transform as Affine, 0, 0, finest.shape[1], finest.shape[0]);
  const grid: TileGrid = {
    extent,
    origin: [finest.topLeft[0], finest.topLeft[1]],
    resolutions: matrices.map((m) => m.resolution),
    matrices,
  };
  const code = ms.crs === undefined ? undefined : crsCode(ms.crs);
  if (code !== undefined) grid.crs = code;
  return grid;
}
