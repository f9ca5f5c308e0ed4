/**
 * Pyramid generation: from a GeoZarr Dataset (or one georeferenced array) to a
 * Multiscale Dataset. Every level is reduced from the full-resolution data by its total
 * factor (so `average`, `mode`, ... are exact block reductions of the data, not of the
 * level above), one output chunk (or shard) at a time, reading the source in strips of
 * bounded size: memory holds a few chunks, never a whole array.
 */
import {
  consolidateMetadata,
  createArray,
  createGroup,
  type ExtensionLike,
  get,
  normalizePath,
  openArray,
  type Registry,
  set,
  slice,
  type V2CodecConfig,
  writeNodeMetadata,
  type ZarrArray,
  type ZarrGroup,
} from "@zarr/core";
import {
  cStrides,
  isJsonObject,
  isWritable,
  type JsonObject,
  type JsonValue,
  type Store,
  type TypedArray,
  throwIfAborted,
  type WorkerPool,
  ZarrError,
} from "@zarr/spec";
import type { Affine } from "./affine.js";
import type { Registration } from "./attributes.js";
import { type ConventionsOption, datasetAttributes, type LevelInput, multiscalesAttributes, writeCoordinates } from "./builders.js";
import { type Crs, crsCode, isGeographic } from "./crs.js";
import { effectiveGeoreference, gridExtent } from "./effective.js";
import { type GeoHierarchy, type GeoNode, joinRelative, loadHierarchy } from "./hierarchy.js";
import { type PlannedLevel, planPyramid } from "./plan.js";
import { integerRange, type Plane, parseResampling, type ResamplingMethod, reducePlane } from "./resample.js";

/** Progress of a pyramid build. */
export interface PyramidProgress {
  /** Chunk tasks done and in total (all levels and variables). */
  done: number;
  total: number;
  /** The level and variable of the task that just finished. */
  level: number;
  variable: string;
}

/** How the pyramid's nodes are written. The default writes Zarr v3 through @zarr/core. */
export interface PyramidWriter {
  /** Zarr format written (recorded in the result). */
  readonly format: 2 | 3;
  createGroup(store: Store, path: string, attributes: JsonObject): Promise<void>;
  createArray(store: Store, path: string, spec: ArraySpec): Promise<ZarrArray>;
  /** Consolidates the metadata of the hierarchy at `path`. */
  consolidate?(store: Store, path: string): Promise<void>;
}

/** An array to create. */
export interface ArraySpec {
  shape: number[];
  /** The chunk (or shard, when `innerChunkShape` is set) shape. */
  chunkShape: number[];
  /** Inner chunk shape when sharding. */
  innerChunkShape?: number[];
  dataType: JsonValue;
  fillValue: JsonValue;
  dimensionNames: string[];
  attributes: JsonObject;
  /** Codecs (inside the shard when sharding). Undefined: the writer's default. */
  codecs?: readonly ExtensionLike[];
}

/** Options of {@link buildPyramid}. */
/** `conventions`: the declaration form written (`"v1"`, the mini-spec's, by default; `"v0.1"` for tools pinned to those tags). */
export interface PyramidOptions extends ConventionsOption {
  /** Path of the source Dataset group (or array) in the source store (default the root). */
  sourcePath?: string;
  /** Path of the Multiscale Dataset to create in the target store (default the root). */
  targetPath?: string;
  /** Variables to include (default: every array with both spatial dimensions). */
  variables?: readonly string[];
  /** 2, 3, or the factor of each level in turn (default 2). */
  factors?: number | readonly number[];
  /** Stop before a level whose smaller side would fall below this (default 256). */
  minSize?: number;
  /** One method for every variable, or per variable name (default `average`; `or` for booleans). */
  resampling?: ResamplingMethod | string | Record<string, ResamplingMethod | string>;
  /**
   * Values that mean "no data" (skipped by the reductions, written for empty blocks):
   * a number, `"fill_value"` (the array's fill value), or per variable. Default: the
   * variable's numeric `_FillValue` or `missing_value` attribute, if any. NaN is always skipped.
   */
  nodata?: number | "fill_value" | Record<string, number | "fill_value">;
  /** Spatial chunk shape `[rows, cols]` (default: the source's, capped at 1024, else 512). */
  chunkShape?: readonly [number, number];
  /** Spatial shard shape; needs the `sharding_indexed` codec in the registry. */
  shardShape?: readonly [number, number];
  /** Codecs of each chunk (default: the source's, without sharding). */
  codecs?: readonly ExtensionLike[];
  /** Names of the levels (default `"0"`, `"1"`, ...). */
  levelName?: (level: PlannedLevel) => string;
  /**
   * Most source samples (per plane) one read holds while a chunk is reduced (default
   * 2²⁰, 1 Mi samples). Bigger source blocks are read in pieces aligned to the source
   * chunks; a single output pixel's block (F² samples at total factor F) is read whole.
   */
  readBudget?: number;
  /** Chunk tasks in flight (default 4). */
  concurrency?: number;
  /** Replace what is at the target path. */
  overwrite?: boolean;
  /** Consolidate the target's metadata at the end (default true), so HTTP readers need one request. */
  consolidate?: boolean;
  /**
   * Also write GDAL's `_CRS` attribute (`url`, and `wkt`/`projjson` when known) on every
   * variable, which is how GDAL's Zarr driver reads a CRS. Default: true with a Zarr v2
   * writer (GDAL 3.6 reads only Zarr v2, and with `_ARRAY_DIMENSIONS` and the coordinate
   * arrays it then sees each level's CRS and geotransform), false for Zarr v3.
   */
  gdalCrs?: boolean;
  /**
   * The source already is level 0: a Dataset at `targetPath/<level 0 name>` of the target
   * store, written with the writer's format and the planned level-0 chunking, no sharding,
   * and the variables' final attributes (e.g. what `importGeoTiff` writes). It is kept as
   * it is instead of copied, and the levels are built from it. Without it, level 0 is a
   * copy of the source.
   */
  sourceIsLevelZero?: boolean;
  writer?: PyramidWriter;
  /**
   * Where codecs are looked up, for reading the source and writing the target (default:
   * the source's: an opened group's or hierarchy's registry, else @zarr/core's
   * `defaultRegistry`, which importing @zarr/all fills with every codec).
   */
  registry?: Registry;
  signal?: AbortSignal;
  /**
   * A worker pool (`createWorkerPool` from `@zarr/core/workers`) that decodes the source's
   * chunks and encodes the levels' chunks off the calling thread, as `get`/`set` take it.
   * The reductions themselves run on the calling thread.
   */
  workers?: WorkerPool;
  onProgress?: (progress: PyramidProgress) => void;
}

