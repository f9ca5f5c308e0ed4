/**
 * Effective georeferencing of a node: what applies to it once inheritance, multiscales
 * levels and legacy attributes are taken into account.
 *
 * Order of sources, nearest first:
 * 1. the node's own convention attributes;
 * 2. its parent group (groups give defaults to their direct child arrays);
 * 3. when the node (or its parent) is a multiscales level: the layout entry
 *    (`spatial:shape`, `spatial:transform`), then the multiscales group itself (CRS,
 *    dimensions, registration, bbox; its transform and shape only for a base level);
 * 4. a level's transform derived through `derived_from` and the relative `transform`;
 * 5. legacy attributes (GDAL `_CRS`, CF `grid_mapping`, STAC `proj:epsg`/`proj:transform`),
 *    then dimension names (`y`/`x`, `lat`/`lon`...).
 * The CRS is taken whole from the nearest source; spatial fields are merged field by field.
 * Declared conventions win over keys used without a declaration.
 */
import { type JsonObject, ZarrError } from "@zarr/spec";
import { type Affine, affineBounds, applyAffine, pixelSize, scaleAffine } from "./affine.js";
import {
  type BBox,
  type LayoutEntry,
  type MultiscalesAttributes,
  type Registration,
  readMultiscales,
  readProj,
  readSpatial,
  type SpatialAttributes,
} from "./attributes.js";
import { type ConventionName, detectConventions } from "./conventions.js";
import type { CrsSource, ResolvedCrs } from "./crs.js";
import type { GeoHierarchy, GeoNode } from "./hierarchy.js";
import { joinRelative, parentOf } from "./hierarchy.js";
import {
  crsFromGdalAttribute,
  crsFromGridMapping,
  crsFromStacEpsg,
  gridMappingName,
  inferSpatialDimensions,
  shapeFromStac,
  transformFromGeoTransform,
  transformFromStac,
} from "./legacy.js";

/** How a field reached a node. */
export type FieldOrigin = "attributes" | "parent" | "layout" | "multiscales" | "derived" | "legacy" | "inferred";

/** Where one effective field came from. */
export interface Provenance {
  /** Path of the node that holds it. */
  from: string;
  origin: FieldOrigin;
  /** The attribute or rule, e.g. `spatial:transform`, `proj:transform (STAC)`, `derived_from r10m`. */
  detail: string;
  /** True when the convention holding it was not declared in `zarr_conventions`. */
  undeclared?: boolean;
}

/** The positions of the spatial axes among an array's dimensions. */
export interface DimensionRoles {
  /** Index of the Y (row) dimension. */
  y: number;
  /** Index of the X (column) dimension. */
  x: number;
  /** The other dimensions (bands, time, ...), in order. */
  others: number[];
  /** True when the array has no dimension names and the last two axes were taken as [Y, X]. */
  assumed: boolean;
}

/** The effective georeferencing of one node. */
export interface EffectiveGeoreference {
  path: string;
  kind: "array" | "group";
  crs?: ResolvedCrs;
  /** `[Y, X]` names. */
  dimensions?: readonly [string, string];
  transform?: Affine;
  transformType: string;
  /** The grid's `[height, width]`: the array's own along its spatial axes, else the declared `spatial:shape`. */
  shape?: readonly [number, number];
  /** The `spatial:shape` that applies (declared; may disagree with the array). */
  declaredShape?: readonly [number, number];
  bbox?: BBox;
  registration: Registration;
  /** Arrays: which axis is Y and which X. */
  roles?: DimensionRoles;
  /** Footprint of the grid `[xmin, ymin, xmax, ymax]` from transform and shape (node registration extends half a cell). */
  extent?: BBox;
  /** Where each field came from. */
  provenance: Partial<Record<"crs" | "dimensions" | "transform" | "bbox" | "shape" | "declaredShape" | "registration", Provenance>>;
  /** Sources that were present but not used, and why. */
  notes: string[];
}

interface Layer {
  node: GeoNode;
  origin: FieldOrigin;
  attrs: JsonObject;
  declared: ReadonlySet<ConventionName>;
  /** The multiscales group: only level-independent fields apply. */
  restricted: boolean;
  detail?: string;
}

