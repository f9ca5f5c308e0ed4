/**
 * Typed builders for convention attributes. Every builder emits the `zarr_conventions`
 * entries for exactly the conventions whose keys it writes — v1, as the mini-spec shows
 * them, or v0.1 with `conventions: "v0.1"` — and checks its input so what it writes
 * validates under that version's rules.
 */
import { createArray, createGroup, type Registry, set, type ZarrGroup } from "@zarr/core";
import { type JsonObject, type JsonValue, type Store, ZarrError } from "@zarr/spec";
import { type Affine, determinant, isAffine, isAxisAligned } from "./affine.js";
import type { BBox, Registration } from "./attributes.js";
import { isRelativeAssetPath, PROJ_CODE_PATTERNS } from "./attributes.js";
import { type ConventionName, type ConventionsVersion, conventionsVersion, detectConventions, withConventions } from "./conventions.js";
import { type Crs, isCrsCode, isGeographic, projjsonProblem, wktVersion } from "./crs.js";
import { gridExtent } from "./effective.js";

/** The spatial fields to write. */
export interface SpatialInput {
  /** `[Y, X]` dimension names. */
  dimensions: readonly [string, string];
  transform?: Affine;
  /** `[height, width]`. */
  shape?: readonly [number, number];
  /** Default: computed from transform and shape when both are given (set `false` to leave it out). */
  bbox?: BBox | false;
  /** Written only when not the default `"pixel"`. */
  registration?: Registration;
}

/** One level of a multiscales layout. */
export interface LevelInput {
  asset: string;
  derivedFrom?: string;
  /** Relative `[sy, sx]` scale from `derivedFrom` (required with it). */
  scale?: readonly number[];
  translation?: readonly number[];
  resamplingMethod?: string;
  /** The level's `spatial:shape`. */
  shape?: readonly [number, number];
  /** The level's `spatial:transform`. */
  transform?: Affine;
  /** Further keys for the layout entry. */
  extra?: JsonObject;
}

function bad(message: string): never {
  throw new ZarrError("INVALID_ARGUMENT", message);
}

/** The option every builder takes: which form of the declarations to write. */
export interface ConventionsOption {
  /**
   * `"v1"` (default): the entries and rules the mini-spec shows (`proj:`/`spatial:` names,
   * v1 URLs, exactly one CRS field, `proj:code` LETTERS:DIGITS). `"v0.1"`: the conventions'
   * v0.1 tags, as geozarr-toolkit and its metazarr validator expect.
   */
  conventions?: ConventionsVersion;
}

/**
 * `proj:` attributes for a CRS, with the proj declaration. Under v1 (the default) exactly
 * one CRS field is written: `proj:code` when it matches `^[A-Z]+:[0-9]+$`, else
 * `proj:wkt2`, else `proj:projjson`; v0.1 writes every field given.
 *
 * @example
 * ```ts
 * projAttributes({ code: "EPSG:32633" });
 * // { "proj:code": "EPSG:32633", zarr_conventions: [{ uuid: "f17cb550-…", name: "proj:", … }] }
 * projAttributes({ code: "OGC:CRS84" }, { conventions: "v0.1" }); // the v0.1 entry (name "proj")
 * ```
 */
export function projAttributes(crs: Crs, options: ConventionsOption = {}): JsonObject {
  const version = conventionsVersion(options.conventions);
  const out: JsonObject = {};
  if (crs.code !== undefined) {
    if (!isCrsCode(crs.code)) bad(`proj:code must be AUTHORITY:CODE (e.g. "EPSG:32633"), got "${crs.code}"`);
    out["proj:code"] = crs.code;
  }
  if (crs.wkt2 !== undefined) {
    if (wktVersion(crs.wkt2) === undefined) bad("proj:wkt2 must be a WKT string");
    out["proj:wkt2"] = crs.wkt2;
  }
  if (crs.projjson !== undefined) {
    const problem = projjsonProblem(crs.projjson);
    if (problem !== undefined) bad(`proj:projjson must be a PROJJSON CRS: ${problem}`);
    out["proj:projjson"] = crs.projjson;
  }
  if (Object.keys(out).length === 0) bad("A CRS needs a code, wkt2 or projjson");
  if (version === "v1") {
    const code = crs.code !== undefined && PROJ_CODE_PATTERNS.v1.test(crs.code) ? crs.code : undefined;
    if (code === undefined && crs.code !== undefined && crs.wkt2 === undefined && crs.projjson === undefined) {
      bad(`v1 proj:code must match ${PROJ_CODE_PATTERNS.v1.source}, got "${crs.code}"; give the CRS as wkt2 or projjson, or write conventions "v0.1"`);
    }
    const one: JsonObject =
      code !== undefined ? { "proj:code": code } : out["proj:wkt2"] !== undefined ? { "proj:wkt2": out["proj:wkt2"] } : { "proj:projjson": out["proj:projjson"] };
    return withConventions(one, ["proj"], version);
  }
  return withConventions(out, ["proj"], version);
}