/** What {@link buildPyramid} wrote. */
export interface PyramidResult {
  path: string;
  levels: Array<PlannedLevel & { asset: string }>;
  variables: Array<{ name: string; resampling: ResamplingMethod; nodata?: number }>;
  /** The attributes written on the Multiscale Dataset group. */
  attributes: JsonObject;
  format: 2 | 3;
}

/** Writes Zarr v3 through @zarr/core. */
export function v3Writer(registry?: Registry): PyramidWriter {
  return {
    format: 3,
    async createGroup(store, path, attributes) {
      await createGroup(store, path, { attributes, registry, overwrite: true });
    },
    async createArray(store, path, spec) {
      let codecs = spec.codecs;
      let chunkShape = spec.chunkShape;
      if (spec.innerChunkShape !== undefined) {
        const inner = (spec.codecs ?? [{ name: "bytes", configuration: { endian: "little" } }]).map((c) =>
          typeof c === "string" ? { name: c, configuration: {} } : c,
        );
        codecs = [
          {
            name: "sharding_indexed",
            configuration: {
              chunk_shape: spec.innerChunkShape,
              codecs: inner as JsonValue[],
              index_codecs: [{ name: "bytes", configuration: { endian: "little" } }, { name: "crc32c", configuration: {} }],
              index_location: "end",
            },
          },
        ];
        chunkShape = spec.chunkShape;
      }
      return createArray(store, path, {
        shape: spec.shape,
        chunkShape,
        dataType: spec.dataType as ExtensionLike,
        fillValue: spec.fillValue,
        dimensionNames: spec.dimensionNames,
        attributes: spec.attributes,
        codecs,
        registry,
        overwrite: true,
      });
    },
    async consolidate(store, path) {
      await consolidateMetadata(store, path);
    },
  };
}

/**
 * Writes Zarr v2 through @zarr/core's `createArray`/`createGroup` with `zarrFormat: 2`
 * (for tools that read only v2, such as GDAL 3.6): the registry must hold the Zarr v2
 * format (`v2Format` of @zarr/v2-compat, or @zarr/all's registry), else the first write
 * is an `UNSUPPORTED` error. Dimension names become `_ARRAY_DIMENSIONS`, each chunk gets
 * `compressor` (numcodecs config; default zlib level 1, which every v2 reader has). No
 * sharding.
 *
 * @example
 * ```ts
 * const registry = createRegistry([zlib, v2Format]);
 * await buildPyramid(src, dst, { writer: v2Writer({ registry }), registry }); // with GDAL's _CRS
 * ```
 */
export function v2Writer(options: { registry?: Registry; compressor?: V2CodecConfig | null } = {}): PyramidWriter {
  const registry = options.registry;
  return {
    format: 2,
    async createGroup(store, path, attributes) {
      await createGroup(store, path, { zarrFormat: 2, attributes, overwrite: true, registry });
    },
    async createArray(store, path, spec) {
      if (spec.innerChunkShape !== undefined) throw new ZarrError("UNSUPPORTED", "Zarr v2 has no sharding: leave shardShape out for v2 output");
      return createArray(store, path, {
        zarrFormat: 2,
        shape: spec.shape,
        chunkShape: spec.chunkShape,
        dataType: spec.dataType as ExtensionLike,
        fillValue: spec.fillValue,
        dimensionNames: spec.dimensionNames,
        attributes: spec.attributes,
        compressor: options.compressor === undefined ? { id: "zlib", level: 1 } : options.compressor,
        chunkKeyEncoding: { name: "v2", separator: "/" },
        overwrite: true,
        registry,
      });
    },
    async consolidate(store, path) {
      await consolidateMetadata(store, path, { registry });
    },
  };
}

