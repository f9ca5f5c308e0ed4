/** Reading a bounding box from a variable at a chosen level, in one call. */
import { type ArrayData, type DimSelection, get, openArray, type Registry, slice, type ZarrGroup } from "@zarr/core";
import { copyRegion, cStrides, type DimIndexer, type Store, ZarrError } from "@zarr/spec";
import type { Affine } from "./affine.js";
import type { BBox } from "./attributes.js";
import { isGeographic, type ResolvedCrs } from "./crs.js";
import { effectiveGeoreference, multiscalesOf } from "./effective.js";
import { bboxToWindows, chooseLevel, type IndexWindow, type LevelTarget } from "./geo.js";
import { type GeoHierarchy, joinRelative, loadHierarchy } from "./hierarchy.js";
import { describeMultiscales, type MultiscaleLevel } from "./multiscale.js";
import { type CrsLike, reprojectBbox, reprojection, type Reprojector } from "./reproject.js";

/** Options of {@link readBbox}. */
export interface ReadBboxOptions {
  /** The Multiscale Dataset, Dataset group or array (hierarchy path; default the root). */
  path?: string;
  /** The variable inside the level or Dataset (not needed when the level is an array). */
  variable?: string;
  /** A level index, asset name, or a target resolution / output size (default: the finest level). */
  level?: number | string | LevelTarget;
  /** `[xmin, ymin, xmax, ymax]`; xmin > xmax crosses the antimeridian. */
  bbox: BBox;
  /** CRS of `bbox` when it is not the data's (needs `reprojector`). */
  bboxCrs?: CrsLike;
  reprojector?: Reprojector;
  /** Non-spatial dimensions by name: an index (the dimension is dropped) or `[start, stop)`. Default: all of them. */
  select?: Record<string, number | readonly [number, number]>;
  /** Widen the window to whole chunks. */
  snapToChunks?: boolean;
  registry?: Registry;
  signal?: AbortSignal;
}

/** What {@link readBbox} returns: the values plus where they are. */
export interface BboxData extends ArrayData {
  /** Path of the array read (store path). */
  arrayPath: string;
  /** Names of the result's dimensions. */
  dimensionNames: (string | null)[];
  /** Transform of the result's pixel grid (coordinates continue across the antimeridian). */
  transform: Affine;
  /** The windows read (two when the box crosses the antimeridian of a global grid). */
  windows: IndexWindow[];
  crs?: ResolvedCrs;
  level?: MultiscaleLevel;
}

/**
 * Reads the pixels of a variable that a bounding box covers, at a chosen level of a
 * Multiscale Dataset (or from a plain Dataset or array): resolves the level, the
 * effective transform and CRS, reprojects the box when it is in another CRS, turns it
 * into index windows and reads them, joining the two halves of a box that crosses the
 * antimeridian.
 *
 * @example
 * ```ts
 * const r = await readBbox(store, { variable: "b04", level: { resolution: 60, mode: "finer" },
 *   bbox: [9.1, 45.2, 9.3, 45.4], bboxCrs: "EPSG:4326", reprojector: proj4Reprojector(proj4) });
 * r.shape; r.data; r.transform;
 * ```
 */
