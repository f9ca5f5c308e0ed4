/**
 * Rule family **multiscales**: the multiscales convention (mini-spec: Multiscale Dataset,
 * Appendix › MultiscalesMetadata, LayoutObject, TransformObject, ResamplingMethod): the
 * layout on its own (assets, derived_from graph, transforms, the scale chain against the
 * levels' declared transforms and shapes) and against the levels it names.
 *
 * Rule ids: `multiscales.invalid`, `multiscales.on-array`, `multiscales.conventions-missing`,
 * `multiscales.not-geospatial`, `multiscales.asset-invalid`, `multiscales.asset-duplicate`,
 * `multiscales.asset-missing`, `multiscales.derived-from-unknown`,
 * `multiscales.derived-from-cycle`, `multiscales.transform-missing`,
 * `multiscales.transform-invalid`, `multiscales.scale-inconsistent`,
 * `multiscales.shape-mismatch`, `multiscales.transform-mismatch`,
 * `multiscales.variables-differ`, `multiscales.undeclared-member`,
 * `multiscales.resampling-unknown`; also `spatial.bbox-mismatch` (the group's bbox against
 * the base level).
 */

import type { JsonObject } from "@zarr/spec";
import { type Affine, affineClose, pixelSize, scaleAffine } from "../affine.js";
import { COMMON_RESAMPLING, type MultiscalesAttributes, readMultiscales, readSpatial } from "../attributes.js";
import { effectiveGeoreference, levelScale } from "../effective.js";
import { type Issue, issue, locate, pointer } from "../findings.js";
import { type GeoHierarchy, type GeoNode, joinRelative } from "../hierarchy.js";
import { describeMultiscales, levelVariables } from "../multiscale.js";
import type { Ctx } from "./context.js";
import { DECL_POINTER, declaredOf, entryText } from "./conventions.js";
import { layoutProjKeyIssues } from "./proj.js";
import { bboxExtentIssues, round } from "./spatial.js";

/** The conventions a GeoZarr Multiscale Dataset declares (Multiscale Dataset › Attributes). */
const QUALIFYING = ["multiscales", "proj", "spatial"] as const;

/** True when a group qualifies as a GeoZarr Multiscale Dataset: it declares multiscales, proj: and spatial:. */
export function isMultiscaleDataset(attributes: JsonObject): boolean {
  const d = declaredOf(attributes);
  return QUALIFYING.every((c) => d.has(c));
}

/** The multiscales attribute of one node on its own: only on groups, and well-formed. */
export function multiscalesAttributeIssues(node: GeoNode): Issue[] {
  const a = node.attributes;
  if (a.multiscales === undefined) return [];
  if (node.kind === "array") {
    return [issue("multiscales.on-array", pointer("attributes", "multiscales"), "multiscales is defined on groups only; move it to the group holding the levels")];
  }
  return readMultiscales(a).issues;
}