interface Variable {
  node: GeoNode;
  /** Name in each level (an array at the store's root has none: "data"). */
  name: string;
  array: ZarrArray;
  method: ResamplingMethod;
  nodata?: number;
  yAxis: number;
  xAxis: number;
}

const CONVENTION_KEYS = /^(proj:|spatial:|zarr_conventions$|multiscales$|_CRS$|grid_mapping$)/;

/** Source attributes worth keeping on a level's variable (not georeferencing, which the level carries). */
function carriedAttributes(attributes: JsonObject): JsonObject {
  const out: JsonObject = {};
  for (const [k, v] of Object.entries(attributes)) if (!CONVENTION_KEYS.test(k)) out[k] = v;
  return out;
}

function numericAttribute(v: JsonValue | undefined): number | undefined {
  if (typeof v === "number") return v;
  if (v === "NaN") return Number.NaN;
  return undefined;
}

function resolveNodata(options: PyramidOptions, v: GeoNode, array: ZarrArray): number | undefined {
  const spec = typeof options.nodata === "object" ? options.nodata[v.name] : options.nodata;
  if (spec === "fill_value") {
    const f = array.fillValue;
    return typeof f === "number" ? f : undefined;
  }
  if (typeof spec === "number") return spec;
  const attr = numericAttribute(v.attributes._FillValue) ?? numericAttribute(v.attributes.missing_value);
  return attr === undefined || Number.isNaN(attr) ? undefined : attr;
}

function resolveMethod(options: PyramidOptions, v: GeoNode, array: ZarrArray): ResamplingMethod {
  const spec = typeof options.resampling === "object" ? options.resampling[v.name] : options.resampling;
  if (spec !== undefined) return parseResampling(spec);
  return array.dataType.kind === "bool" ? "or" : "average";
}

/**
 * Builds a Multiscale Dataset from a Dataset: level 0 is a copy of the source variables
 * (rechunked as planned), each further level is reduced from the full-resolution source
 * by its total (cumulative) factor, so each output pixel is the exact reduction of its
 * source block (see {@link ResamplingMethod} for each method's rule). Every level gets
 * exact `spatial:shape` and `spatial:transform`, `derived_from` level 0 with its total
 * factor as the relative `transform`, its resampling method, coordinate arrays, and the
 * CRS; the group gets the layout and all three convention declarations. Level k reads
 * the source once, so a pyramid of L levels reads it L times.
 *
 * @example
 * ```ts
 * await buildPyramid(source, target, { factors: [2, 3, 2], minSize: 256,
 *   resampling: { scl: "mode", b04: "average" }, onProgress: (p) => console.log(p.done, p.total) });
 * ```
 */
export async function buildPyramid(source: Store | ZarrGroup | ZarrArray | GeoHierarchy, target: Store, options: PyramidOptions = {}): Promise<PyramidResult> {
  const signal = options.signal;
  const prepared = await preparePyramid(source, target, options, true);
  const concurrency = Math.max(1, options.concurrency ?? 4);
  let done = 0;
  const total = prepared.tasks.length;
  await runPool(prepared.tasks, concurrency, signal, async (task) => {
    await prepared.run(task, signal);
    done++;
    options.onProgress?.({ done, total, level: task.level, variable: task.variable });
  });
  await prepared.consolidate();
  return prepared.result;
}

/** One chunk (or shard) of one level of one variable: the grain of a pyramid build. */
export interface PyramidTask {
  level: number;
  variable: string;
  /** The array written and the chunk's grid position in it. */
  array: ZarrArray;
  coords: number[];
  /** The chunk's elements, `[start, stop)` per dimension. */
  window: Array<[number, number]>;
  /** The level-0 pixels the chunk reduces: `[rows, cols]`, `[start, stop)` each. */
  footprint: [[number, number], [number, number]];
}

/** A pyramid with its nodes created: the chunk tasks to run, and what finishes it. */
export interface PreparedPyramid {
  result: PyramidResult;
  /** Every chunk of every level to compute (level 0 too, unless `sourceIsLevelZero`). */
  tasks: PyramidTask[];
  /** Computes and writes one task's chunk (the same bytes every time). */
  run(task: PyramidTask, signal?: AbortSignal, workers?: WorkerPool): Promise<void>;
  /** Consolidates the target's metadata when the options ask for it. */
  consolidate(): Promise<void>;
}

/**
 * Everything `buildPyramid` does before computing chunks: plans the levels and writes the
 * groups, coordinate arrays and (empty) level arrays into `target`, and lists the chunk
 * tasks. `checkExisting` refuses a node already at the target path (unless `overwrite`);
 * a partitioned job checks instead that the node there is its own.
 */
