/**
 * A Multiscale Dataset as a reader sees it: its levels with their absolute shape,
 * transform, resolution, resampling method and variables, resolved from the layout,
 * the level groups and their arrays.
 */
import { ZarrError } from "@zarr/spec";
import { type Affine, pixelSize } from "./affine.js";
import type { BBox, Registration } from "./attributes.js";
import type { ResolvedCrs } from "./crs.js";
import {
  effectiveGeoreference,
  gridExtent,
  type LevelContext,
  levelScale,
  levelTransform,
  multiscalesOf,
  type Provenance,
} from "./effective.js";
import type { GeoHierarchy, GeoNode } from "./hierarchy.js";
import { joinRelative } from "./hierarchy.js";
import { inferSpatialDimensions } from "./legacy.js";

/** One resolution level. */
export interface MultiscaleLevel {
  index: number;
  asset: string;
  /** Hierarchy path of the level's group or array. */
  path: string;
  kind: "group" | "array" | "missing";
  derivedFrom?: string;
  /** Relative `[sy, sx]` scale from `derivedFrom` (1 when absent). */
  scale: [number, number];
  /** Relative `[ty, tx]` translation (source pixels). */
  translation: [number, number];
  /** The level's method, else the layout's default. */
  resamplingMethod?: string;
  /** `[height, width]` of the level's grid. */
  shape?: readonly [number, number];
  /** Whether the shape was read from the level's arrays or from the layout's `spatial:shape`. */
  shapeFrom?: "arrays" | "layout";
  transform?: Affine;
  transformProvenance?: Provenance;
  /** Pixel size `[x, y]` in CRS units. */
  resolution?: [number, number];
  extent?: BBox;
  /** Names of the level's data variables (arrays with both spatial dimensions); an array-based level lists itself. */
  variables: string[];
  /** Chunk shape of the first data variable along `[Y, X]`. */
  chunkShape?: [number, number];
}

/** A Multiscale Dataset. */
export interface MultiscaleDataset {
  path: string;
  crs?: ResolvedCrs;
  dimensions?: readonly [string, string];
  registration: Registration;
  bbox?: BBox;
  resamplingMethod?: string;
  levels: MultiscaleLevel[];
}

/** Paths of every group with a usable `multiscales` layout. */
export function findMultiscales(h: GeoHierarchy): string[] {
  return h
    .all()
    .filter((n) => multiscalesOf(n) !== undefined)
    .map((n) => n.path);
}

/** The data variables of a level: arrays having both spatial dimensions. */
export function levelVariables(h: GeoHierarchy, level: GeoNode, dims: readonly [string, string] | undefined): GeoNode[] {
  const arrays = level.kind === "array" ? [level] : h.children(level.path).filter((c) => c.kind === "array");
  return arrays.filter((a) => {
    if (a.shape === undefined || a.shape.length < 2) return false;
    const names = a.dimensionNames;
    if (names === undefined) return true;
    const d = dims ?? inferSpatialDimensions(names);
    return d !== undefined && names.includes(d[0]) && names.includes(d[1]);
  });
}

/**
 * Describes the Multiscale Dataset at `path`: each level's shape, absolute transform,
 * resolution, variables and resampling method.
 *
 * @example
 * ```ts
 * const ms = describeMultiscales(await loadHierarchy(store), "");
 * for (const l of ms.levels) console.log(l.asset, l.shape, l.resolution);
 * ```
 */
export function describeMultiscales(h: GeoHierarchy, path = ""): MultiscaleDataset {
  const group = h.node(path);
  const layout = group === undefined ? undefined : multiscalesOf(group);
  if (group === undefined || layout === undefined) {
    throw new ZarrError("INVALID_ARGUMENT", `"${path || "/"}" is not a group with a multiscales layout`);
  }
  const rootGeo = effectiveGeoreference(h, path);
  const out: MultiscaleDataset = {
    path,
    registration: rootGeo.registration,
    levels: [],
  };
  if (rootGeo.crs !== undefined) out.crs = rootGeo.crs;
  if (rootGeo.bbox !== undefined) out.bbox = rootGeo.bbox;
  if (layout.resamplingMethod !== undefined) out.resamplingMethod = layout.resamplingMethod;
  let dims = rootGeo.dimensions;
  for (const entry of layout.layout) {
    const assetPath = joinRelative(path, entry.asset);
    const node = h.node(assetPath);
    const ctx: LevelContext = { multiscales: group, layout, entry, assetPath };
    const { scale, translation } = levelScale(entry);
    const level: MultiscaleLevel = {
      index: entry.index,
      asset: entry.asset,
      path: assetPath,
      kind: node === undefined ? "missing" : node.kind,
      scale,
      translation,
      variables: [],
    };
    if (entry.derivedFrom !== undefined) level.derivedFrom = entry.derivedFrom;
    const method = entry.resamplingMethod ?? layout.resamplingMethod;
    if (method !== undefined) level.resamplingMethod = method;
    if (node !== undefined) {
      let vars = levelVariables(h, node, dims);
      if (dims === undefined && vars.length > 0) {
        const g = effectiveGeoreference(h, vars[0].path);
        dims = g.dimensions;
        vars = levelVariables(h, node, dims);
      }
      level.variables = vars.map((v) => (node.kind === "array" ? node.name : v.name));
      const first = vars[0];
      if (first !== undefined) {
        const g = effectiveGeoreference(h, first.path);
        if (g.shape !== undefined) {
          level.shape = g.shape;
          level.shapeFrom = "arrays";
        }
        if (g.roles !== undefined && first.chunkShape !== undefined) {
          level.chunkShape = [first.chunkShape[g.roles.y], first.chunkShape[g.roles.x]];
        }
      }
    }
    if (level.shape === undefined && entry.spatialShape !== undefined) {
      level.shape = entry.spatialShape;
      level.shapeFrom = "layout";
    }
    const t = levelTransform(h, ctx);
    if (t !== undefined) {
      level.transform = t.transform;
      level.transformProvenance = t.provenance;
      level.resolution = pixelSize(t.transform);
      if (level.shape !== undefined) level.extent = gridExtent(t.transform, level.shape, out.registration);
    }
    out.levels.push(level);
  }
  if (dims !== undefined) out.dimensions = dims;
  return out;
}
