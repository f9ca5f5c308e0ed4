/**
 * A tile source: one variable of a GeoZarr (Multiscale) Dataset resolved once (levels,
 * georeferencing, CRS route, nodata, value range, units, the non-spatial indices) so that
 * every tile afterwards costs only its chunk reads and its pixels.
 */
import { type ChunkCache, createChunkCache, openArray, type Registry, type ZarrArray, type ZarrGroup } from "@zarr/core";
import {
  type Affine,
  type BBox,
  type Crs,
  describeMultiscales,
  effectiveGeoreference,
  findMultiscales,
  type GeoHierarchy,
  loadHierarchy,
  type Reprojector,
  reprojectBbox,
} from "@zarr/geozarr";
import { type JsonValue, type Store, ZarrError } from "@zarr/spec";
import { crsRoute, mercatorTransforms } from "./data-crs.js";
import { valueRangeOf } from "./value-range.js";
import { HALF_WORLD } from "./web-mercator.js";

/** Options of {@link openTileSource}. */
export interface TileSourceOptions {
  /** The Multiscale Dataset, Dataset group or array (hierarchy path; default the root). */
  path?: string;
  /** The variable (an array of the Dataset or of each level); needed when there are several. */
  variable?: string;
  /** Non-spatial dimensions by name → index (time, band). Dimensions not named read index 0. */
  select?: Record<string, number>;
  /** For CRSs other than EPSG:3857 and EPSG:4326: e.g. `proj4Reprojector(proj4)` of `@zarr/geozarr/proj4`. */
  reprojector?: Reprojector;
  /**
   * The nodata value (transparent). Default: the variable's `_FillValue`, else its
   * `missing_value` attribute; `"fill_value"` takes the array's fill value. NaN is always transparent.
   */
  nodata?: number | "fill_value";
  /**
   * The values the colour map spans. Default: `valid_min`/`valid_max` (or `valid_range`)
   * of the variable, else the minimum and maximum of the coarsest level (one read).
   */
  range?: readonly [number, number];
  /** Decoded chunks shared by every tile of this source; default a new cache of 64 MiB. `false`: none. */
  chunkCache?: ChunkCache | false;
  /** Where codecs are looked up (default: the source's, as `loadHierarchy` resolves it). */
  registry?: Registry;
  signal?: AbortSignal;
}

export type { SourceLevel, TileSource } from "./source-types.js";

import type { SourceLevel, TileSource } from "./source-types.js";

const DEFAULT_CACHE_BYTES = 64 * 1024 * 1024;

function isHierarchy(v: unknown): v is GeoHierarchy {
  return typeof v === "object" && v !== null && typeof (v as GeoHierarchy).all === "function" && typeof (v as GeoHierarchy).storePath === "function";
}

/**
 * Resolves one variable of a GeoZarr Multiscale Dataset, Dataset or georeferenced array
 * for tiling. A dataset without usable georeferencing is an `INVALID_ARGUMENT` error
 * naming what is missing (CRS, `spatial:transform`, spatial dimensions).
 *
 * @example
 * ```ts
 * const source = await openTileSource(store, { variable: "t2m", select: { time: 3 } });
 * const rgba = await renderTile(source, { z: 3, x: 4, y: 2 }, { colormap: "viridis" });
 * ```
 */
