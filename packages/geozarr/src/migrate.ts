/**
 * Migration to the conventions from older layouts: GeoZarr 0.4 tile-matrix-set
 * multiscales, ndpyramid `datasets` lists, and GDAL/CF/STAC georeferencing. A dry run
 * reports every change (and the validation of the result) without writing.
 */
import { consolidateMetadata, get, open, openArray, type Registry, readNodeMetadata, setAttributes, writeNodeMetadata, type ZarrGroup } from "@zarr/core";
import { isJsonObject, type JsonObject, type JsonValue, type Store, ZarrError } from "@zarr/spec";
import { type Affine, affineClose, isAffine } from "./affine.js";
import { LEGACY_PROJ_KEYS, PROJ_CODE_PATTERNS, PROJ_KEYS, readSpatial } from "./attributes.js";
import { datasetAttributes, type LevelInput, mergeAttributes, multiscalesAttributes, projAttributes, spatialAttributes, writeCoordinates } from "./builders.js";
import { type ConventionsVersion, conventionsVersion, detectConventions } from "./conventions.js";
import { type Crs, crsCode, crsFromString, normaliseCode } from "./crs.js";
import { effectiveGeoreference, gridExtent } from "./effective.js";
import { GeoHierarchy, type GeoNode, joinRelative, loadHierarchy } from "./hierarchy.js";
import { inferSpatialDimensions } from "./legacy.js";
import { describeMultiscales } from "./multiscale.js";
import { upgradeDeclarations } from "./upgrade.js";
import { type ValidationReport, validateHierarchy } from "./validate.js";

/** One change migration makes (or would make) to a node's attributes. */
export interface MigrationChange {
  path: string;
  kind: "array" | "group";
  /** What was recognised. */
  source: "geozarr-0.4" | "ndpyramid" | "gdal" | "cf" | "stac" | "coordinates" | "conventions" | "geo-proj-0.1.0";
  /** What is done, in words. */
  description: string;
  /** Attributes set (the new values). */
  set: JsonObject;
  /** Attribute keys removed. */
  remove: string[];
  /** 1-D coordinate arrays written into this group (a Dataset needs one per dimension). */
  coordinates?: { dimensions: [string, string]; transform: Affine; shape: [number, number]; only: string[] };
}

/** What {@link migrate} did or would do. */
export interface MigrationReport {
  dryRun: boolean;
  changes: MigrationChange[];
  /** Things seen but not migrated, and why. */
  notes: string[];
  /** Validation of the hierarchy as it is (dry run) or would be after the changes. */
  validation: ValidationReport;
}

/** Options of {@link migrate}. */
export interface MigrateOptions {
  /** Report without writing (default false). */
  dryRun?: boolean;
  /** Also remove the legacy keys that were migrated (STAC proj:*, old multiscales lists). Default false: they stay next to the conventions. */
  removeLegacy?: boolean;
  /** Read 1-D coordinate arrays to derive transforms when nothing else gives one (default true). */
  readCoordinates?: boolean;
  /** Write the coordinate arrays a new Dataset lacks (default true; Zarr v3 groups only). */
  writeCoordinates?: boolean;
  /**
   * The form of the declarations written and upgraded to: `"v1"` (default, the mini-spec's)
   * or `"v0.1"`. Every declaration of another form (v0.1 or v1, v0, branch heads, geo-proj
   * 0.1.0's object form and `geo` dictionary) is rewritten to it.
   */
  conventions?: ConventionsVersion;
  registry?: Registry;
  signal?: AbortSignal;
}

const WEB_MERCATOR_HALF = 20037508.342789244;

/** The tile matrices of a well-known tile matrix set, for zoom levels 0..30. */
function wellKnownMatrices(id: string): { crs: string; matrices: JsonObject[] } | undefined {
  if (id === "WebMercatorQuad") {
    return {
      crs: "EPSG:3857",
      matrices: Array.from({ length: 31 }, (_, z) => ({
        id: String(z),
        cellSize: (2 * WEB_MERCATOR_HALF) / (256 * 2 ** z),
        pointOfOrigin: [-WEB_MERCATOR_HALF, WEB_MERCATOR_HALF],
        tileWidth: 256,
        tileHeight: 256,
        matrixWidth: 2 ** z,
        matrixHeight: 2 ** z,
      })),
    };
  }
  if (id === "WorldCRS84Quad") {
    return {
      crs: "OGC:CRS84",
      matrices: Array.from({ length: 31 }, (_, z) => ({
        id: String(z),
        cellSize: 180 / (256 * 2 ** z),
        pointOfOrigin: [-180, 90],
        tileWidth: 256,
        tileHeight: 256,
        matrixWidth: 2 ** (z + 1),
        matrixHeight: 2 ** z,
      })),
    };
  }
  return undefined;
}