export async function readBbox(source: Store | ZarrGroup | GeoHierarchy, options: ReadBboxOptions): Promise<BboxData> {
  const h = isHierarchy(source) ? source : await loadHierarchy(source, { signal: options.signal, registry: options.registry });
  if (h.store === undefined) throw new ZarrError("INVALID_ARGUMENT", "The hierarchy has no store to read data from");
  const base = options.path ?? "";
  const node = h.node(base);
  if (node === undefined) throw new ZarrError("NODE_NOT_FOUND", `No node at "${base || "/"}"`);
  let arrayPath: string;
  let level: MultiscaleLevel | undefined;
  if (node.kind === "group" && multiscalesOf(node) !== undefined) {
    const ms = describeMultiscales(h, base);
    const want = options.level ?? 0;
    if (typeof want === "number") level = ms.levels[want];
    else if (typeof want === "string") level = ms.levels.find((l) => l.asset === want);
    else level = chooseLevel(ms.levels, "width" in want && want.bbox === undefined ? { ...want, bbox: options.bbox } : want);
    if (level === undefined) throw new ZarrError("INVALID_ARGUMENT", `No level ${JSON.stringify(want)} in "${base || "/"}"`);
    arrayPath = level.kind === "array" ? level.path : joinRelative(level.path, requireVariable(options));
  } else if (node.kind === "group") arrayPath = joinRelative(base, requireVariable(options));
  else arrayPath = base;
  const geo = effectiveGeoreference(h, arrayPath);
  if (geo.transform === undefined || geo.shape === undefined || geo.roles === undefined) {
    throw new ZarrError("INVALID_ARGUMENT", `"${arrayPath}" has no usable georeferencing (transform, shape and spatial dimensions)`);
  }
  let bbox = options.bbox;
  if (options.bboxCrs !== undefined) {
    if (geo.crs === undefined) throw new ZarrError("INVALID_ARGUMENT", `"${arrayPath}" has no CRS to reproject the box into`);
    const r = await reprojection(options.bboxCrs, geo.crs, options.reprojector);
    bbox = reprojectBbox(bbox, r.forward);
  }
  const arrNode = h.node(arrayPath);
  const chunk = arrNode?.chunkShape;
  const geographic = geo.crs !== undefined && isGeographic(geo.crs);
  const windows = bboxToWindows({ transform: geo.transform, shape: geo.shape, registration: geo.registration }, bbox, {
    period: geographic ? 360 : undefined,
    snap: options.snapToChunks && chunk !== undefined ? [chunk[geo.roles.y], chunk[geo.roles.x]] : undefined,
  });
  if (windows.length === 0) throw new ZarrError("OUT_OF_BOUNDS", `The box [${options.bbox.join(", ")}] does not meet the grid of "${arrayPath}"`);
  const array = await openArray(h.store, h.storePath(arrayPath), { registry: options.registry, signal: options.signal });
  const names = (arrNode?.dimensionNames ?? array.shape.map(() => null)) as (string | null)[];
  const roles = geo.roles;
  const kept: number[] = [];
  const pieces: ArrayData[] = [];
  for (const w of windows) {
    const sel: DimSelection[] = [];
    kept.length = 0;
    for (let d = 0; d < array.shape.length; d++) {
      if (d === roles.y) sel.push(slice(w.rowStart, w.rowStop));
      else if (d === roles.x) sel.push(slice(w.colStart, w.colStop));
      else {
        const s = names[d] === null ? undefined : options.select?.[names[d] as string];
        if (typeof s === "number") {
          sel.push(s);
          continue;
        }
        sel.push(s === undefined ? null : slice(s[0], s[1]));
      }
      kept.push(d);
    }
    pieces.push(await get(array, sel, { signal: options.signal }));
  }
  const xAxis = kept.indexOf(roles.x);
  const data = pieces.length === 1 ? pieces[0] : concatenate(pieces, xAxis);
  const out: BboxData = {
    ...data,
    arrayPath: h.storePath(arrayPath),
    dimensionNames: kept.map((d) => names[d]),
    transform: windows[0].transform,
    windows,
  };
  if (geo.crs !== undefined) out.crs = geo.crs;
  if (level !== undefined) out.level = level;
  return out;
}

function requireVariable(options: ReadBboxOptions): string {
  if (options.variable === undefined) throw new ZarrError("INVALID_ARGUMENT", "Name the variable to read (options.variable)");
  return options.variable;
}

function isHierarchy(v: unknown): v is GeoHierarchy {
  return typeof v === "object" && v !== null && typeof (v as GeoHierarchy).all === "function" && typeof (v as GeoHierarchy).storePath === "function";
}

/** Joins C-contiguous pieces along `axis`. */
function concatenate(pieces: ArrayData[], axis: number): ArrayData {
  const shape = pieces[0].shape.slice();
  shape[axis] = pieces.reduce((n, p) => n + p.shape[axis], 0);
  const dataType = pieces[0].dataType;
  const size = shape.reduce((a, b) => a * b, 1);
  const out: ArrayData = { data: dataType.allocate(size), shape, stride: cStrides(shape), dataType };
  let offset = 0;
  for (const p of pieces) {
    const src = p.shape.map((n) => ({ start: 0, step: 1, count: n }) as DimIndexer);
    const dst = p.shape.map((n, d) => ({ start: d === axis ? offset : 0, step: 1, count: n }) as DimIndexer);
    copyRegion(p, src, out, dst, dataType.width);
    offset += p.shape[axis];
  }
  return out;
}