export async function openTileSource(source: Store | ZarrGroup | ZarrArray | GeoHierarchy, options: TileSourceOptions = {}): Promise<TileSource> {
  const h = isHierarchy(source) ? source : await loadHierarchy(source, { signal: options.signal, registry: options.registry });
  const store = h.store;
  if (store === undefined) throw new ZarrError("INVALID_ARGUMENT", "The hierarchy has no store to read tiles from");
  const base = options.path ?? "";
  const node = h.node(base);
  if (node === undefined) throw new ZarrError("NODE_NOT_FOUND", `No node at "${base || "/"}"`, { key: base });
  const registry = options.registry ?? h.registry;
  const chunkCache = options.chunkCache === false ? undefined : (options.chunkCache ?? createChunkCache({ maxBytes: DEFAULT_CACHE_BYTES }));

  // Each level's array path for the variable.
  const assets: Array<{ asset: string; path: string }> = [];
  let variable: string;
  if (node.kind === "group" && findMultiscales(h).includes(base)) {
    const ms = describeMultiscales(h, base);
    const first = ms.levels.find((l) => l.kind !== "missing");
    variable = options.variable ?? soleVariable(first?.variables ?? [], base);
    for (const l of ms.levels) {
      if (l.kind === "missing") continue;
      if (l.kind === "array") assets.push({ asset: l.asset, path: l.path });
      else if (l.variables.includes(variable)) assets.push({ asset: l.asset, path: joinPath(l.path, variable) });
    }
    if (assets.length === 0) throw new ZarrError("NODE_NOT_FOUND", `No level of "${base || "/"}" holds a variable "${variable}" (levels hold: ${(first?.variables ?? []).join(", ") || "nothing"})`);
  } else if (node.kind === "group") {
    const arrays = h.children(base).filter((c) => c.kind === "array" && (c.shape?.length ?? 0) >= 2);
    variable = options.variable ?? soleVariable(arrays.map((a) => a.name), base);
    const path = joinPath(base, variable);
    if (h.node(path)?.kind !== "array") throw new ZarrError("NODE_NOT_FOUND", `"${base || "/"}" has no array "${variable}"`, { key: path });
    assets.push({ asset: "0", path });
  } else {
    variable = node.name;
    assets.push({ asset: "0", path: base });
  }

  let crs: Crs | undefined;
  const levels: SourceLevel[] = [];
  for (const { asset, path } of assets) {
    const geo = effectiveGeoreference(h, path);
    const missing: string[] = [];
    if (geo.crs === undefined) missing.push("a CRS (proj:code, proj:wkt2 or proj:projjson)");
    if (geo.transform === undefined) missing.push("an affine transform (spatial:transform)");
    if (geo.roles === undefined || geo.shape === undefined) missing.push("spatial dimensions (spatial:dimensions)");
    if (missing.length > 0 || geo.crs === undefined || geo.transform === undefined || geo.roles === undefined || geo.shape === undefined) {
      throw new ZarrError("INVALID_ARGUMENT", `"${h.storePath(path) || "/"}" is not georeferenced: it lacks ${missing.join(", ")}`, { key: h.storePath(path) });
    }
    crs ??= geo.crs;
    const t = geo.transform;
    const arrayPath = h.storePath(path);
    let opened: Promise<ZarrArray> | undefined;
    levels.push({
      asset,
      arrayPath,
      transform: t,
      shape: geo.shape,
      registration: geo.registration,
      resolution: Math.sqrt(Math.abs(t[0] * t[4] - t[1] * t[3])),
      roles: geo.roles,
      dimensionNames: h.node(path)?.dimensionNames ?? (h.node(path)?.shape ?? []).map(() => null),
      array: () => {
        opened ??= openArray(store, arrayPath, { registry, chunkCache }).catch((e: unknown) => {
          opened = undefined;
          throw e;
        });
        return opened;
      },
    });
  }
  levels.sort((a, b) => a.resolution - b.resolution);
  // Every level's array metadata now, in parallel (one round trip over HTTP), so a tile's
  // reads are its chunks only.
  await Promise.all(levels.map((l) => l.array()));
  const finest = levels[0];
  const attributes = (h.node(assets.find((a) => h.storePath(a.path) === finest.arrayPath)?.path ?? "")?.attributes ?? {}) as Record<string, JsonValue>;

  const route = crsRoute(crs as Crs);
  const transforms = await mercatorTransforms(route, options.reprojector);
  const o = finest.registration === "node" ? -0.5 : 0;
  const extent = boundsOf(finest.transform, o, o, finest.shape[1] + o, finest.shape[0] + o);
  const mercatorExtent: [number, number, number, number] = [...reprojectBbox(extent, transforms.toMercator, 41)];
  if (route.kind === "reproject") {
    // A curved footprint bulges between the densified points: a margin keeps its pixels.
    const mx = (mercatorExtent[2] - mercatorExtent[0]) * 0.005;
    const my = (mercatorExtent[3] - mercatorExtent[1]) * 0.005;
    mercatorExtent[0] -= mx;
    mercatorExtent[1] -= my;
    mercatorExtent[2] += mx;
    mercatorExtent[3] += my;
  }
  // Longitudes beyond ±180° (a 0–360° grid) meet tiles only once wrapped: every x may hold data.
  if (route.kind === "lonlat" && (extent[0] < -180 || extent[2] > 180)) {
    mercatorExtent[0] = -HALF_WORLD;
    mercatorExtent[2] = HALF_WORLD;
  }

  const select = resolveSelect(finest, options.select ?? {});
  const nodata = resolveNodata(attributes, options.nodata, options.nodata === "fill_value" ? (await finest.array()).fillValue : undefined);
  const out: TileSource = {
    variable,
    crs: crs as Crs,
    route,
    transforms,
    levels,
    select,
    range: [0, 1],
    extent,
    mercatorExtent,
    attributes,
  };
  if (nodata !== undefined) out.nodata = nodata;
  if (chunkCache !== undefined) out.chunkCache = chunkCache;
  if (typeof attributes.units === "string") out.units = attributes.units;
  out.range = options.range !== undefined ? checkRange(options.range) : (rangeFromAttributes(attributes) ?? (await valueRangeOf(out, options.signal)));
  return out;
}