interface Ctx {
  h: GeoHierarchy;
  options: MigrateOptions;
  changes: MigrationChange[];
  notes: string[];
  coordinateCache: Map<string, Float64Array | null>;
}

/**
 * Migrates a hierarchy to the GeoZarr conventions (v1 declarations, as the mini-spec shows
 * them, or v0.1 with `conventions: "v0.1"`):
 * - every declaration of another form (v0.1, v0, branch heads, other names; geo-proj
 *   0.1.0's object-form `zarr_conventions` and its `geo.proj` dictionary) is rewritten to
 *   the target form, and under v1 the proj keys to one CRS field;
 * - a group whose `multiscales` is a GeoZarr 0.4 tile matrix set (`tile_matrix_set`,
 *   an object or a well-known id) or an ndpyramid list (`[{datasets: [{path, ...}]}]`)
 *   gets a `multiscales.layout` with exact per-level `spatial:shape`/`spatial:transform`,
 *   `derived_from` chains and relative scales, plus proj/spatial on it and on each level;
 * - a group (or array) georeferenced only by GDAL `_CRS`, CF `grid_mapping`
 *   (`crs_wkt`, `spatial_ref`, `GeoTransform`), STAC `proj:epsg`/`proj:transform`, or
 *   regular 1-D coordinate arrays gets `proj:*` and `spatial:*` with their declarations.
 *
 * @example
 * ```ts
 * const plan = await migrate(store, { dryRun: true });
 * for (const c of plan.changes) console.log(c.path, c.source, c.description);
 * if (plan.validation.valid) await migrate(store);
 * ```
 */
export async function migrate(source: Store | ZarrGroup | GeoHierarchy, options: MigrateOptions = {}): Promise<MigrationReport> {
  const loaded = source instanceof GeoHierarchy ? source : await loadHierarchy(source, { signal: options.signal, registry: options.registry });
  // Codecs resolve like the hierarchy's own reads: the registry passed, else the one it was opened with.
  options = { ...options, registry: options.registry ?? loaded.registry };
  const target = conventionsVersion(options.conventions);
  // First the declarations (and geo-proj 0.1.0 attributes) in the target form; the other
  // passes then work on the hierarchy as it will be.
  const upgrades: MigrationChange[] = [];
  const notes: string[] = [];
  for (const node of loaded.all()) {
    const u = upgradeDeclarations(node, target);
    if (u === undefined) continue;
    notes.push(...u.notes);
    if (Object.keys(u.set).length > 0 || u.remove.length > 0) {
      upgrades.push({ path: node.path, kind: node.kind, source: u.source, description: u.description, set: u.set, remove: u.remove });
    }
  }
  const h = upgrades.length > 0 ? applyToHierarchy(loaded, upgrades) : loaded;
  const ctx: Ctx = { h, options: { ...options, conventions: target }, changes: [], notes, coordinateCache: new Map() };
  const handled = new Set<string>();
  for (const node of h.all()) {
    if (node.kind !== "group") continue;
    const ms = node.attributes.multiscales;
    const item = Array.isArray(ms) ? ms.find(isJsonObject) : isJsonObject(ms) ? ms : undefined;
    if (item === undefined || Array.isArray((item as JsonObject).layout)) continue;
    if (item.tile_matrix_set !== undefined) await migrateTms(ctx, node, item, handled);
    else if (Array.isArray(item.datasets)) await migrateNdpyramid(ctx, node, item, handled);
    else ctx.notes.push(`"${node.path || "/"}": multiscales in an unknown format left as it is`);
  }
  for (const node of h.all()) {
    if (node.kind === "group" && !handled.has(node.path)) await migrateLegacyGroup(ctx, node, handled);
  }
  for (const node of h.all()) if (node.kind === "group" && !handled.has(node.path)) completeLayout(ctx, node);
  const dryRun = options.dryRun ?? false;
  const after = applyToHierarchy(h, ctx.changes);
  const changes = [...upgrades, ...ctx.changes];
  if (!dryRun) await write(loaded, changes, options);
  return { dryRun, changes, notes: ctx.notes, validation: validateHierarchy(after) };
}