/** Layout checks that need only the multiscales group's own document. */
export function checkLayoutSelf(node: GeoNode, ms: MultiscalesAttributes, ctx: Ctx): void {
  const found: Issue[] = [];
  const declared = declaredOf(node.attributes);
  // A multiscales layout is valid on its own; only a group that declares all three
  // conventions is a GeoZarr Multiscale Dataset, whose levels are Datasets.
  const missing = QUALIFYING.filter((c) => !declared.has(c));
  if (!declared.has("proj") && !declared.has("spatial")) {
    found.push(
      issue(
        "multiscales.not-geospatial",
        DECL_POINTER,
        `not a GeoZarr Multiscale Dataset: this multiscales group declares neither proj: nor spatial: (a Multiscale Dataset declares multiscales, proj: and spatial:), so its levels are not checked as Datasets; declare ${missing.map(entryText).join(", ")} with their keys if it is meant to be one`,
      ),
    );
  } else if (missing.length > 0) {
    found.push(
      issue(
        "multiscales.conventions-missing",
        DECL_POINTER,
        `not a GeoZarr Multiscale Dataset: ${missing.join(" and ")} ${missing.length > 1 ? "are" : "is"} not declared (a Multiscale Dataset declares multiscales, proj: and spatial:), so its levels are not checked as Datasets; add ${missing.map(entryText).join(", ")} (and the keys they define) if it is meant to be one`,
      ),
    );
  }
  const at = (i: number, ...rest: Array<string | number>) => pointer("attributes", "multiscales", "layout", i, ...rest);
  const assets = new Map<string, number>();
  for (const e of ms.layout) {
    const prev = assets.get(e.asset);
    if (prev !== undefined) {
      found.push(issue("multiscales.asset-duplicate", at(e.index, "asset"), `asset "${e.asset}" already names level ${prev}; give each level its own asset`));
    } else assets.set(e.asset, e.index);
    if (e.derivedFrom !== undefined) {
      if (!assets.has(e.derivedFrom) && !ms.layout.some((o) => o.asset === e.derivedFrom)) {
        found.push(
          issue(
            "multiscales.derived-from-unknown",
            at(e.index, "derived_from"),
            `level "${e.asset}" is derived from "${e.derivedFrom}", which is not an asset of this layout; name one of [${ms.layout.map((l) => l.asset).join(", ")}]`,
          ),
        );
      }
      if (e.raw.transform === undefined) {
        found.push(
          issue(
            "multiscales.transform-missing",
            at(e.index),
            `level "${e.asset}" has derived_from but no transform; add "transform": {"scale": [sy, sx], "translation": [0, 0]} relative to "${e.derivedFrom}"`,
          ),
        );
      }
    }
    for (const [m, p] of [
      [e.resamplingMethod, at(e.index, "resampling_method")],
      [e.index === 0 ? ms.resamplingMethod : undefined, pointer("attributes", "multiscales", "resampling_method")],
    ] as const) {
      if (m !== undefined && !COMMON_RESAMPLING.has(m)) {
        found.push(issue("multiscales.resampling-unknown", p, `resampling method "${m}" is not one of the common names (${[...COMMON_RESAMPLING].join(", ")}); readers may not know it`));
      }
    }
  }
  found.push(...layoutProjKeyIssues(ms));
  // Cycles in derived_from.
  const byAsset = new Map(ms.layout.map((e) => [e.asset, e]));
  const reported = new Set<string>();
  for (const e of ms.layout) {
    const chain: string[] = [];
    let cur: typeof e | undefined = e;
    while (cur !== undefined && cur.derivedFrom !== undefined) {
      if (chain.includes(cur.asset)) {
        const cycle = chain.slice(chain.indexOf(cur.asset));
        const key = [...cycle].sort().join("\u0000");
        if (!reported.has(key)) {
          reported.add(key);
          found.push(
            issue(
              "multiscales.derived-from-cycle",
              at(cur.index, "derived_from"),
              `derived_from forms a cycle (${[...cycle, cur.asset].join(" → ")}); the finest level must not be derived from another level`,
            ),
          );
        }
        break;
      }
      chain.push(cur.asset);
      cur = byAsset.get(cur.derivedFrom);
    }
  }
  // Scale chain against the levels' own spatial:transform / spatial:shape.
  for (const e of ms.layout) {
    // Without a transform the scale is unknown (transform-missing says so already).
    if (e.derivedFrom === undefined || e.transform === undefined) continue;
    const src = byAsset.get(e.derivedFrom);
    if (src === undefined) continue;
    found.push(...chainIssues(e.asset, e.index, src.asset, levelScale(e), e.spatialTransform, src.spatialTransform, e.spatialShape, src.spatialShape, ctx.tolerance, "layout"));
  }
  // The group's bbox against the base level's extent.
  const s = readSpatial(node.attributes).value;
  const base = ms.layout.find((e) => e.derivedFrom === undefined);
  if (s.bbox !== undefined && base?.spatialTransform !== undefined && base.spatialShape !== undefined) {
    found.push(...bboxExtentIssues(s.bbox, base.spatialTransform, base.spatialShape, s.registration, `the base level "${base.asset}"`));
  }
  ctx.out.push(...locate(node.path, found));
}