export async function preparePyramid(
  source: Store | ZarrGroup | ZarrArray | GeoHierarchy,
  target: Store,
  options: PyramidOptions,
  checkExisting: boolean,
): Promise<PreparedPyramid> {
  const signal = options.signal;
  const io: ChunkIo = { signal, workers: options.workers };
  throwIfAborted(signal);
  const budget = options.readBudget ?? SOURCE_BUDGET;
  if (!(budget >= 1)) throw new ZarrError("INVALID_ARGUMENT", `readBudget must be ≥ 1 (source samples per read), got ${budget}`);
  const h = isHierarchy(source) ? source : await loadHierarchy(source, { path: options.sourcePath, signal, registry: options.registry });
  if (h.store === undefined) throw new ZarrError("INVALID_ARGUMENT", "The source hierarchy has no store to read from");
  const srcStore = h.store;
  const root = h.root;
  if (root === undefined) throw new ZarrError("NODE_NOT_FOUND", "The source hierarchy is empty");
  // The source variables: every array of the Dataset with both spatial dimensions.
  const candidates = root.kind === "array" ? [root] : h.children("").filter((c) => c.kind === "array");
  const georefs = new Map(candidates.map((c) => [c.path, effectiveGeoreference(h, c.path)]));
  let vars = candidates.filter((c) => {
    const g = georefs.get(c.path);
    return g?.roles !== undefined && g.transform !== undefined && g.shape !== undefined && (c.shape?.length ?? 0) >= 2;
  });
  if (options.variables !== undefined) {
    const want = new Set(options.variables);
    const missing = [...want].filter((n) => !vars.some((v) => v.name === n));
    if (missing.length > 0) throw new ZarrError("INVALID_ARGUMENT", `No georeferenced variable named ${missing.map((m) => `"${m}"`).join(", ")} in the source`);
    vars = vars.filter((v) => want.has(v.name));
  }
  if (vars.length === 0) {
    throw new ZarrError("INVALID_ARGUMENT", "The source has no georeferenced variable (spatial dimensions, transform and shape) to build a pyramid from");
  }
  const geo0 = georefs.get(vars[0].path) as ReturnType<typeof effectiveGeoreference>;
  const transform = geo0.transform as Affine;
  const shape0 = geo0.shape as readonly [number, number];
  const dims = geo0.dimensions as readonly [string, string];
  const registration: Registration = geo0.registration;
  for (const v of vars) {
    const g = georefs.get(v.path) as ReturnType<typeof effectiveGeoreference>;
    if (g.shape?.[0] !== shape0[0] || g.shape?.[1] !== shape0[1] || g.transform?.some((x, i) => x !== transform[i])) {
      throw new ZarrError("INVALID_ARGUMENT", `Variable "${v.name}" is on another grid than "${vars[0].name}"; build one pyramid per grid (options.variables)`);
    }
  }
  const crs: Crs | undefined = geo0.crs === undefined ? undefined : { ...geo0.crs };
  if (crs !== undefined) {
    delete (crs as { source?: unknown }).source;
    delete (crs as { from?: unknown }).from;
  }
  // Codecs resolve like the source's own reads: the registry given, else the hierarchy's.
  const registry = options.registry ?? h.registry;
  const variables: Variable[] = [];
  for (const v of vars) {
    const array = await openArray(srcStore, h.storePath(v.path), { registry, signal });
    if (!REDUCIBLE.has(array.dataType.kind)) {
      throw new ZarrError("UNSUPPORTED", `Variable "${v.name}" has the data type ${array.dataType.name}; pyramids resample booleans, integers and floats (leave it out with options.variables)`);
    }
    const g = georefs.get(v.path) as ReturnType<typeof effectiveGeoreference>;
    const roles = g.roles as NonNullable<typeof g.roles>;
    const variable: Variable = { node: v, name: v.name === "" ? "data" : v.name, array, method: resolveMethod(options, v, array), yAxis: roles.y, xAxis: roles.x };
    const nd = resolveNodata(options, v, array);
    if (nd !== undefined) variable.nodata = nd;
    variables.push(variable);
  }
  const srcChunk = vars[0].chunkShape;
  const defaultChunk: [number, number] =
    srcChunk === undefined
      ? [512, 512]
      : [Math.min(1024, srcChunk[variables[0].yAxis]), Math.min(1024, srcChunk[variables[0].xAxis])];
  const plan = planPyramid({
    shape: shape0,
    transform,
    factors: options.factors,
    minSize: options.minSize,
    chunkShape: options.chunkShape ?? defaultChunk,
    shardShape: options.shardShape,
  });
  const name = options.levelName ?? ((l: PlannedLevel) => String(l.index));
  const levels = plan.map((l) => ({ ...l, asset: name(l) }));
  const base = options.targetPath ?? "";
  const inPlace = options.sourceIsLevelZero === true;
  // A level 0 in place lies below the group, which must then be written without deleting it.
  const givenWriter = options.writer ?? v3Writer(registry);
  const writer = inPlace ? keepChildrenWriter(givenWriter, normalizePath(base)) : givenWriter;
  const gdalCrs = options.gdalCrs ?? writer.format === 2;
  const defaultMethod = mostCommon(variables.map((v) => v.method));
  // Root group first (so a reader can see what is being built), levels after.
  const levelInputs: LevelInput[] = levels.map((l, i) => {
    const methods = variables.map((v) => v.method);
    const uniform = methods.every((m) => m === methods[0]);
    const input: LevelInput = { asset: l.asset, shape: l.shape, transform: l.transform };
    if (i === 0) {
      input.scale = [1, 1];
      input.translation = [0, 0];
    } else {
      // Built straight from level 0 (see below), which `derived_from` records.
      input.derivedFrom = levels[0].asset;
      input.scale = [l.cumulative, l.cumulative];
      input.translation = [0, 0];
      input.resamplingMethod = uniform ? methods[0] : defaultMethod;
      if (!uniform) input.extra = { resampling_methods: Object.fromEntries(variables.map((v) => [v.name, v.method])) };
    }
    return input;
  });
  const attributes = multiscalesAttributes({
    levels: levelInputs,
    resamplingMethod: defaultMethod,
    crs,
    spatial: { dimensions: dims, bbox: gridExtent(transform, shape0, registration), registration },
    conventions: options.conventions,
  });
  if (checkExisting && options.overwrite !== true) {
    const existing = await target.get(base === "" ? "zarr.json" : `${base}/zarr.json`, { signal });
    if (existing !== undefined) throw new ZarrError("NODE_EXISTS", `A node already exists at "${base || "/"}" of the target (pass overwrite: true)`);
  }
  if (inPlace) checkLevelZero(normalizePath(h.storePath("")), srcStore, target, normalizePath(joinRelative(base, levels[0].asset)), levels[0], variables);
  await writer.createGroup(target, base, attributes);
  // Level groups, coordinates, and the (empty) level arrays.
  const outArrays: ZarrArray[][] = [];
  const copyAux = candidates.filter((c) => !vars.includes(c) && c.shape?.length === 1 && !dims.includes(c.name));
  for (const level of levels) {
    if (inPlace && level.index === 0) {
      outArrays.push(variables.map((v) => v.array));
      continue;
    }
    const lpath = joinRelative(base, level.asset);
    const geoSpatial = { dimensions: dims, transform: level.transform as Affine, shape: level.shape, registration };
    if (crs !== undefined) await writer.createGroup(target, lpath, datasetAttributes({ crs, spatial: geoSpatial, conventions: options.conventions }));
    else await writer.createGroup(target, lpath, {});
    if (writer.format === 3) {
      await writeCoordinates(target, lpath, { ...geoSpatial, geographic: crs !== undefined && isGeographic(crs), registry, signal });
    } else {
      await writeCoordinatesWith(writer, target, lpath, geoSpatial);
    }
    for (const aux of copyAux) await copyWhole(srcStore, h.storePath(aux.path), writer, target, joinRelative(lpath, aux.name), aux, registry, io);
    const arrays: ZarrArray[] = [];
    for (const v of variables) {
      const shape = v.array.shape.slice();
      shape[v.yAxis] = level.shape[0];
      shape[v.xAxis] = level.shape[1];
      const chunk = shape.map(() => 1);
      const spatialOuter = level.shardShape ?? level.chunkShape;
      chunk[v.yAxis] = spatialOuter[0];
      chunk[v.xAxis] = spatialOuter[1];
      let inner: number[] | undefined;
      if (level.shardShape !== undefined) {
        inner = shape.map(() => 1);
        inner[v.yAxis] = level.chunkShape[0];
        inner[v.xAxis] = level.chunkShape[1];
      }
      const attrs = carriedAttributes(v.node.attributes);
      if (gdalCrs && crs !== undefined) attrs._CRS = gdalCrsAttribute(crs);
      const spec: ArraySpec = {
        shape,
        chunkShape: chunk,
        dataType: dataTypeJson(v.array),
        fillValue: v.array.metadata.fill_value,
        dimensionNames: (v.node.dimensionNames ?? shape.map((_, i) => `dim_${i}`)) as string[],
        attributes: attrs,
        codecs: options.codecs ?? innerCodecs(v.array),
      };
      if (inner !== undefined) spec.innerChunkShape = inner;
      arrays.push(await writer.createArray(target, joinRelative(lpath, v.name), spec));
    }
    outArrays.push(arrays);
  }
  // Every level is reduced from the full-resolution source by its total factor, so its
  // values are exact block reductions of the data (a mean of means, a mode of modes or a
  // chained nearest pick would drift), and no level depends on another: the tasks can run
  // in any order, in any process.
  const first = inPlace ? 1 : 0;
  const tasks: PyramidTask[] = [];
  for (let li = first; li < levels.length; li++) {
    const factor = levels[li].cumulative;
    for (let vi = 0; vi < variables.length; vi++) {
      const v = variables[vi];
      const array = outArrays[li][vi];
      const cs = array.chunkShape ?? array.shape;
      for (const window of chunkWindows(array)) {
        const spatial = (d: number): [number, number] => [window[d][0] * factor, Math.min(shape0[d === v.yAxis ? 0 : 1], window[d][1] * factor)];
        tasks.push({
          level: li,
          variable: v.name,
          array,
          coords: window.map(([a], d) => Math.floor(a / cs[d])),
          window,
          footprint: [spatial(v.yAxis), spatial(v.xAxis)],
        });
      }
    }
  }
  const byName = new Map(variables.map((v) => [v.name, v]));
  return {
    result: {
      path: base,
      levels,
      variables: variables.map((v) => (v.nodata === undefined ? { name: v.name, resampling: v.method } : { name: v.name, resampling: v.method, nodata: v.nodata })),
      attributes,
      format: writer.format,
    },
    tasks,
    run: (task, taskSignal, workers) => {
      const v = byName.get(task.variable) as Variable;
      return processWindow(v.array, task.array, task.window, v, levels[task.level].cumulative, budget, { signal: taskSignal, workers: workers ?? options.workers });
    },
    consolidate: async () => {
      if ((options.consolidate ?? true) && writer.consolidate !== undefined) await writer.consolidate(target, base);
    },
  };
}