/**
 * `spatial:` attributes, with the spatial declaration (v1 unless `conventions: "v0.1"`).
 * The bbox defaults to the extent of transform × shape.
 *
 * @example
 * ```ts
 * spatialAttributes({ dimensions: ["y", "x"], transform: [10, 0, 500000, 0, -10, 5000000], shape: [1000, 1000] });
 * ```
 */
export function spatialAttributes(spatial: SpatialInput, options: ConventionsOption = {}): JsonObject {
  const version = conventionsVersion(options.conventions);
  const { dimensions, transform, shape, registration } = spatial;
  if (!Array.isArray(dimensions) || dimensions.length !== 2 || dimensions.some((d) => typeof d !== "string" || d === "") || dimensions[0] === dimensions[1]) {
    bad(`spatial dimensions are two distinct names [Y, X], got ${JSON.stringify(dimensions)}`);
  }
  const out: JsonObject = { "spatial:dimensions": [dimensions[0], dimensions[1]] };
  if (transform !== undefined) {
    if (!isAffine(transform) || determinant(transform) === 0) bad(`spatial:transform must be six finite numbers of an invertible affine, got ${JSON.stringify(transform)}`);
    out["spatial:transform"] = [...transform];
  }
  if (shape !== undefined) {
    if (shape.length !== 2 || shape.some((n) => !Number.isSafeInteger(n) || n < 1)) bad(`spatial:shape must be two positive integers, got ${JSON.stringify(shape)}`);
    out["spatial:shape"] = [shape[0], shape[1]];
  }
  if (spatial.bbox !== false) {
    const bbox = spatial.bbox ?? (transform !== undefined && shape !== undefined ? gridExtent(transform, shape, registration ?? "pixel") : undefined);
    if (bbox !== undefined) {
      if (bbox.length !== 4 || !bbox.every(Number.isFinite)) bad(`spatial:bbox must be four numbers, got ${JSON.stringify(bbox)}`);
      out["spatial:bbox"] = [...bbox];
    }
  }
  if (registration !== undefined && registration !== "pixel") {
    if (registration !== "node") bad(`spatial:registration is "pixel" or "node", got ${JSON.stringify(registration)}`);
    out["spatial:registration"] = registration;
  }
  return withConventions(out, ["spatial"], version);
}

/**
 * Merges attribute objects: later keys win, `zarr_conventions` entries are united (one per
 * convention; a later part's entry wins, so the version of the entries is kept as given).
 *
 * @example
 * ```ts
 * mergeAttributes(projAttributes({ code: "EPSG:4326" }), { title: "t" }); // proj:code, title and the proj: entry
 * ```
 */
export function mergeAttributes(...parts: JsonObject[]): JsonObject {
  const out: JsonObject = {};
  const entries = new Map<ConventionName, JsonValue>();
  const others: JsonValue[] = [];
  for (const p of parts) {
    for (const [k, v] of Object.entries(p)) {
      if (k === "zarr_conventions") continue;
      out[k] = v;
    }
    const list = p.zarr_conventions;
    if (!Array.isArray(list)) continue;
    for (const e of detectConventions(p).entries) {
      if (e.convention === undefined) others.push(list[e.index]);
      else {
        // Delete first so the convention moves to where its winning entry came from.
        entries.delete(e.convention);
        entries.set(e.convention, list[e.index]);
      }
    }
  }
  if (entries.size === 0 && others.length === 0) return out;
  return { ...out, zarr_conventions: [...others, ...entries.values()] };
}