function applyToHierarchy(h: GeoHierarchy, changes: MigrationChange[]): GeoHierarchy {
  const byPath = new Map<string, MigrationChange[]>();
  for (const c of changes) byPath.set(c.path, [...(byPath.get(c.path) ?? []), c]);
  const nodes = h.all().map((n) => {
    const cs = byPath.get(n.path);
    if (cs === undefined) return n;
    let attributes = n.attributes;
    for (const c of cs) attributes = applyChange(attributes, c);
    return { ...n, attributes };
  });
  for (const c of changes) {
    if (c.coordinates === undefined) continue;
    c.coordinates.dimensions.forEach((name, axis) => {
      const path = joinRelative(c.path, name);
      if (!c.coordinates?.only.includes(name)) return;
      nodes.push({ path, name, kind: "array", zarrFormat: 3, attributes: {}, shape: [c.coordinates?.shape[axis] as number], dimensionNames: [name], dimensionNamesFrom: "dimension_names", dataType: "float64" });
    });
  }
  return new GeoHierarchy(nodes, h.basePath, h.store, h.complete, h.consolidated, h.registry);
}

function applyChange(attributes: JsonObject, c: MigrationChange): JsonObject {
  const kept: JsonObject = {};
  for (const [k, v] of Object.entries(attributes)) if (!c.remove.includes(k) && k !== "multiscales") kept[k] = v;
  if (attributes.multiscales !== undefined && !c.remove.includes("multiscales") && c.set.multiscales === undefined) kept.multiscales = attributes.multiscales;
  return mergeAttributes(kept, c.set);
}

async function write(h: GeoHierarchy, changes: MigrationChange[], options: MigrateOptions): Promise<void> {
  const { signal, registry } = options;
  const store = h.store;
  if (store === undefined) throw new ZarrError("INVALID_ARGUMENT", "The hierarchy has no store to write to");
  const byPath = new Map<string, MigrationChange[]>();
  for (const c of changes) byPath.set(c.path, [...(byPath.get(c.path) ?? []), c]);
  for (const c of changes) {
    if (c.coordinates === undefined) continue;
    await writeCoordinates(store, h.storePath(c.path), { ...c.coordinates, registry, signal, overwrite: false });
  }
  for (const [path, cs] of byPath) {
    const full = h.storePath(path);
    if (h.node(path)?.zarrFormat === 2) {
      // Zarr v2 nodes write .zattrs through their format (registered from @zarr/v2-compat).
      const node = await open(store, full, { registry, signal });
      let attributes = node.attributes;
      for (const c of cs) attributes = applyChange(attributes, c);
      await setAttributes(node, attributes, { signal });
      continue;
    }
    const meta = await readNodeMetadata(store, full, signal);
    if (meta === undefined) throw new ZarrError("NODE_NOT_FOUND", `"${full}" has no zarr.json to update (implicit group?)`);
    let attributes = meta.attributes;
    for (const c of cs) attributes = applyChange(attributes, c);
    await writeNodeMetadata(store, full, { ...meta, attributes }, signal);
  }
  // Consolidated metadata would otherwise keep serving the old attributes.
  if (h.consolidated && changes.length > 0) await consolidateMetadata(store, h.basePath, { registry, signal });
}

/** Spatial dimension names and the spatial shape of a level's first georeferenceable array. */
function levelGrid(h: GeoHierarchy, level: GeoNode): { dims?: [string, string]; shape?: [number, number]; array?: GeoNode } {
  const arrays = level.kind === "array" ? [level] : h.children(level.path).filter((c) => c.kind === "array" && (c.shape?.length ?? 0) >= 2);
  for (const a of arrays) {
    const dims = inferSpatialDimensions(a.dimensionNames ?? []);
    if (dims === undefined || a.dimensionNames === undefined || a.shape === undefined) continue;
    const y = a.dimensionNames.indexOf(dims[0]);
    const x = a.dimensionNames.indexOf(dims[1]);
    return { dims, shape: [a.shape[y], a.shape[x]], array: a };
  }
  return {};
}

/** A transform from regularly spaced 1-D coordinate arrays named like the dimensions (pixel centres). */
async function transformFromCoordinates(ctx: Ctx, group: string, dims: readonly [string, string]): Promise<Affine | undefined> {
  if (ctx.options.readCoordinates === false || ctx.h.store === undefined) return undefined;
  const read = async (name: string): Promise<Float64Array | undefined> => {
    const path = joinRelative(group, name);
    if (ctx.coordinateCache.has(path)) return ctx.coordinateCache.get(path) ?? undefined;
    const node = ctx.h.node(path);
    let values: Float64Array | undefined;
    if (node?.kind === "array" && node.shape?.length === 1 && node.shape[0] >= 2) {
      try {
        const arr = await openArray(ctx.h.store as Store, ctx.h.storePath(path), { registry: ctx.options.registry, signal: ctx.options.signal });
        const got = await get(arr, null, { signal: ctx.options.signal });
        if (ArrayBuffer.isView(got.data) && !(got.data instanceof BigInt64Array) && !(got.data instanceof BigUint64Array)) values = Float64Array.from(got.data as ArrayLike<number>);
        else if (got.data instanceof BigInt64Array || got.data instanceof BigUint64Array) values = Float64Array.from(got.data, Number);
      } catch (error) {
        ctx.notes.push(`could not read the coordinate array "${path}": ${(error as Error).message}`);
      }
    }
    ctx.coordinateCache.set(path, values ?? null);
    return values;
  };
  const ys = await read(dims[0]);
  const xs = await read(dims[1]);
  if (ys === undefined || xs === undefined) return undefined;
  const step = (v: Float64Array): number | undefined => {
    const d = (v[v.length - 1] - v[0]) / (v.length - 1);
    if (!(d !== 0 && Number.isFinite(d))) return undefined;
    for (let i = 1; i < v.length; i++) if (Math.abs(v[i] - v[i - 1] - d) > 1e-6 * Math.abs(d)) return undefined;
    return d;
  };
  const dx = step(xs);
  const dy = step(ys);
  if (dx === undefined || dy === undefined) {
    ctx.notes.push(`the coordinates "${dims.join('", "')}" of "${group || "/"}" are not regularly spaced: no affine transform`);
    return undefined;
  }
  return [dx, 0, xs[0] - dx / 2, 0, dy, ys[0] - dy / 2];
}