/**
 * Checks what `sourceIsLevelZero` promises: the source Dataset sits where level 0 goes, in
 * the target store, chunked as level 0 is planned, without sharding.
 */
function checkLevelZero(sourcePath: string, source: Store, target: Store, levelPath: string, level: PlannedLevel, variables: Variable[]): void {
  const refuse = (why: string) => {
    throw new ZarrError("INVALID_ARGUMENT", `sourceIsLevelZero: ${why}`);
  };
  if (source !== target || sourcePath !== levelPath) refuse(`the source must be the Dataset at "${levelPath}" of the target store, not "${sourcePath}"`);
  if (level.shardShape !== undefined) refuse("level 0 is planned with shards; the source has none");
  for (const v of variables) {
    const chunk = v.array.chunkShape;
    if (chunk === undefined || v.array.codecs.codecs.some((c) => c.name === "sharding_indexed")) refuse(`variable "${v.name}" has no regular chunks or is sharded`);
    const c = chunk as readonly number[];
    if (c[v.yAxis] !== level.chunkShape[0] || c[v.xAxis] !== level.chunkShape[1]) {
      refuse(`variable "${v.name}" has chunks [${c.join(", ")}], level 0 is planned with ${level.chunkShape[0]}×${level.chunkShape[1]}`);
    }
  }
}

