/**
 * The I/O half of a tile: which level fits it, which window of that level its pixels
 * fall in, and the read of that window (only the chunks it touches; the source's chunk
 * cache serves neighbouring tiles, and with a worker pool its misses are decoded there).
 * The result is plain data a worker can take.
 */
import { type DimSelection, get, slice } from "@zarr/core";
import { type Affine, type BBox, invertAffine, reprojectBbox } from "@zarr/geozarr";
import { type WorkerPool, ZarrError } from "@zarr/spec";
import type { CrsRoute } from "./data-crs.js";
import type { SourceLevel, TileSource } from "./source-types.js";
import { checkTile, HALF_WORLD, TILE_SIZE, type TileCoord, tileBounds } from "./web-mercator.js";

/** How a value is taken from the source pixels. */
export type Resampling = "nearest" | "bilinear";

/** Numeric sample arrays a tile can be read from. */
export type SampleArray = Float64Array | Float32Array | Int32Array | Uint32Array | Int16Array | Uint16Array | Int8Array | Uint8Array;

/** Everything the pixel loop needs: structured-cloneable, so it can go to a worker. */
export interface TileInput {
  tile: TileCoord;
  route: CrsRoute;
  /** The level read (its multiscales asset). */
  level: string;
  /** The window's values; element (row, col) is `data[row * rowStride + col * colStride]`. */
  data: SampleArray;
  rows: number;
  cols: number;
  rowStride: number;
  colStride: number;
  /** Data CRS → window pixel coordinates, pixel (c, r) covering [c, c+1) × [r, r+1) (node registration shifted by half a pixel). */
  toPixel: Affine;
  nodata?: number;
  /** For longitude/latitude data: longitudes are wrapped into [west, west + 360). */
  west?: number;
  /** Tile pixels whose EPSG:3857 centre is outside this box are transparent without being reprojected. */
  clip: BBox;
}

/** The level whose resolution fits a tile: the coarsest one at least as fine as the tile's pixels (the finest when none is). */
export function chooseTileLevel(source: TileSource, tile: TileCoord): SourceLevel {
  const [x0, y0, x1, y1] = intersect(tileBounds(tile), source.mercatorExtent) ?? tileBounds(tile);
  const res = (2 * HALF_WORLD) / 2 ** tile.z / TILE_SIZE;
  const cx = (x0 + x1) / 2;
  const cy = (y0 + y1) / 2;
  const to = source.transforms.toData;
  const p = to(cx, cy);
  const px = to(cx + res, cy);
  const py = to(cx, cy + res);
  const target = Math.sqrt(Math.hypot(px[0] - p[0], px[1] - p[1]) * Math.hypot(py[0] - p[0], py[1] - p[1]));
  let chosen = source.levels[0];
  for (const l of source.levels) if (l.resolution <= target * (1 + 1e-9)) chosen = l;
  return chosen;
}

function intersect(a: BBox, b: BBox): BBox | undefined {
  const box: BBox = [Math.max(a[0], b[0]), Math.max(a[1], b[1]), Math.min(a[2], b[2]), Math.min(a[3], b[3])];
  return box[0] < box[2] && box[1] < box[3] ? box : undefined;
}

/** Wraps a longitude into [west, west + 360). */
export function wrapLon(lon: number, west: number): number {
  return lon + 360 * Math.ceil((west - lon) / 360);
}

/**
 * The data-CRS box a (clipped) tile box covers. For longitudes wrapped into the data's
 * range, a box that straddles the data's western edge once wrapped needs every column
 * (`allColumns`).
 */
function dataBox(source: TileSource, box: BBox): { box: BBox; allColumns: boolean } {
  if (source.route.kind === "reproject") return { box: reprojectBbox(box, source.transforms.toData, 21), allColumns: false };
  const [a, b] = source.transforms.toData(box[0], box[1]);
  const [c, d] = source.transforms.toData(box[2], box[3]);
  if (source.route.kind === "mercator") return { box: [a, b, c, d], allColumns: false };
  const west = wrapLon(a, source.extent[0]);
  const east = west + (c - a);
  return { box: [west, b, east, d], allColumns: east > source.extent[0] + 360 };
}

/** Options of {@link readTileInput}. */
export interface TileReadOptions {
  /** Stops the tile's chunk reads and worker calls (`ABORTED`). */
  signal?: AbortSignal;
  /** Bilinear needs a pixel of margin around the window. */
  resampling?: Resampling;
  /**
   * Decodes the tile's chunks in this pool (`createWorkerPool` of `@zarr/core/workers`):
   * the source's chunk cache keeps them decoded on this thread, so only a miss costs a
   * worker call, and this thread only fetches and copies the window.
   */
  workers?: WorkerPool;
}