async function migrateTms(ctx: Ctx, group: GeoNode, ms: JsonObject, handled: Set<string>): Promise<void> {
  const { h } = ctx;
  let tms = ms.tile_matrix_set;
  let crsText: string | undefined;
  if (typeof tms === "string") {
    const known = wellKnownMatrices(tms);
    if (known === undefined) {
      ctx.notes.push(`"${group.path || "/"}": tile matrix set "${tms}" is not WebMercatorQuad or WorldCRS84Quad; give it inline to migrate`);
      return;
    }
    crsText = known.crs;
    tms = { id: tms, crs: known.crs, tileMatrices: known.matrices };
  }
  if (!isJsonObject(tms) || !Array.isArray(tms.tileMatrices)) {
    ctx.notes.push(`"${group.path || "/"}": tile_matrix_set has no tileMatrices`);
    return;
  }
  if (typeof tms.crs === "string") crsText = tms.crs;
  else if (isJsonObject(tms.crs) && typeof tms.crs.uri === "string") crsText = tms.crs.uri;
  const crs = crsText === undefined ? undefined : crsFromString(normaliseCode(crsText));
  const matrices = tms.tileMatrices.filter(isJsonObject).filter((m) => typeof m.id === "string" && typeof m.cellSize === "number");
  // Levels that exist, finest first.
  const present = matrices
    .map((m) => ({ m, node: h.node(joinRelative(group.path, m.id as string)) }))
    .filter((x): x is { m: JsonObject; node: GeoNode } => x.node !== undefined)
    .sort((a, b) => (a.m.cellSize as number) - (b.m.cellSize as number));
  if (present.length === 0) {
    ctx.notes.push(`"${group.path || "/"}": none of the tile matrices has a level group`);
    return;
  }
  const levels: Array<LevelInput & { node: GeoNode }> = [];
  let dims: [string, string] | undefined;
  for (const [i, { m, node }] of present.entries()) {
    const grid = levelGrid(h, node);
    dims ??= grid.dims;
    const cs = m.cellSize as number;
    let transform: Affine | undefined;
    const origin = m.pointOfOrigin;
    const corner = m.cornerOfOrigin ?? "topLeft";
    if (Array.isArray(origin) && origin.length === 2 && origin.every((v) => typeof v === "number")) {
      const [ox, oy] = origin as number[];
      transform = corner === "bottomLeft" ? undefined : [cs, 0, ox, 0, -cs, oy];
      if (corner === "bottomLeft") ctx.notes.push(`level "${m.id}": bottomLeft origins are not migrated`);
    } else if (grid.dims !== undefined) {
      transform = await transformFromCoordinates(ctx, node.path, grid.dims);
      if (transform === undefined && grid.array !== undefined) transform = effectiveGeoreference(h, grid.array.path).transform;
    }
    let shape = grid.shape;
    if (shape === undefined && typeof m.matrixWidth === "number" && typeof m.matrixHeight === "number") {
      const tw = typeof m.tileWidth === "number" ? m.tileWidth : 1;
      const th = typeof m.tileHeight === "number" ? m.tileHeight : 1;
      shape = [m.matrixHeight * th, m.matrixWidth * tw];
    }
    const level: LevelInput & { node: GeoNode } = { asset: m.id as string, node };
    if (shape !== undefined) level.shape = shape;
    if (transform !== undefined) level.transform = transform;
    if (i === 0) {
      level.scale = [1, 1];
    } else {
      const prev = present[i - 1].m.cellSize as number;
      level.derivedFrom = present[i - 1].m.id as string;
      level.scale = [cs / prev, cs / prev];
    }
    levels.push(level);
  }
  await finishMultiscales(ctx, group, levels, dims, crs, typeof ms.resampling_method === "string" ? ms.resampling_method : undefined, "geozarr-0.4", {
    tile_matrix_set: ms.tile_matrix_set as JsonValue,
    ...(ms.tile_matrix_limits !== undefined ? { tile_matrix_limits: ms.tile_matrix_limits } : {}),
  });
  handled.add(group.path);
  for (const l of levels) handled.add(l.node.path);
}