/** Issues where a level's relative scale disagrees with the levels' transforms or shapes. */
/** Issues where a level's relative scale disagrees with the levels' transforms or shapes. */
function chainIssues(
  asset: string,
  index: number,
  srcAsset: string,
  rel: { scale: [number, number]; translation: [number, number] },
  t: Affine | undefined,
  srcT: Affine | undefined,
  shape: readonly [number, number] | undefined,
  srcShape: readonly [number, number] | undefined,
  tolerance: number,
  where: "layout" | "arrays",
): Issue[] {
  const out: Issue[] = [];
  const at = pointer("attributes", "multiscales", "layout", index, "transform", "scale");
  const [sy, sx] = rel.scale;
  if (t !== undefined && srcT !== undefined) {
    const [ax, ay] = pixelSize(t);
    const [bx, by] = pixelSize(srcT);
    const rx = ax / bx;
    const ry = ay / by;
    if (Math.abs(rx - sx) > tolerance * sx || Math.abs(ry - sy) > tolerance * sy) {
      out.push(
        issue(
          "multiscales.scale-inconsistent",
          at,
          `level "${asset}" declares scale [${sy}, ${sx}] relative to "${srcAsset}", but their spatial:transform pixel sizes differ by [${round(ry)}, ${round(rx)}]; the scale is relative to derived_from, not to the first level: write [${round(ry)}, ${round(rx)}]`,
        ),
      );
    } else {
      const expected = scaleAffine(srcT, sx, sy, rel.translation[1], rel.translation[0]);
      if (!affineClose(expected, t, tolerance, 0.5 * Math.max(ax, ay))) {
        out.push(
          issue(
            "multiscales.scale-inconsistent",
            pointer("attributes", "multiscales", "layout", index, "transform"),
            `level "${asset}": applying its transform to "${srcAsset}" gives origin (${round(expected[2])}, ${round(expected[5])}) but its spatial:transform has (${round(t[2])}, ${round(t[5])}); fix translation or spatial:transform`,
          ),
        );
      }
    }
  }
  if (shape !== undefined && srcShape !== undefined) {
    const ey = srcShape[0] / sy;
    const ex = srcShape[1] / sx;
    // A level holds floor or ceil of source / scale pixels (partial edge blocks kept or not).
    if (Math.abs(shape[0] - ey) >= 1 + 1e-9 || Math.abs(shape[1] - ex) >= 1 + 1e-9) {
      const real = [round(srcShape[0] / shape[0]), round(srcShape[1] / shape[1])];
      out.push(
        issue(
          "multiscales.scale-inconsistent",
          at,
          `level "${asset}" (${where === "layout" ? "spatial:shape" : "arrays"} [${shape.join(", ")}]) is not "${srcAsset}" [${srcShape.join(", ")}] divided by its scale [${sy}, ${sx}] (expected about [${round(ey)}, ${round(ex)}]); the shapes imply a relative scale of about [${real.join(", ")}]`,
        ),
      );
    }
  }
  return out;
}


/**
 * Layout rules that need the members (assets exist, levels agree with the layout), and,
 * for a group that qualifies as a Multiscale Dataset, its member rules (no members outside
 * the layout, the same variables at every level).
 */
