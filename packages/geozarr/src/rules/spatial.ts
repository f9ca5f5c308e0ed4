/**
 * Rule family **spatial**: the spatial convention's keys (mini-spec: Appendix › spatial:
 * Properties) on every node that declares or uses them, and how they fit the arrays they
 * apply to (own or inherited from the parent group or the multiscales level).
 *
 * Rule ids: `spatial.dimensions-missing`, `spatial.dimensions-invalid`,
 * `spatial.dimensions-not-in-array`, `spatial.transform-invalid`,
 * `spatial.transform-degenerate`, `spatial.transform-type-unknown`, `spatial.bbox-invalid`,
 * `spatial.bbox-degenerate`, `spatial.bbox-mismatch`, `spatial.shape-invalid`,
 * `spatial.shape-mismatch`, `spatial.registration-invalid`. (`spatial.transform-missing`
 * and the array case of `spatial.dimensions-missing` are the Dataset family's: they hold
 * for a Dataset's variables.)
 */
import { type Affine, pixelSize } from "../affine.js";
import { type BBox, type Registration, readSpatial, SPATIAL_KEYS } from "../attributes.js";
import type { ConventionName } from "../conventions.js";
import { type EffectiveGeoreference, gridExtent, levelOf } from "../effective.js";
import { type Issue, issue, pointer } from "../findings.js";
import type { GeoHierarchy, GeoNode } from "../hierarchy.js";
import { DECL_POINTER } from "./conventions.js";

/** Rounds for messages (6 decimals). */
export function round(v: number): number {
  return Math.round(v * 1e6) / 1e6;
}

/** True when a bbox has a height and a width (a degenerate one is reported on its own). */
export function bboxNonDegenerate(b: BBox): boolean {
  return b[1] < b[3] && b[0] !== b[2];
}

/** Undefined when the boxes agree within half a pixel; else a description of the difference. */
export function bboxDifference(bbox: BBox, extent: BBox, t: Affine): string | undefined {
  const [px, py] = pixelSize(t);
  const tolX = Math.max(px, py) * 0.5;
  const names = ["xmin", "ymin", "xmax", "ymax"];
  const off: string[] = [];
  // A box that crosses the antimeridian (xmin > xmax) wraps; compare its x edges modulo 360.
  const wraps = bbox[0] > bbox[2];
  for (let i = 0; i < 4; i++) {
    let d = Math.abs(bbox[i] - extent[i]);
    if (wraps && (i === 0 || i === 2)) d = Math.min(d, Math.abs(Math.abs(bbox[i] - extent[i]) - 360));
    if (d > tolX) off.push(`${names[i]} off by ${round(bbox[i] - extent[i])}`);
  }
  return off.length === 0 ? undefined : off.join(", ");
}

/**
 * An info when a node's spatial:bbox is not the extent of the grid `grid` names (within
 * half a pixel); none for a degenerate bbox, which is reported on its own.
 */
export function bboxExtentIssues(bbox: BBox, transform: Affine, shape: readonly [number, number], registration: Registration | undefined, grid: string): Issue[] {
  if (!bboxNonDegenerate(bbox)) return [];
  const extent = gridExtent(transform, shape, registration ?? "pixel");
  const diff = bboxDifference(bbox, extent, transform);
  if (diff === undefined) return [];
  return [
    issue(
      "spatial.bbox-mismatch",
      pointer("attributes", "spatial:bbox"),
      `spatial:bbox [${bbox.join(", ")}] differs from the extent of ${grid} [${extent.map(round).join(", ")}] (${diff}); the mini-spec does not require them to agree, but readers may use either`,
    ),
  ];
}

/**
 * The spatial rules of one node's own attributes: its fields (where it declares spatial or
 * uses its keys), spatial:dimensions for a declaration (own or inherited), and a bbox that
 * cannot be the extent of its own transform and shape.
 */
export function spatialIssues(node: GeoNode, declared: ReadonlySet<ConventionName>, inherited: readonly GeoNode[]): Issue[] {
  const a = node.attributes;
  const found: Issue[] = [];
  const spatial = readSpatial(a);
  if (declared.has("spatial") || SPATIAL_KEYS.some((k) => a[k] !== undefined)) found.push(...spatial.issues);
  const inheritsDims = inherited.some((n) => n.attributes["spatial:dimensions"] !== undefined);
  if (declared.has("spatial") && a["spatial:dimensions"] === undefined && !inheritsDims) {
    found.push(
      issue(
        "spatial.dimensions-missing",
        DECL_POINTER,
        `the spatial convention is declared but spatial:dimensions is missing (here${node.kind === "array" ? " and on the parent group" : ""}); add the [Y, X] dimension names, e.g. "spatial:dimensions": ["Y", "X"]`,
      ),
    );
  }
  // Georeferencing values that cannot be right even on their own.
  const s = spatial.value;
  if (s.transform !== undefined && s.shape !== undefined && s.bbox !== undefined) {
    found.push(...bboxExtentIssues(s.bbox, s.transform, s.shape, s.registration, "spatial:transform × spatial:shape"));
  }
  return found;
}