async function migrateNdpyramid(ctx: Ctx, group: GeoNode, ms: JsonObject, handled: Set<string>): Promise<void> {
  const { h } = ctx;
  const datasets = (ms.datasets as JsonValue[]).filter(isJsonObject).filter((d) => typeof d.path === "string");
  let crs: Crs | undefined;
  const entries: Array<{ d: JsonObject; node: GeoNode; shape?: [number, number]; transform?: Affine; dims?: [string, string] }> = [];
  for (const d of datasets) {
    const node = h.node(joinRelative(group.path, d.path as string));
    if (node === undefined) {
      ctx.notes.push(`"${group.path || "/"}": ndpyramid level "${d.path}" does not exist`);
      continue;
    }
    if (crs === undefined && typeof d.crs === "string") crs = crsFromString(normaliseCode(d.crs));
    const grid = levelGrid(h, node);
    let transform: Affine | undefined;
    const ppt = typeof d.pixels_per_tile === "number" ? d.pixels_per_tile : undefined;
    const lvl = typeof d.level === "number" ? d.level : Number(d.path);
    const code = typeof d.crs === "string" ? normaliseCode(d.crs) : undefined;
    if (code === "EPSG:3857" && ppt !== undefined && Number.isInteger(lvl) && grid.shape !== undefined && grid.shape[0] === ppt * 2 ** lvl && grid.shape[1] === ppt * 2 ** lvl) {
      const cs = (2 * WEB_MERCATOR_HALF) / (ppt * 2 ** lvl);
      transform = [cs, 0, -WEB_MERCATOR_HALF, 0, -cs, WEB_MERCATOR_HALF];
    } else if (grid.dims !== undefined) {
      transform = await transformFromCoordinates(ctx, node.path, grid.dims);
      if (transform === undefined && grid.array !== undefined) transform = effectiveGeoreference(h, grid.array.path).transform;
    }
    entries.push({ d, node, shape: grid.shape, transform, dims: grid.dims });
  }
  if (entries.length === 0) return;
  // Finest first: by pixel size when known, else by shape.
  const size = (e: (typeof entries)[number]) => (e.transform !== undefined ? Math.abs(e.transform[0]) : e.shape !== undefined ? 1 / e.shape[1] : 0);
  entries.sort((a, b) => size(a) - size(b));
  const levels: Array<LevelInput & { node: GeoNode }> = entries.map((e, i) => {
    const level: LevelInput & { node: GeoNode } = { asset: e.d.path as string, node: e.node };
    if (e.shape !== undefined) level.shape = e.shape;
    if (e.transform !== undefined) level.transform = e.transform;
    if (i === 0) level.scale = [1, 1];
    else {
      const prev = entries[i - 1];
      level.derivedFrom = prev.d.path as string;
      if (e.transform !== undefined && prev.transform !== undefined) {
        level.scale = [Math.abs(e.transform[4] / prev.transform[4]), Math.abs(e.transform[0] / prev.transform[0])];
      } else if (e.shape !== undefined && prev.shape !== undefined) {
        level.scale = [prev.shape[0] / e.shape[0], prev.shape[1] / e.shape[1]];
      } else level.scale = [2, 2];
    }
    return level;
  });
  const method = isJsonObject(ms.metadata) && typeof ms.metadata.method === "string" ? ms.metadata.method : undefined;
  await finishMultiscales(ctx, group, levels, entries.find((e) => e.dims !== undefined)?.dims, crs, method, "ndpyramid", {});
  handled.add(group.path);
  for (const l of levels) handled.add(l.node.path);
}