function joinPath(a: string, b: string): string {
  return a === "" ? b : `${a}/${b}`;
}

function soleVariable(names: readonly string[], where: string): string {
  if (names.length === 1) return names[0];
  throw new ZarrError(
    "INVALID_ARGUMENT",
    names.length === 0 ? `"${where || "/"}" has no data variable to tile` : `"${where || "/"}" has several variables (${names.join(", ")}): name one (options.variable)`,
  );
}

function boundsOf(t: Affine, c0: number, r0: number, c1: number, r1: number): BBox {
  const xs: number[] = [];
  const ys: number[] = [];
  for (const [c, r] of [
    [c0, r0],
    [c1, r0],
    [c0, r1],
    [c1, r1],
  ]) {
    xs.push(t[0] * c + t[1] * r + t[2]);
    ys.push(t[3] * c + t[4] * r + t[5]);
  }
  return [Math.min(...xs), Math.min(...ys), Math.max(...xs), Math.max(...ys)];
}

/** Checks the named indices against the array's non-spatial dimensions. */
function resolveSelect(level: SourceLevel, wanted: Record<string, number>): Record<string, number> {
  const names = level.dimensionNames;
  const out: Record<string, number> = {};
  const known = new Set<string>();
  for (const d of level.roles.others) {
    const name = names[d] ?? `#${d}`;
    known.add(name);
    out[name] = wanted[name] ?? 0;
  }
  for (const [name, index] of Object.entries(wanted)) {
    if (!known.has(name)) {
      throw new ZarrError("INVALID_ARGUMENT", `"${level.arrayPath}" has no non-spatial dimension "${name}" (it has: ${[...known].join(", ") || "none"})`, {
        key: level.arrayPath,
      });
    }
    if (!Number.isInteger(index) || index < 0) throw new ZarrError("INVALID_ARGUMENT", `The index of "${name}" is a non-negative integer, got ${index}`);
  }
  return out;
}

function numeric(v: JsonValue | undefined): number | undefined {
  if (typeof v === "number") return v;
  if (v === "NaN") return Number.NaN;
  return undefined;
}

function resolveNodata(attrs: Record<string, JsonValue>, option: number | "fill_value" | undefined, fillValue: unknown): number | undefined {
  if (typeof option === "number") return option;
  if (option === "fill_value") return typeof fillValue === "number" ? fillValue : typeof fillValue === "bigint" ? Number(fillValue) : undefined;
  const v = numeric(attrs._FillValue) ?? numeric(attrs.missing_value);
  return v === undefined || Number.isNaN(v) ? undefined : v;
}

function rangeFromAttributes(attrs: Record<string, JsonValue>): [number, number] | undefined {
  const range = attrs.valid_range;
  if (Array.isArray(range) && typeof range[0] === "number" && typeof range[1] === "number") return checkRange([range[0], range[1]]);
  const lo = numeric(attrs.valid_min);
  const hi = numeric(attrs.valid_max);
  return lo !== undefined && hi !== undefined ? checkRange([lo, hi]) : undefined;
}

function checkRange(r: readonly [number, number]): [number, number] {
  if (!(Number.isFinite(r[0]) && Number.isFinite(r[1]) && r[0] <= r[1])) {
    throw new ZarrError("INVALID_ARGUMENT", `A value range is [min, max] with finite min ≤ max, got [${r.join(", ")}]`);
  }
  return [r[0], r[1]];
}