/** An array's own spatial:dimensions that are not among its dimension names. */
export function ownDimensionIssues(arr: GeoNode): Issue[] {
  const names = arr.dimensionNames;
  const dims = readSpatial(arr.attributes).value.dimensions;
  if (names === undefined || dims === undefined) return [];
  return dims.flatMap((d, i) =>
    names.includes(d)
      ? []
      : [
          issue(
            "spatial.dimensions-not-in-array",
            pointer("attributes", "spatial:dimensions", i),
            `spatial dimension "${d}" is not one of the array's dimension_names [${names.join(", ")}]; name the array's Y/X axes`,
          ),
        ],
  );
}

/**
 * The spatial rules of one array in its hierarchy: its own and inherited spatial:dimensions
 * against its dimension names (`namesChecked`: the DataArray rules check that it has them), spatial:shape against its shape, its own bbox against the
 * extent of the transform that applies.
 */
export function spatialArrayIssues(h: GeoHierarchy, arr: GeoNode, geo: EffectiveGeoreference, namesChecked: boolean): Issue[] {
  const found: Issue[] = ownDimensionIssues(arr);
  const own = readSpatial(arr.attributes).value;
  // Without dimension names, the array's own spatial:dimensions name none of its axes. Where
  // the DataArray rules run (Dataset members, a lone array) dataarray.dimension-names-missing
  // says so already.
  if (own.dimensions !== undefined && arr.dimensionNames === undefined && !namesChecked) {
    found.push(
      issue(
        "spatial.dimensions-not-in-array",
        pointer("attributes", "spatial:dimensions"),
        `spatial:dimensions [${own.dimensions.join(", ")}] name axes of "${arr.name}", but it has no dimension names; add dimension_names${arr.zarrFormat === 2 ? " (or _ARRAY_DIMENSIONS)" : ""} that include them`,
      ),
    );
  }
  // Inherited spatial:dimensions must name axes of every multi-dimensional child array
  // (1-D coordinate arrays index one of them and are exempt).
  const dimsFrom = geo.provenance.dimensions;
  if (own.dimensions === undefined && geo.dimensions !== undefined && dimsFrom !== undefined && dimsFrom.origin !== "inferred" && dimsFrom.origin !== "attributes") {
    const names = arr.dimensionNames;
    const usable = names?.every((n, i) => typeof n === "string" && n !== "" && names.indexOf(n) === i) === true;
    if (names !== undefined && usable && (arr.shape?.length ?? 0) >= 2) {
      const absent = geo.dimensions.filter((d) => !names.includes(d));
      if (absent.length > 0) {
        found.push(
          issue(
            "spatial.dimensions-not-in-array",
            pointer("dimension_names"),
            `spatial:dimensions [${geo.dimensions.join(", ")}] from "${dimsFrom.from || "/"}" apply to "${arr.name}", but its dimension_names [${names.join(", ")}] lack ${absent.map((d) => `"${d}"`).join(" and ")}; rename the array's Y/X axes or give the array its own spatial:dimensions`,
          ),
        );
      }
    }
  }
  // A layout entry's spatial:shape is checked against the level as multiscales.shape-mismatch.
  const shapeFromLayout = geo.provenance.declaredShape?.origin === "layout";
  if (!shapeFromLayout && geo.roles !== undefined && !geo.roles.assumed && geo.declaredShape !== undefined && geo.shape !== undefined) {
    const [dh, dw] = geo.declaredShape;
    const [ah, aw] = geo.shape;
    if (dh !== ah || dw !== aw) {
      found.push(
        issue(
          "spatial.shape-mismatch",
          pointer("shape"),
          `the array's spatial shape is [${ah}, ${aw}] but spatial:shape${declaredShapeSource(h, arr)} says [${dh}, ${dw}]; make spatial:shape match the array`,
        ),
      );
    }
  }
  if (own.bbox !== undefined && bboxNonDegenerate(own.bbox) && geo.extent !== undefined && geo.transform !== undefined && own.transform === undefined) {
    const diff = bboxDifference(own.bbox, geo.extent, geo.transform);
    if (diff !== undefined) {
      found.push(issue("spatial.bbox-mismatch", pointer("attributes", "spatial:bbox"), `spatial:bbox [${own.bbox.join(", ")}] differs from the array's extent [${geo.extent.map(round).join(", ")}] (${diff})`));
    }
  }
  return found;
}

/** Where the spatial:shape that applies to an array is declared, for messages. */
function declaredShapeSource(h: GeoHierarchy, arr: GeoNode): string {
  if (readSpatial(arr.attributes).value.shape !== undefined) return " (on the array)";
  const parent = h.parent(arr.path);
  if (parent !== undefined && readSpatial(parent.attributes).value.shape !== undefined) return ` (on "${parent.path || "/"}")`;
  const lvl = levelOf(h, arr.path) ?? (parent === undefined ? undefined : levelOf(h, parent.path));
  if (lvl !== undefined) return ` (layout entry "${lvl.entry.asset}" of "${lvl.multiscales.path || "/"}")`;
  return "";
}