async function finishMultiscales(
  ctx: Ctx,
  group: GeoNode,
  levels: Array<LevelInput & { node: GeoNode }>,
  dims: [string, string] | undefined,
  crs: Crs | undefined,
  resampling: string | undefined,
  source: MigrationChange["source"],
  extra: JsonObject,
): Promise<void> {
  const { h } = ctx;
  // A CRS from the levels' legacy attributes when the old metadata had none.
  if (crs === undefined) {
    for (const l of levels) {
      const grid = levelGrid(h, l.node);
      if (grid.array === undefined) continue;
      const g = effectiveGeoreference(h, grid.array.path);
      if (g.crs !== undefined) {
        crs = { ...(g.crs.code !== undefined ? { code: g.crs.code } : {}), ...(g.crs.wkt2 !== undefined ? { wkt2: g.crs.wkt2 } : {}), ...(g.crs.projjson !== undefined ? { projjson: g.crs.projjson } : {}) };
        break;
      }
    }
  }
  if (dims === undefined) ctx.notes.push(`"${group.path || "/"}": no [Y, X] dimensions found in the levels; spatial:dimensions left out`);
  crs = writableCrs(ctx, crs, group.path);
  if (crs === undefined) ctx.notes.push(`"${group.path || "/"}": no CRS found; proj:* left out`);
  const base = levels[0];
  const bbox = base.transform !== undefined && base.shape !== undefined ? gridExtent(base.transform, base.shape) : undefined;
  const attrs = multiscalesAttributes({
    conventions: ctx.options.conventions,
    levels: levels.map(({ node: _node, ...l }) => l),
    resamplingMethod: resampling,
    crs,
    spatial: dims === undefined ? undefined : { dimensions: dims, bbox: bbox ?? false },
  });
  (attrs.multiscales as JsonObject) = { ...(attrs.multiscales as JsonObject), ...extra };
  ctx.changes.push({
    path: group.path,
    kind: "group",
    source,
    description: `${source === "geozarr-0.4" ? "GeoZarr 0.4 tile matrix set" : "ndpyramid datasets"} → multiscales layout of ${levels.length} levels (${levels.map((l) => l.asset).join(", ")})${crs !== undefined ? ` in ${crsCode(crs) ?? "the given CRS"}` : ""}`,
    set: attrs,
    remove: ["multiscales"],
  });
  for (const l of levels) {
    if (l.node.kind !== "group" || dims === undefined || crs === undefined || l.transform === undefined || l.shape === undefined) continue;
    const declared = detectConventions(l.node.attributes).declared;
    if (declared.has("proj") && declared.has("spatial")) continue;
    ctx.changes.push({
      path: l.node.path,
      kind: "group",
      source,
      description: `level "${l.asset}": proj and spatial (transform, shape)`,
      set: datasetAttributes({ crs, spatial: { dimensions: dims, transform: l.transform, shape: l.shape }, conventions: ctx.options.conventions }),
      remove: [],
    });
  }
}

/**
 * The CRS when the target version can write it: v1 needs a LETTERS:DIGITS code, a WKT2 or
 * a PROJJSON (OGC:CRS84 alone is v0.1 only); else `undefined`, with a note.
 */
function writableCrs(ctx: Ctx, crs: Crs | undefined, path: string): Crs | undefined {
  if (crs === undefined || ctx.options.conventions === "v0.1") return crs;
  if (crs.wkt2 !== undefined || crs.projjson !== undefined || (crs.code !== undefined && PROJ_CODE_PATTERNS.v1.test(crs.code))) return crs;
  ctx.notes.push(`"${path || "/"}": the CRS "${crs.code}" has no v1 proj:code form; proj:* left out (migrate with --conventions v0.1 to write it)`);
  return undefined;
}