/**
 * The attributes of a GeoZarr Dataset group: proj (CRS) and spatial, both declared.
 *
 * @example
 * ```ts
 * datasetAttributes({ crs: { code: "EPSG:32633" }, spatial: { dimensions: ["y", "x"], transform, shape } });
 * ```
 */
export function datasetAttributes(options: { crs: Crs; spatial: SpatialInput; attributes?: JsonObject } & ConventionsOption): JsonObject {
  const c = { conventions: options.conventions };
  return mergeAttributes(options.attributes ?? {}, projAttributes(options.crs, c), spatialAttributes(options.spatial, c));
}

/** A layout entry from a {@link LevelInput}. */
export function layoutEntry(level: LevelInput): JsonObject {
  if (typeof level.asset !== "string" || !isRelativeAssetPath(level.asset)) bad(`A level asset is a relative path, got ${JSON.stringify(level.asset)}`);
  const out: JsonObject = { asset: level.asset };
  if (level.derivedFrom !== undefined) {
    if (!isRelativeAssetPath(level.derivedFrom)) bad(`derived_from is a relative path, got ${JSON.stringify(level.derivedFrom)}`);
    out.derived_from = level.derivedFrom;
    if (level.scale === undefined) bad(`Level "${level.asset}" is derived from "${level.derivedFrom}": give its relative scale`);
  }
  if (level.scale !== undefined || level.translation !== undefined) {
    const t: JsonObject = {};
    if (level.scale !== undefined) {
      if (level.scale.some((s) => !(s > 0) || !Number.isFinite(s))) bad(`scale must be positive numbers, got ${JSON.stringify(level.scale)}`);
      t.scale = [...level.scale];
    }
    t.translation = level.translation !== undefined ? [...level.translation] : (level.scale ?? []).map(() => 0);
    out.transform = t;
  }
  if (level.resamplingMethod !== undefined) out.resampling_method = level.resamplingMethod;
  if (level.shape !== undefined) out["spatial:shape"] = [level.shape[0], level.shape[1]];
  if (level.transform !== undefined) {
    if (!isAffine(level.transform)) bad(`spatial:transform of level "${level.asset}" must be six finite numbers`);
    out["spatial:transform"] = [...level.transform];
  }
  return { ...level.extra, ...out };
}

/**
 * The attributes of a Multiscale Dataset group: the layout plus (when given) the CRS and
 * the level-independent spatial fields, with all the matching declarations.
 *
 * @example
 * ```ts
 * multiscalesAttributes({
 *   crs: { code: "EPSG:32633" }, spatial: { dimensions: ["y", "x"] }, resamplingMethod: "average",
 *   levels: [
 *     { asset: "0", shape: [1024, 1024], transform: [10, 0, 5e5, 0, -10, 5e6] },
 *     { asset: "1", derivedFrom: "0", scale: [2, 2], shape: [512, 512], transform: [20, 0, 5e5, 0, -20, 5e6] },
 *   ],
 * });
 * ```
 */
export function multiscalesAttributes(options: {
  levels: readonly LevelInput[];
  resamplingMethod?: string;
  crs?: Crs;
  spatial?: SpatialInput;
  attributes?: JsonObject;
} & ConventionsOption): JsonObject {
  const c = { conventions: conventionsVersion(options.conventions) };
  if (options.levels.length === 0) bad("A multiscales layout has at least one level");
  const assets = new Set<string>();
  for (const l of options.levels) {
    if (assets.has(l.asset)) bad(`Level "${l.asset}" appears twice`);
    if (l.derivedFrom !== undefined && !options.levels.some((o) => o.asset === l.derivedFrom)) bad(`Level "${l.asset}" is derived from the unknown level "${l.derivedFrom}"`);
    assets.add(l.asset);
  }
  const ms: JsonObject = { layout: options.levels.map(layoutEntry) };
  if (options.resamplingMethod !== undefined) ms.resampling_method = options.resamplingMethod;
  const parts: JsonObject[] = [options.attributes ?? {}, withConventions({ multiscales: ms }, ["multiscales"], c.conventions)];
  if (options.crs !== undefined) parts.push(projAttributes(options.crs, c));
  if (options.spatial !== undefined) parts.push(spatialAttributes(options.spatial, c));
  return mergeAttributes(...parts);
}