/** A level found for a node: the multiscales group, its layout and the entry naming the node. */
export interface LevelContext {
  multiscales: GeoNode;
  layout: MultiscalesAttributes;
  entry: LayoutEntry;
  /** Hierarchy path of the level's asset. */
  assetPath: string;
}

const multiscalesCache = new WeakMap<GeoNode, MultiscalesAttributes | null>();
const declaredCache = new WeakMap<GeoNode, ReadonlySet<ConventionName>>();

/** The parsed `multiscales` attribute of a node (cached), or `undefined`. */
export function multiscalesOf(node: GeoNode): MultiscalesAttributes | undefined {
  let v = multiscalesCache.get(node);
  if (v === undefined) {
    v = node.kind === "group" ? (readMultiscales(node.attributes).value ?? null) : null;
    multiscalesCache.set(node, v);
  }
  return v ?? undefined;
}

function declaredOf(node: GeoNode): ReadonlySet<ConventionName> {
  let v = declaredCache.get(node);
  if (v === undefined) {
    v = detectConventions(node.attributes).declared;
    declaredCache.set(node, v);
  }
  return v;
}

/** When `path` is an asset of a multiscales layout of one of its ancestors, that level (nearest ancestor first). */
export function levelOf(h: GeoHierarchy, path: string): LevelContext | undefined {
  for (let anc = parentOf(path); anc !== undefined; anc = parentOf(anc)) {
    const m = h.node(anc);
    if (m === undefined) continue;
    const layout = multiscalesOf(m);
    if (layout === undefined) continue;
    const rel = anc === "" ? path : path.slice(anc.length + 1);
    const entry = layout.layout.find((e) => e.asset === rel);
    if (entry !== undefined) return { multiscales: m, layout, entry, assetPath: path };
  }
  return undefined;
}

function layersOf(h: GeoHierarchy, node: GeoNode): { layers: Layer[]; level?: LevelContext } {
  const layers: Layer[] = [
    { node, origin: "attributes", attrs: node.attributes, declared: declaredOf(node), restricted: false },
  ];
  let level = levelOf(h, node.path);
  if (node.kind === "array") {
    const parent = h.parent(node.path);
    if (parent !== undefined) {
      layers.push({ node: parent, origin: "parent", attrs: parent.attributes, declared: declaredOf(parent), restricted: false });
      level ??= levelOf(h, parent.path);
    }
  }
  if (level !== undefined) {
    const e = level.entry;
    const entryAttrs: JsonObject = {};
    if (e.spatialShape !== undefined) entryAttrs["spatial:shape"] = [...e.spatialShape];
    if (e.spatialTransform !== undefined) entryAttrs["spatial:transform"] = [...e.spatialTransform];
    const m = level.multiscales;
    layers.push({
      node: m,
      origin: "layout",
      attrs: entryAttrs,
      declared: declaredOf(m),
      restricted: false,
      detail: `multiscales.layout[${e.index}] (${e.asset})`,
    });
    if (!layers.some((l) => l.node === m && l.origin !== "layout")) {
      layers.push({ node: m, origin: "multiscales", attrs: m.attributes, declared: declaredOf(m), restricted: true });
    }
  }
  return { layers, level };
}

function isBaseLevel(entry: LayoutEntry): boolean {
  return entry.derivedFrom === undefined && (entry.transform?.scale ?? []).every((s) => s === 1);
}

/** The `[sy, sx]` of a relative level transform (the last two axes when more are given). */
export function levelScale(entry: LayoutEntry): { scale: [number, number]; translation: [number, number] } {
  const s = entry.transform?.scale ?? [];
  const t = entry.transform?.translation ?? [];
  const pick = (a: number[], dflt: number): [number, number] =>
    a.length >= 2 ? [a[a.length - 2], a[a.length - 1]] : a.length === 1 ? [a[0], a[0]] : [dflt, dflt];
  return { scale: pick(s, 1), translation: pick(t, 0) };
}

/**
 * The absolute transform of a multiscales level: its layout entry's `spatial:transform`,
 * else the level node's own, else (base level) the multiscales group's, else derived
 * through `derived_from` (`source ∘ (scale, translation)`, translation in source pixels),
 * else a legacy transform of one of the level's arrays.
 */