export function checkMultiscalesMembers(h: GeoHierarchy, group: GeoNode, ms: MultiscalesAttributes, ctx: Ctx, qualifying: boolean): void {
  const found: Issue[] = [];
  const at = (i: number, ...rest: Array<string | number>) => pointer("attributes", "multiscales", "layout", i, ...rest);
  // Assets exist; members are levels.
  const levelPaths = new Set<string>();
  for (const e of ms.layout) {
    const path = joinRelative(group.path, e.asset);
    const parts = e.asset.split("/");
    for (let i = 1; i <= parts.length; i++) levelPaths.add(joinRelative(group.path, parts.slice(0, i).join("/")));
    if (h.node(path) === undefined && h.complete) {
      found.push(
        issue(
          "multiscales.asset-missing",
          at(e.index, "asset"),
          `level "${e.asset}" does not exist below "${group.path || "/"}"; write the level or remove it from the layout`,
        ),
      );
    }
  }
  // Multiscale Dataset › Members: only a qualifying group's members are the GeoZarr model's.
  for (const child of qualifying ? h.children(group.path) : []) {
    if (!levelPaths.has(child.path)) {
      found.push(
        issue(
          "multiscales.undeclared-member",
          at(0),
          `"${child.name}" is a member of the multiscales group but not a level of its layout; move it out of the group (it is outside the GeoZarr model here)`,
          "warning",
        ),
      );
    }
  }
  // Levels: shapes, transforms, scale chains, variables.
  let desc: ReturnType<typeof describeMultiscales> | undefined;
  try {
    desc = describeMultiscales(h, group.path);
  } catch {
    desc = undefined;
  }
  if (desc !== undefined) {
    const levels = new Map(desc.levels.map((l) => [l.asset, l]));
    for (const e of ms.layout) {
      const level = levels.get(e.asset);
      if (level === undefined || level.kind === "missing") continue;
      const node = h.node(level.path) as GeoNode;
      // The layout entry against the level's own metadata.
      const arrays = levelVariables(h, node, desc.dimensions);
      const arrShape = arrays.length > 0 ? effectiveGeoreference(h, arrays[0].path).shape : undefined;
      if (e.spatialShape !== undefined && arrShape !== undefined && (e.spatialShape[0] !== arrShape[0] || e.spatialShape[1] !== arrShape[1])) {
        found.push(
          issue(
            "multiscales.shape-mismatch",
            at(e.index, "spatial:shape"),
            `level "${e.asset}" declares spatial:shape [${e.spatialShape.join(", ")}] but its arrays are [${arrShape.join(", ")}]; write the arrays' shape`,
          ),
        );
      }
      const own = node.kind === "group" ? readSpatial(node.attributes).value.transform : undefined;
      if (e.spatialTransform !== undefined && own !== undefined && !affineClose(e.spatialTransform, own, 1e-9)) {
        found.push(
          issue(
            "multiscales.transform-mismatch",
            at(e.index, "spatial:transform"),
            `level "${e.asset}": the layout's spatial:transform [${e.spatialTransform.join(", ")}] differs from the level group's [${own.join(", ")}]; make them equal`,
          ),
        );
      }
      if (e.derivedFrom === undefined || e.transform === undefined) continue;
      const src = levels.get(e.derivedFrom);
      const srcEntry = ms.layout.find((x) => x.asset === e.derivedFrom);
      if (src === undefined || src.kind === "missing" || srcEntry === undefined) continue;
      // Compare what the layout-only check could not: anything read from the level itself.
      // Shapes the layout already declared (and the arrays agree with) were checked above.
      const asDeclared = (l: typeof level, entry: typeof e) =>
        l.shapeFrom === "layout" || (entry.spatialShape !== undefined && l.shape !== undefined && entry.spatialShape[0] === l.shape[0] && entry.spatialShape[1] === l.shape[1]);
      const shapes = level.shape !== undefined && src.shape !== undefined && !(asDeclared(level, e) && asDeclared(src, srcEntry));
      const declaredT = (l: typeof level) => l.transform !== undefined && l.transformProvenance?.origin !== "derived";
      const fromLayoutT = (l: typeof level) => l.transformProvenance?.origin === "layout";
      const transforms = declaredT(level) && declaredT(src) && !(fromLayoutT(level) && fromLayoutT(src));
      found.push(
        ...chainIssues(
          e.asset,
          e.index,
          e.derivedFrom,
          levelScale(e),
          transforms ? level.transform : undefined,
          transforms ? src.transform : undefined,
          shapes ? level.shape : undefined,
          shapes ? src.shape : undefined,
          ctx.tolerance,
          "arrays",
        ),
      );
    }
    // Variables per level (Multiscale Dataset › Members wants the same set; real data differs: a warning).
    const sets = desc.levels.filter((l) => l.kind === "group").map((l) => ({ asset: l.asset, vars: l.variables.slice().sort() }));
    const distinct = new Set(sets.map((s) => s.vars.join(",")));
    if (qualifying && distinct.size > 1) {
      const all = [...new Set(sets.flatMap((s) => s.vars))].sort();
      const table = sets.map((s) => `${s.asset}: ${all.map((v) => (s.vars.includes(v) ? v : "-".repeat(v.length))).join(" ")}`).join(" | ");
      found.push(
        issue(
          "multiscales.variables-differ",
          pointer("attributes", "multiscales", "layout"),
          `levels hold different variables (the mini-spec wants the same set at every level): ${table}; downsample the missing variables into every level to comply`,
        ),
      );
    }
  }
  ctx.out.push(...locate(group.path, found));
}