/** Options of {@link createDataset}. */
export interface CreateDatasetOptions extends ConventionsOption {
  crs: Crs;
  spatial: SpatialInput & { transform: Affine; shape: readonly [number, number] };
  /** Write the 1-D coordinate arrays of the spatial dimensions (default true). */
  coordinates?: boolean;
  attributes?: JsonObject;
  overwrite?: boolean;
  registry?: Registry;
  signal?: AbortSignal;
}

/**
 * Creates a Dataset group with its proj/spatial attributes and the coordinate arrays of
 * its spatial dimensions, so its data variables (created afterwards) validate.
 *
 * @example
 * ```ts
 * await createDataset(store, "scene", { crs: { code: "EPSG:32633" },
 *   spatial: { dimensions: ["y", "x"], transform: [10, 0, 5e5, 0, -10, 5e6], shape: [1000, 1000] } });
 * await createArray(store, "scene/red", { shape: [1000, 1000], dataType: "uint16", dimensionNames: ["y", "x"] });
 * ```
 */
export async function createDataset(store: Store, path: string, options: CreateDatasetOptions): Promise<ZarrGroup> {
  const attributes = datasetAttributes({ crs: options.crs, spatial: options.spatial, attributes: options.attributes, conventions: options.conventions });
  const group = await createGroup(store, path, { attributes, overwrite: options.overwrite, registry: options.registry, signal: options.signal });
  if (options.coordinates ?? true) {
    await writeCoordinates(store, path, { ...options.spatial, geographic: isGeographic(options.crs), registry: options.registry, signal: options.signal });
  }
  return group;
}

/**
 * Writes the 1-D coordinate arrays `Y` and `X` of a grid into the group at `path`: the
 * pixel centres (pixel registration) or the nodes (node registration) along each axis.
 * A rotated grid has no 1-D coordinates: the arrays then hold pixel indices.
 */
export async function writeCoordinates(
  store: Store,
  path: string,
  grid: {
    dimensions: readonly [string, string];
    transform: Affine;
    shape: readonly [number, number];
    registration?: Registration;
    geographic?: boolean;
    registry?: Registry;
    signal?: AbortSignal;
    overwrite?: boolean;
    /** Write only these of the two (default both). */
    only?: readonly string[];
  },
): Promise<void> {
  const [h, w] = grid.shape;
  const t = grid.transform;
  const o = grid.registration === "node" ? 0 : 0.5;
  const aligned = isAxisAligned(t);
  const ys = new Float64Array(h);
  const xs = new Float64Array(w);
  for (let i = 0; i < h; i++) ys[i] = aligned ? t[4] * (i + o) + t[5] : i;
  for (let j = 0; j < w; j++) xs[j] = aligned ? t[0] * (j + o) + t[2] : j;
  const axes: Array<[string, Float64Array, "y" | "x"]> = [
    [grid.dimensions[0], ys, "y"],
    [grid.dimensions[1], xs, "x"],
  ];
  for (const [name, values, axis] of axes) {
    if (grid.only !== undefined && !grid.only.includes(name)) continue;
    const attributes: JsonObject = aligned
      ? {
          standard_name: grid.geographic ? (axis === "x" ? "longitude" : "latitude") : axis === "x" ? "projection_x_coordinate" : "projection_y_coordinate",
          long_name: `${axis} coordinate of ${o === 0.5 ? "pixel centre" : "grid node"}`,
        }
      : { long_name: `${axis === "x" ? "column" : "row"} index (the grid is rotated: use spatial:transform)` };
    if (grid.geographic && aligned) attributes.units = axis === "x" ? "degrees_east" : "degrees_north";
    const arr = await createArray(store, joinPath(path, name), {
      shape: [values.length],
      chunkShape: [values.length],
      dataType: "float64",
      dimensionNames: [name],
      fillValue: Number.NaN,
      attributes,
      codecs: [{ name: "bytes", configuration: { endian: "little" } }],
      registry: grid.registry,
      overwrite: grid.overwrite ?? true,
      signal: grid.signal,
    });
    await set(arr, null, values, { signal: grid.signal });
  }
}

function joinPath(a: string, b: string): string {
  return a === "" ? b : `${a}/${b}`;
}