/**
 * A writer that writes the Multiscale Dataset's root group document in place, without
 * deleting what is below it (the Dataset the levels are built from, when it lies below).
 */
export function keepChildrenWriter(inner: PyramidWriter, base: string): PyramidWriter {
  return {
    format: inner.format,
    async createGroup(store, path, attributes) {
      if (normalizePath(path) !== base) return inner.createGroup(store, path, attributes);
      if (inner.format === 3) {
        await writeNodeMetadata(store, base, { zarr_format: 3, node_type: "group", attributes });
        return;
      }
      if (!isWritable(store)) throw new ZarrError("STORE_READ_ONLY", `Cannot write the group at "${base || "/"}": the store is not writable`);
      const prefix = base === "" ? "" : `${base}/`;
      await store.set(`${prefix}.zgroup`, new TextEncoder().encode(JSON.stringify({ zarr_format: 2 })));
      await store.set(`${prefix}.zattrs`, new TextEncoder().encode(JSON.stringify(attributes)));
    },
    createArray: (store, path, spec) => inner.createArray(store, path, spec),
    ...(inner.consolidate === undefined ? {} : { consolidate: inner.consolidate.bind(inner) }),
  };
}

function isHierarchy(v: unknown): v is GeoHierarchy {
  return typeof v === "object" && v !== null && typeof (v as GeoHierarchy).all === "function" && typeof (v as GeoHierarchy).storePath === "function";
}

/** The method most variables use; a tie goes to `average`, else to the first name in order. */
function mostCommon(xs: readonly ResamplingMethod[]): ResamplingMethod {
  const counts = new Map<ResamplingMethod, number>();
  for (const x of xs) counts.set(x, (counts.get(x) ?? 0) + 1);
  const top = Math.max(...counts.values());
  const tied = [...counts.keys()].filter((k) => counts.get(k) === top).sort();
  return tied.includes("average") ? "average" : tied[0];
}

/** GDAL's `_CRS` attribute for a CRS (`url` for EPSG codes, plus `wkt`/`projjson` when known). */
export function gdalCrsAttribute(crs: Crs): JsonObject {
  const out: JsonObject = {};
  const code = crsCode(crs);
  const m = code === undefined ? null : /^([A-Z]+):(.+)$/.exec(code);
  if (m) out.url = `http://www.opengis.net/def/crs/${m[1]}/0/${m[2]}`;
  if (crs.wkt2 !== undefined) out.wkt = crs.wkt2;
  if (crs.projjson !== undefined) out.projjson = crs.projjson;
  return out;
}