/** GDAL/CF/STAC/coordinates → proj/spatial for a group's spatial arrays (on the group when they share one grid). */
async function migrateLegacyGroup(ctx: Ctx, group: GeoNode, handled: Set<string>): Promise<void> {
  const { h, options } = ctx;
  const declared = detectConventions(group.attributes).declared;
  if (declared.has("proj") && declared.has("spatial")) {
    completeDataset(ctx, group);
    // Already a Dataset: with removeLegacy, the arrays' STAC keys go (the group's conventions apply).
    if (options.removeLegacy) {
      for (const a of h.children(group.path)) if (a.kind === "array") removeStac(ctx, a, "the group's conventions apply");
    }
    return;
  }
  const arrays = h.children(group.path).filter((c) => c.kind === "array" && (c.shape?.length ?? 0) >= 2 && !handled.has(c.path));
  interface Found {
    node: GeoNode;
    crs?: Crs;
    crsSource?: MigrationChange["source"];
    dims: [string, string];
    transform?: Affine;
    transformSource?: MigrationChange["source"];
    shape: [number, number];
  }
  const found: Found[] = [];
  for (const a of arrays) {
    if (detectConventions(a.attributes).declared.has("spatial")) continue;
    const g = effectiveGeoreference(h, a.path);
    const dims = g.dimensions as [string, string] | undefined;
    if (dims === undefined || g.shape === undefined || g.roles === undefined || g.roles.assumed) continue;
    const f: Found = { node: a, dims, shape: [g.shape[0], g.shape[1]] };
    if (g.crs !== undefined && g.crs.source !== "proj") {
      f.crs = { ...(g.crs.code !== undefined ? { code: g.crs.code } : {}), ...(g.crs.wkt2 !== undefined ? { wkt2: g.crs.wkt2 } : {}), ...(g.crs.projjson !== undefined ? { projjson: g.crs.projjson } : {}) };
      f.crsSource = g.crs.source === "gdal:_CRS" ? "gdal" : g.crs.source.startsWith("cf") ? "cf" : "stac";
      // Prefer an authority code when the WKT names one (proj:code is what readers match on).
      const code = crsCode(f.crs);
      if (f.crs.code === undefined && code !== undefined && /^EPSG:\d+$/.test(code)) f.crs = { code, ...(f.crs.wkt2 !== undefined && !/^\s*(PROJCS|GEOGCS)/i.test(f.crs.wkt2) ? { wkt2: f.crs.wkt2 } : {}) };
    }
    if (g.transform !== undefined && g.provenance.transform?.origin === "legacy") {
      f.transform = g.transform;
      f.transformSource = g.provenance.transform.detail.startsWith("GeoTransform") ? "cf" : "stac";
    } else if (g.transform === undefined) {
      const t = await transformFromCoordinates(ctx, group.path, dims);
      if (t !== undefined) {
        f.transform = t;
        f.transformSource = "coordinates";
      }
    }
    if (f.crs !== undefined || f.transform !== undefined) found.push(f);
  }
  if (found.length === 0) return;
  const first = found[0];
  const shared =
    found.every((f) => f.shape[0] === first.shape[0] && f.shape[1] === first.shape[1] && f.dims[0] === first.dims[0] && f.dims[1] === first.dims[1]) &&
    found.every((f) => (f.transform === undefined) === (first.transform === undefined) && (f.transform === undefined || affineClose(f.transform, first.transform as Affine, 1e-9))) &&
    found.every((f) => (f.crs === undefined ? first.crs === undefined : first.crs !== undefined && crsCode(f.crs) === crsCode(first.crs)));
  const targets: Array<{ node: GeoNode; f: Found }> = shared && found.length === arrays.filter((a) => (a.shape?.length ?? 0) >= 2).length && group.kind === "group"
    ? [{ node: group, f: first }]
    : found.map((f) => ({ node: f.node, f }));
  for (const { node, f } of targets) {
    const parts: JsonObject[] = [];
    const sources = new Set<MigrationChange["source"]>();
    f.crs = writableCrs(ctx, f.crs, node.path);
    if (f.crs !== undefined && !detectConventions(node.attributes).declared.has("proj")) {
      parts.push(projAttributes(f.crs, { conventions: options.conventions }));
      sources.add(f.crsSource as MigrationChange["source"]);
    }
    if (f.transform !== undefined && isAffine(f.transform)) {
      parts.push(spatialAttributes({ dimensions: f.dims, transform: f.transform, shape: f.shape }, { conventions: options.conventions }));
      sources.add(f.transformSource as MigrationChange["source"]);
    } else parts.push(spatialAttributes({ dimensions: f.dims, shape: f.shape }, { conventions: options.conventions }));
    const remove: string[] = [];
    if (options.removeLegacy) {
      for (const k of LEGACY_PROJ_KEYS) if (node.attributes[k] !== undefined) remove.push(k);
    }
    if (node === group && f.transform !== undefined && options.writeCoordinates !== false) {
      const missing = f.dims.filter((d, axis) => {
        const c = h.node(joinRelative(group.path, d));
        return c === undefined || c.shape?.length !== 1 || c.shape[0] !== f.shape[axis];
      });
      const clash = missing.some((d) => h.node(joinRelative(group.path, d)) !== undefined);
      if (missing.length > 0 && group.zarrFormat === 3 && !clash) {
        ctx.changes.push({
          path: group.path,
          kind: "group",
          source: "conventions",
          description: `write the coordinate arrays ${missing.join(", ")} (pixel centres) a Dataset needs`,
          set: {},
          remove: [],
          coordinates: { dimensions: f.dims, transform: f.transform, shape: f.shape, only: missing },
        });
      } else if (missing.length > 0) ctx.notes.push(`"${group.path || "/"}": coordinate arrays ${missing.join(", ")} are missing and were not written`);
    }
    ctx.changes.push({
      path: node.path,
      kind: node.kind,
      source: [...sources][0] ?? "stac",
      description: `${[...sources].join(" + ")} georeferencing → ${f.crs !== undefined ? `proj (${crsCode(f.crs) ?? "WKT"})` : ""}${f.crs !== undefined ? " and " : ""}spatial (${f.transform !== undefined ? "transform, " : ""}shape [${f.shape.join(", ")}])${node === group ? ` for the ${found.length} spatial variable(s)` : ""}`,
      set: mergeAttributes(...parts),
      remove,
    });
  }
  if (options.removeLegacy && targets.length === 1 && targets[0].node === group) {
    for (const f of found) removeStac(ctx, f.node, "now on the group");
  }
}