export function levelTransform(h: GeoHierarchy, ctx: LevelContext, seen = new Set<string>()): { transform: Affine; provenance: Provenance } | undefined {
  const { entry, multiscales: m, layout } = ctx;
  if (entry.spatialTransform !== undefined) {
    return { transform: entry.spatialTransform, provenance: { from: m.path, origin: "layout", detail: `multiscales.layout[${entry.index}].spatial:transform` } };
  }
  const node = h.node(ctx.assetPath);
  if (node !== undefined) {
    const own = readSpatial(node.attributes).value;
    if (own.transform !== undefined && (own.transformType ?? "affine") === "affine") {
      return { transform: own.transform, provenance: { from: node.path, origin: "attributes", detail: "spatial:transform" } };
    }
  }
  if (isBaseLevel(entry)) {
    const root = readSpatial(m.attributes).value;
    if (root.transform !== undefined) {
      return { transform: root.transform, provenance: { from: m.path, origin: "multiscales", detail: "spatial:transform (base level)" } };
    }
  }
  if (entry.derivedFrom !== undefined && entry.transform !== undefined && !seen.has(entry.asset)) {
    seen.add(entry.asset);
    const src = layout.layout.find((e) => e.asset === entry.derivedFrom);
    if (src !== undefined) {
      const srcCtx: LevelContext = { multiscales: m, layout, entry: src, assetPath: joinRelative(m.path, src.asset) };
      const base = levelTransform(h, srcCtx, seen);
      if (base !== undefined) {
        const { scale, translation } = levelScale(entry);
        return {
          transform: scaleAffine(base.transform, scale[1], scale[0], translation[1], translation[0]),
          provenance: { from: m.path, origin: "derived", detail: `derived_from ${src.asset} × [${scale.join(", ")}]` },
        };
      }
    }
  }
  if (node !== undefined) {
    const candidates = node.kind === "array" ? [node] : h.children(node.path).filter((c) => c.kind === "array");
    for (const arr of candidates) {
      const legacy = legacyTransform(h, arr);
      if (legacy !== undefined) return legacy;
    }
  }
  return undefined;
}

function spatialShapeOf(node: GeoNode, roles: DimensionRoles | undefined): [number, number] | undefined {
  if (node.shape === undefined || roles === undefined) return undefined;
  return [node.shape[roles.y], node.shape[roles.x]];
}

/** A legacy transform of an array (STAC `proj:transform` when `proj:shape` agrees, CF `GeoTransform`). */
function legacyTransform(h: GeoHierarchy, arr: GeoNode): { transform: Affine; provenance: Provenance } | undefined {
  const roles = rolesFor(arr, inferSpatialDimensions(arr.dimensionNames ?? []));
  const shape = spatialShapeOf(arr, roles);
  for (const node of [arr, h.parent(arr.path)]) {
    if (node === undefined) continue;
    const t = transformFromStac(node.attributes);
    if (t !== undefined) {
      const declared = shapeFromStac(node.attributes);
      if (declared === undefined || shape === undefined || (declared[0] === shape[0] && declared[1] === shape[1])) {
        return { transform: t, provenance: { from: node.path, origin: "legacy", detail: "proj:transform (STAC)" } };
      }
    }
    const gm = gridMappingVariable(h, node);
    if (gm !== undefined) {
      const g = transformFromGeoTransform(gm.attributes.GeoTransform);
      if (g !== undefined) return { transform: g, provenance: { from: gm.path, origin: "legacy", detail: "GeoTransform (CF grid mapping)" } };
    }
  }
  return undefined;
}

/** The CF grid-mapping variable a node's `grid_mapping` names: a sibling, else in an ancestor group. */
export function gridMappingVariable(h: GeoHierarchy, node: GeoNode): GeoNode | undefined {
  const name = gridMappingName(node.attributes);
  if (name === undefined) return undefined;
  const start = node.kind === "array" ? parentOf(node.path) : node.path;
  for (let g = start; g !== undefined; g = parentOf(g)) {
    const v = h.node(joinRelative(g, name));
    if (v !== undefined && v.kind === "array") return v;
  }
  return undefined;
}