/** The data type of an array as metadata JSON. */
function dataTypeJson(array: ZarrArray): JsonValue {
  const dt = array.metadata.data_type;
  return Object.keys(dt.configuration).length > 0 ? { name: dt.name, configuration: dt.configuration } : dt.name;
}

const REDUCIBLE = new Set(["bool", "int", "uint", "float"]);

/** The codecs inside each chunk of a source array (the inner chain when it is sharded). */
function innerCodecs(array: ZarrArray): ExtensionLike[] {
  const codecs = array.metadata.codecs;
  if (codecs.length === 1 && codecs[0].name === "sharding_indexed") {
    const inner = codecs[0].configuration.codecs;
    if (Array.isArray(inner)) return inner.filter(isJsonObject).map((c) => ({ name: String(c.name), configuration: (c.configuration ?? {}) as JsonObject }));
  }
  return codecs.map((c) => ({ name: c.name, configuration: c.configuration }));
}

async function writeCoordinatesWith(
  writer: PyramidWriter,
  store: Store,
  path: string,
  grid: { dimensions: readonly [string, string]; transform: Affine; shape: readonly [number, number]; registration: Registration },
): Promise<void> {
  const t = grid.transform;
  const o = grid.registration === "node" ? 0 : 0.5;
  const axes: Array<[string, number, (i: number) => number]> = [
    [grid.dimensions[0], grid.shape[0], (i) => t[4] * (i + o) + t[5]],
    [grid.dimensions[1], grid.shape[1], (j) => t[0] * (j + o) + t[2]],
  ];
  for (const [name, n, f] of axes) {
    const arr = await writer.createArray(store, joinRelative(path, name), {
      shape: [n],
      chunkShape: [n],
      dataType: "float64",
      fillValue: "NaN",
      dimensionNames: [name],
      attributes: {},
    });
    await set(arr, null, Float64Array.from({ length: n }, (_, i) => f(i)));
  }
}

/** What every chunk read and write of a pyramid passes on: cancellation and the worker pool. */
interface ChunkIo {
  signal?: AbortSignal;
  workers?: WorkerPool;
}

async function copyWhole(srcStore: Store, srcPath: string, writer: PyramidWriter, store: Store, path: string, node: GeoNode, registry: Registry | undefined, io: ChunkIo): Promise<void> {
  const src = await openArray(srcStore, srcPath, { registry, signal: io.signal });
  const dst = await writer.createArray(store, path, {
    shape: src.shape.slice(),
    chunkShape: src.chunkShape?.slice() ?? src.shape.slice(),
    dataType: dataTypeJson(src),
    fillValue: src.metadata.fill_value,
    dimensionNames: (node.dimensionNames ?? [node.name]) as string[],
    attributes: carriedAttributes(node.attributes),
    codecs: innerCodecs(src),
  });
  const values = await get(src, null, io);
  await set(dst, null, values, io);
}

/** One destination chunk: `[start, stop)` per dimension. */
type Window = Array<[number, number]>;

function chunkWindows(a: ZarrArray): Window[] {
  const cs = a.chunkShape ?? a.shape;
  const counts = a.shape.map((s, d) => Math.ceil(s / cs[d]));
  const out: Window[] = [];
  const idx = counts.map(() => 0);
  if (counts.some((c) => c === 0)) return out;
  for (;;) {
    out.push(idx.map((i, d) => [i * cs[d], Math.min(a.shape[d], (i + 1) * cs[d])]));
    let d = idx.length - 1;
    for (; d >= 0; d--) {
      if (++idx[d] < counts[d]) break;
      idx[d] = 0;
    }
    if (d < 0) return out;
  }
}

async function runPool<T>(items: T[], n: number, signal: AbortSignal | undefined, fn: (item: T) => Promise<void>): Promise<void> {
  let next = 0;
  let failed: unknown;
  const worker = async () => {
    while (failed === undefined && next < items.length) {
      throwIfAborted(signal);
      const item = items[next++];
      try {
        await fn(item);
      } catch (error) {
        failed ??= error;
      }
    }
  };
  await Promise.all(Array.from({ length: Math.min(n, items.length) }, worker));
  if (failed !== undefined) throw failed;
}

/**
 * Source samples (per plane) one read may hold while a chunk is reduced (1 Mi: a
 * 1024×1024 source chunk). A destination chunk whose source block is larger is reduced
 * piece by piece, so a task holds about max(SOURCE_BUDGET, F²) source samples (plus the
 * source chunks a piece touches, and its output chunk), however deep the level.
 */
const SOURCE_BUDGET = 1 << 20;

/** A piece of a destination window: output rows and columns, `[start, stop)`. */
type Piece = { rows: [number, number]; cols: [number, number] };

/**
 * Splits the spatial extent of a destination window into pieces whose source blocks hold
 * at most `budget` samples (never less than one output pixel, F² samples). Pieces span
 * whole source chunk rows (and, when narrower than the window, whole source chunk
 * columns) where the budget allows, so each source chunk is decoded for one piece only.
 */