/**
 * Reads what a tile needs, or `undefined` when the tile is outside the data (a transparent
 * tile, not an error).
 *
 * @example
 * ```ts
 * const input = await readTileInput(source, { z: 10, x: 550, y: 360 }, { workers, signal });
 * ```
 */
export async function readTileInput(source: TileSource, tile: TileCoord, options: TileReadOptions = {}): Promise<TileInput | undefined> {
  checkTile(tile);
  const clip = intersect(tileBounds(tile), source.mercatorExtent);
  if (clip === undefined) return undefined;
  const level = chooseTileLevel(source, tile);
  const [h, w] = level.shape;
  const inv = invertAffine(level.transform);
  const { box, allColumns } = dataBox(source, clip);
  const o = level.registration === "node" ? 0.5 : 0;
  const corners = [applyInv(inv, box[0], box[1]), applyInv(inv, box[2], box[1]), applyInv(inv, box[0], box[3]), applyInv(inv, box[2], box[3])];
  if (!corners.every(([u, v]) => Number.isFinite(u) && Number.isFinite(v))) return undefined;
  const us = corners.map((c) => c[0] + o);
  const vs = corners.map((c) => c[1] + o);
  // A pixel of margin for bilinear's neighbours and for a reprojected box's densified
  // edges; nearest on an exact box needs none (and reads no chunk beyond the tile's).
  // (Pixel centres lie half a tile pixel inside the box: a box edge rounded past a grid line by 1e-9 adds no pixel.)
  const m = options.resampling === "bilinear" || source.route.kind === "reproject" ? 1 : 0;
  const colStart = allColumns ? 0 : Math.max(0, Math.floor(Math.min(...us) + 1e-9) - m);
  const colStop = allColumns ? w : Math.min(w, Math.ceil(Math.max(...us) - 1e-9) + m);
  const rowStart = Math.max(0, Math.floor(Math.min(...vs) + 1e-9) - m);
  const rowStop = Math.min(h, Math.ceil(Math.max(...vs) - 1e-9) + m);
  if (!(colStart < colStop && rowStart < rowStop)) return undefined;

  const array = await level.array();
  const selection: DimSelection[] = level.dimensionNames.map((name, d) => {
    if (d === level.roles.y) return slice(rowStart, rowStop);
    if (d === level.roles.x) return slice(colStart, colStop);
    return source.select[name ?? `#${d}`] ?? 0;
  });
  const read = await get(array, selection, { signal: options.signal, workers: options.workers });
  const yFirst = level.roles.y < level.roles.x;
  const input: TileInput = {
    tile,
    route: source.route,
    level: level.asset,
    data: numericSamples(read.data, level.arrayPath),
    rows: rowStop - rowStart,
    cols: colStop - colStart,
    rowStride: read.stride[yFirst ? 0 : 1],
    colStride: read.stride[yFirst ? 1 : 0],
    toPixel: [inv[0], inv[1], inv[2] - colStart + o, inv[3], inv[4], inv[5] - rowStart + o],
    clip,
  };
  if (source.nodata !== undefined) input.nodata = source.nodata;
  if (source.route.kind === "lonlat") input.west = source.extent[0];
  return input;
}

function applyInv(inv: Affine, x: number, y: number): [number, number] {
  return [inv[0] * x + inv[1] * y + inv[2], inv[3] * x + inv[4] * y + inv[5]];
}

/** The values as a numeric typed array (64-bit integers as doubles, booleans as 0/1). */
export function numericSamples(data: unknown, arrayPath: string): SampleArray {
  if (data instanceof BigInt64Array || data instanceof BigUint64Array) return Float64Array.from(data, Number);
  if (
    data instanceof Float64Array ||
    data instanceof Float32Array ||
    data instanceof Int32Array ||
    data instanceof Uint32Array ||
    data instanceof Int16Array ||
    data instanceof Uint16Array ||
    data instanceof Int8Array ||
    data instanceof Uint8Array
  ) {
    return data;
  }
  if (ArrayBuffer.isView(data) && (data as { BYTES_PER_ELEMENT?: number }).BYTES_PER_ELEMENT === 2) return Float32Array.from(data as unknown as ArrayLike<number>);
  if (Array.isArray(data) && data.every((v) => typeof v === "boolean")) return Uint8Array.from(data as boolean[], (v) => (v ? 1 : 0));
  throw new ZarrError("UNSUPPORTED", `"${arrayPath}" does not hold numbers: only numeric arrays can be drawn as tiles`, { key: arrayPath });
}