function rolesFor(node: GeoNode, dims: readonly [string, string] | undefined): DimensionRoles | undefined {
  if (node.kind !== "array" || node.shape === undefined) return undefined;
  const n = node.shape.length;
  const names = node.dimensionNames;
  if (names !== undefined && dims !== undefined) {
    const y = names.indexOf(dims[0]);
    const x = names.indexOf(dims[1]);
    if (y < 0 || x < 0) return undefined;
    return { y, x, others: [...Array(n).keys()].filter((i) => i !== y && i !== x), assumed: false };
  }
  if (names === undefined && n >= 2) return { y: n - 2, x: n - 1, others: [...Array(n - 2).keys()], assumed: true };
  return undefined;
}

/**
 * Resolves the effective georeferencing of the array or group at `path`.
 *
 * @example
 * ```ts
 * const h = await loadHierarchy(store);
 * const geo = effectiveGeoreference(h, "measurements/reflectance/r10m/b02");
 * geo.crs?.code;            // "EPSG:32632"
 * geo.transform;            // [10, 0, 699960, 0, -10, 4700040]
 * geo.provenance.transform; // { origin: "legacy", detail: "proj:transform (STAC)", ... }
 * ```
 */
export function effectiveGeoreference(h: GeoHierarchy, path: string): EffectiveGeoreference {
  const node = h.node(path);
  if (node === undefined) throw new ZarrError("NODE_NOT_FOUND", `No node at "${path || "/"}" in the hierarchy`);
  const { layers, level } = layersOf(h, node);
  const out: EffectiveGeoreference = {
    path,
    kind: node.kind,
    transformType: "affine",
    registration: "pixel",
    provenance: {},
    notes: [],
  };
  const spatial = layers.map((l) => ({ layer: l, value: readSpatial(l.attrs).value }));
  const pick = <K extends keyof SpatialAttributes>(key: K, levelSpecific: boolean): [SpatialAttributes[K], Provenance] | undefined => {
    for (const pass of [true, false]) {
      for (const { layer, value } of spatial) {
        // Declared conventions (and layout entries) first, keys used without a declaration after.
        const declared = layer.origin === "layout" || layer.declared.has("spatial");
        if (declared !== pass) continue;
        if (layer.restricted && levelSpecific && !(level !== undefined && isBaseLevel(level.entry))) continue;
        const v = value[key];
        if (v === undefined) continue;
        const attr = key === "transformType" ? "spatial:transform_type" : `spatial:${key}`;
        const prov: Provenance = { from: layer.node.path, origin: layer.origin, detail: layer.detail ?? attr };
        if (!pass) prov.undeclared = true;
        return [v, prov];
      }
    }
    return undefined;
  };
  const dims = pick("dimensions", false);
  if (dims !== undefined) {
    out.dimensions = dims[0];
    out.provenance.dimensions = dims[1];
  } else if (node.dimensionNames !== undefined) {
    const inferred = inferSpatialDimensions(node.dimensionNames);
    if (inferred !== undefined) {
      out.dimensions = inferred;
      out.provenance.dimensions = { from: path, origin: "inferred", detail: "dimension names" };
    }
  }
  const tt = pick("transformType", false);
  if (tt !== undefined) out.transformType = tt[0] as string;
  const reg = pick("registration", false);
  if (reg !== undefined) {
    out.registration = reg[0] as Registration;
    out.provenance.registration = reg[1];
  }
  const bbox = pick("bbox", false);
  if (bbox !== undefined) {
    out.bbox = bbox[0];
    out.provenance.bbox = bbox[1];
  }
  const declaredShape = pick("shape", true);
  if (declaredShape !== undefined) {
    out.declaredShape = declaredShape[0];
    out.provenance.declaredShape = declaredShape[1];
  }
  out.roles = rolesFor(node, out.dimensions);
  const own = spatialShapeOf(node, out.roles);
  if (own !== undefined) {
    out.shape = own;
    out.provenance.shape = { from: path, origin: "attributes", detail: "array shape" };
  } else if (declaredShape !== undefined) {
    out.shape = declaredShape[0];
    out.provenance.shape = declaredShape[1];
  }
  if (out.transformType !== "affine") {
    out.notes.push(`spatial:transform_type "${out.transformType}" is not affine: no transform is used`);
  } else {
    const t = pick("transform", true);
    if (t !== undefined) {
      out.transform = t[0];
      out.provenance.transform = t[1];
    } else {
      const fromLevel = level === undefined ? undefined : levelTransform(h, level);
      const legacy = fromLevel ?? (node.kind === "array" ? legacyTransform(h, node) : undefined);
      if (legacy !== undefined) {
        out.transform = legacy.transform;
        out.provenance.transform = legacy.provenance;
      }
      if (node.kind === "array") noteStaleLegacy(node, out);
    }
  }
  resolveCrs(h, layers, out);
  if (out.transform !== undefined && out.shape !== undefined) out.extent = gridExtent(out.transform, out.shape, out.registration);
  return out;
}