function sourcePieces(rows: readonly [number, number], cols: readonly [number, number], factor: number, budget: number, sourceChunk?: readonly [number, number]): Piece[] {
  const perPixel = factor * factor;
  const height = rows[1] - rows[0];
  const width = cols[1] - cols[0];
  // Output rows (columns) that one source chunk row (column) spans.
  const chunkRows = sourceChunk === undefined ? 1 : Math.ceil(sourceChunk[0] / factor);
  const chunkCols = sourceChunk === undefined ? 1 : Math.ceil(sourceChunk[1] / factor);
  let pieceRows = Math.min(height, Math.max(1, Math.min(chunkRows, Math.floor(budget / perPixel))));
  let pieceCols = Math.max(1, Math.min(width, Math.floor(budget / (perPixel * pieceRows))));
  if (pieceCols === width) {
    // Whole rows of the window fit: as many as the budget holds, in whole source chunk rows.
    const fit = Math.max(pieceRows, Math.floor(budget / (perPixel * width)));
    pieceRows = Math.min(height, fit >= chunkRows ? fit - (fit % chunkRows) : fit);
  } else if (pieceCols >= chunkCols) {
    pieceCols -= pieceCols % chunkCols;
  }
  const out: Piece[] = [];
  for (let r = rows[0]; r < rows[1]; r += pieceRows) {
    for (let c = cols[0]; c < cols[1]; c += pieceCols) {
      out.push({ rows: [r, Math.min(rows[1], r + pieceRows)], cols: [c, Math.min(cols[1], c + pieceCols)] });
    }
  }
  return out;
}

/**
 * Fills one destination chunk of a level from the full-resolution source: every output
 * pixel is the reduction of its whole `factor × factor` source block (the level's total
 * factor), read piece by piece within `budget` samples. With factor 1 it is a copy.
 */
async function processWindow(src: ZarrArray, dst: ZarrArray, win: Window, v: Variable, factor: number, budget: number, io: ChunkIo): Promise<void> {
  const signal = io.signal;
  if (factor === 1) {
    const block = await get(src, win.map(([a, b]) => slice(a, b)), io);
    await set(dst, win.map(([a, b]) => slice(a, b)), block, io);
    return;
  }
  const outShape = win.map(([a, b]) => b - a);
  const out = dst.dataType.allocate(outShape.reduce((n, s) => n * s, 1)) as TypedArray;
  const outStride = cStrides(outShape);
  const integer = integerRange(out);
  const scratch = v.method === "mode" ? new Float64Array(factor * factor) : undefined;
  const rowsWin = win[v.yAxis];
  const colsWin = win[v.xAxis];
  const chunk = src.chunkShape;
  const sourceChunk = chunk === undefined ? undefined : ([chunk[v.yAxis], chunk[v.xAxis]] as const);
  for (const piece of sourcePieces(rowsWin, colsWin, factor, budget, sourceChunk)) {
    throwIfAborted(signal);
    const selection = win.map(([a, b], d) => {
      const [p0, p1] = d === v.yAxis ? piece.rows : d === v.xAxis ? piece.cols : [a, b];
      if (d !== v.yAxis && d !== v.xAxis) return slice(p0, p1);
      return slice(p0 * factor, Math.min(src.shape[d], p1 * factor));
    });
    const block = await get(src, selection, io);
    const inStride = cStrides(block.shape);
    // Every combination of the non-spatial indices is one plane.
    const others = block.shape.map((_, d) => d).filter((d) => d !== v.yAxis && d !== v.xAxis);
    const idx = others.map(() => 0);
    const pieceOffset = (piece.rows[0] - rowsWin[0]) * outStride[v.yAxis] + (piece.cols[0] - colsWin[0]) * outStride[v.xAxis];
    for (;;) {
      let inOff = 0;
      let outOff = pieceOffset;
      others.forEach((d, k) => {
        inOff += idx[k] * inStride[d];
        outOff += idx[k] * outStride[d];
      });
      const srcPlane: Plane = {
        data: block.data as TypedArray,
        offset: inOff,
        height: block.shape[v.yAxis],
        width: block.shape[v.xAxis],
        rowStride: inStride[v.yAxis],
        colStride: inStride[v.xAxis],
      };
      const dstPlane: Plane = {
        data: out,
        offset: outOff,
        height: piece.rows[1] - piece.rows[0],
        width: piece.cols[1] - piece.cols[0],
        rowStride: outStride[v.yAxis],
        colStride: outStride[v.xAxis],
      };
      reducePlane(srcPlane, dstPlane, { method: v.method, fy: factor, fx: factor, nodata: v.nodata, integer, scratch });
      let k = others.length - 1;
      for (; k >= 0; k--) {
        if (++idx[k] < block.shape[others[k]]) break;
        idx[k] = 0;
      }
      if (k < 0) break;
    }
  }
  throwIfAborted(signal);
  await set(dst, win.map(([a, b]) => slice(a, b)), { data: out, shape: outShape }, io);
}