/**
 * A Dataset that declares the conventions but lacks `spatial:transform` (or has a
 * degenerate bbox) gets them from what its arrays say (legacy transforms, or the
 * multiscales chain), so the conventions alone georeference it.
 */
function completeDataset(ctx: Ctx, group: GeoNode): void {
  const { h } = ctx;
  const own = readSpatial(group.attributes).value;
  const arrays = h.children(group.path).filter((c) => c.kind === "array" && (c.shape?.length ?? 0) >= 2);
  const geos = arrays.map((a) => effectiveGeoreference(h, a.path)).filter((g) => g.roles !== undefined && !g.roles.assumed && g.shape !== undefined);
  if (geos.length === 0) return;
  const set: JsonObject = {};
  const reasons: string[] = [];
  let transform = own.transform;
  if (transform === undefined) {
    const t = geos[0].transform;
    const same = t !== undefined && geos.every((g) => g.transform !== undefined && affineClose(g.transform, t, 1e-9));
    if (same && t !== undefined) {
      transform = t;
      set["spatial:transform"] = [...t];
      reasons.push(`spatial:transform from ${geos[0].provenance.transform?.detail ?? "the arrays"}`);
    }
  }
  const shape = own.shape ?? geos[0].shape;
  if (own.bbox !== undefined && (own.bbox[1] >= own.bbox[3] || own.bbox[0] === own.bbox[2]) && transform !== undefined && shape !== undefined) {
    set["spatial:bbox"] = [...gridExtent(transform, shape, own.registration ?? "pixel")];
    reasons.push(`spatial:bbox [${own.bbox.join(", ")}] replaced by the grid's extent`);
  }
  if (reasons.length === 0) return;
  ctx.changes.push({ path: group.path, kind: "group", source: "conventions", description: reasons.join("; "), set, remove: [] });
}

/** A multiscales layout gets every level's `spatial:shape` and `spatial:transform` written out, as the mini-spec asks. */
function completeLayout(ctx: Ctx, group: GeoNode): void {
  const raw = group.attributes.multiscales;
  if (!isJsonObject(raw) || !Array.isArray(raw.layout)) return;
  let ms: ReturnType<typeof describeMultiscales>;
  try {
    ms = describeMultiscales(ctx.h, group.path);
  } catch {
    return;
  }
  const added: string[] = [];
  const original = raw.layout;
  const layout = original.map((entry, i) => {
    if (!isJsonObject(entry)) return entry;
    const level = ms.levels.find((l) => l.index === i);
    if (level === undefined) return entry;
    const out: JsonObject = { ...entry };
    if (out["spatial:shape"] === undefined && level.shape !== undefined) {
      out["spatial:shape"] = [...level.shape];
      added.push(`${level.asset} shape`);
    }
    if (out["spatial:transform"] === undefined && level.transform !== undefined) {
      out["spatial:transform"] = [...level.transform];
      added.push(`${level.asset} transform (${level.transformProvenance?.detail ?? "?"})`);
    }
    return out;
  });
  const set: JsonObject = {};
  const own = readSpatial(group.attributes).value;
  const base = ms.levels.find((l) => l.derivedFrom === undefined && l.extent !== undefined);
  if (own.bbox !== undefined && (own.bbox[1] >= own.bbox[3] || own.bbox[0] === own.bbox[2]) && base?.extent !== undefined) {
    set["spatial:bbox"] = [...base.extent];
    added.push(`spatial:bbox [${own.bbox.join(", ")}] replaced by the extent of "${base.asset}"`);
  }
  if (added.length === 0) return;
  if (layout.some((e, i) => e !== original[i])) set.multiscales = { ...raw, layout };
  ctx.changes.push({
    path: group.path,
    kind: "group",
    source: "conventions",
    description: `completed: ${added.join(", ")}`,
    set,
    remove: [],
  });
}

/** Removes an array's STAC projection keys (proj:epsg & co, and its undeclared proj:wkt2/code/projjson). */
function removeStac(ctx: Ctx, node: GeoNode, why: string): void {
  const a = node.attributes;
  const stac = LEGACY_PROJ_KEYS.filter((k) => a[k] !== undefined);
  if (stac.length === 0) return;
  const remove: string[] = [...stac];
  if (!detectConventions(a).declared.has("proj")) for (const k of PROJ_KEYS) if (a[k] !== undefined) remove.push(k);
  ctx.changes.push({ path: node.path, kind: node.kind, source: "stac", description: `remove ${remove.join(", ")} (${why})`, set: {}, remove });
}