function noteStaleLegacy(node: GeoNode, out: EffectiveGeoreference): void {
  const declared = shapeFromStac(node.attributes);
  if (declared !== undefined && out.shape !== undefined && (declared[0] !== out.shape[0] || declared[1] !== out.shape[1])) {
    out.notes.push(
      `proj:shape [${declared.join(", ")}] and proj:transform of "${node.path}" describe another grid than its shape [${out.shape.join(", ")}]: ignored`,
    );
  }
}

function resolveCrs(h: GeoHierarchy, layers: Layer[], out: EffectiveGeoreference): void {
  const take = (crs: ReturnType<typeof readProj>["value"], from: string, source: CrsSource, origin: FieldOrigin, detail: string, undeclared = false) => {
    if (crs === undefined) return false;
    out.crs = { ...crs, source, from };
    out.provenance.crs = { from, origin, detail, ...(undeclared ? { undeclared } : {}) };
    return true;
  };
  for (const layer of layers) {
    if (layer.origin === "layout" || !layer.declared.has("proj")) continue;
    if (take(readProj(layer.attrs).value, layer.node.path, "proj", layer.origin, "proj:*")) return;
  }
  for (const layer of layers) {
    if (layer.origin === "layout" || layer.declared.has("proj")) continue;
    if (take(readProj(layer.attrs).value, layer.node.path, "proj-undeclared", layer.origin, "proj:* (undeclared)", true)) return;
  }
  const legacyNodes = layers.filter((l) => l.origin === "attributes" || l.origin === "parent" || l.origin === "multiscales").map((l) => l.node);
  for (const n of legacyNodes) {
    const origin: FieldOrigin = "legacy";
    if (take(crsFromGdalAttribute(n.attributes), n.path, "gdal:_CRS", origin, "_CRS (GDAL)")) return;
    const gm = gridMappingVariable(h, n);
    if (gm !== undefined && take(crsFromGridMapping(gm.attributes), gm.path, "cf:grid_mapping", origin, `grid_mapping → ${gm.name}`)) return;
    if (take(crsFromGridMapping(n.attributes), n.path, "cf:crs_wkt", origin, "crs_wkt")) return;
    if (take(crsFromStacEpsg(n.attributes), n.path, "stac:proj:epsg", origin, "proj:epsg (STAC)")) return;
  }
}

/**
 * The footprint `[xmin, ymin, xmax, ymax]` of a grid: pixel registration spans
 * `[0, width] × [0, height]` in pixel space, node registration `[-0.5, width - 0.5]`
 * (the samples sit on the nodes, their cells extend half a cell around them).
 */
export function gridExtent(transform: Affine, shape: readonly [number, number], registration: Registration = "pixel"): BBox {
  const o = registration === "node" ? -0.5 : 0;
  return affineBounds(transform, o, o, shape[1] + o, shape[0] + o);
}

/** Pixel size `[x, y]` of an effective georeference (CRS units), when it has a transform. */
export function resolution(geo: Pick<EffectiveGeoreference, "transform">): [number, number] | undefined {
  return geo.transform === undefined ? undefined : pixelSize(geo.transform);
}

/** CRS coordinates of the centre of pixel `(col, row)` (the sample location for node registration). */
export function pixelCenter(geo: Pick<EffectiveGeoreference, "transform" | "registration">, col: number, row: number): [number, number] {
  if (geo.transform === undefined) throw new ZarrError("INVALID_ARGUMENT", "The node has no transform");
  const o = geo.registration === "node" ? 0 : 0.5;
  return applyAffine(geo.transform, col + o, row + o);
}
