/**
 * Whole-hierarchy validation against the GeoZarr mini-spec and the conventions, each node
 * by the rules of the version it declares (v1 and undeclared: the mini-spec's; v0.1: the
 * v0.1 schemas').
 * Rules are written by hand (the published JSON schemas pin names and URLs and give
 * wrong answers on real data); real-world quirks are warnings, not errors.
 */
import type { ZarrArray, ZarrGroup } from "@zarr/core";
import { isJsonObject, type JsonObject, type Store } from "@zarr/spec";
import { type Affine, affineClose, pixelSize, scaleAffine } from "./affine.js";
import {
  type BBox,
  COMMON_RESAMPLING,
  hasKeysWithPrefix,
  LEGACY_PROJ_KEYS,
  legacyProjIssues,
  type MultiscalesAttributes,
  PROJ_CODE_PATTERNS,
  PROJ_KEYS,
  readMultiscales,
  readProj,
  readSpatial,
  SPATIAL_KEYS,
} from "./attributes.js";
import { CONVENTION_ENTRIES, type ConventionName, type ConventionsVersion, detectConventions } from "./conventions.js";
import { crsCode, crsLabel } from "./crs.js";
import { type EffectiveGeoreference, effectiveGeoreference, gridExtent, gridMappingVariable, levelOf, multiscalesOf } from "./effective.js";
import { type Finding, type Issue, issue, locate, pointer, RULES, type RuleId, type Severity } from "./findings.js";
import { type GeoHierarchy, type GeoNode, joinRelative, type LoadHierarchyOptions, loadHierarchy } from "./hierarchy.js";
import { crsFromGdalAttribute, crsFromStacEpsg, gridMappingName, shapeFromStac, transformFromStac } from "./legacy.js";
import { describeMultiscales, levelVariables } from "./multiscale.js";
import { geoProj010 } from "./upgrade.js";

/** Options of the validators. */
export interface ValidateOptions {
  /**
   * Relative tolerance when comparing a level's scale with transforms (default 0.01:
   * published metadata rounds scales such as 1/3 to 0.333).
   */
  tolerance?: number;
  /** Change the severity of rules, or turn them off. */
  severities?: Partial<Record<RuleId, Severity | "off">>;
}

/** The result of a validation. */
export interface ValidationReport {
  /** True when there is no error (warnings and infos allowed). */
  valid: boolean;
  findings: Finding[];
  counts: Record<Severity, number>;
  /** Groups that qualify as GeoZarr Datasets (declare proj: or spatial:). */
  datasets: string[];
  /** Groups with a multiscales layout. */
  multiscales: string[];
}

interface Ctx {
  tolerance: number;
  out: Finding[];
}

const DECL_POINTER = pointer("attributes", "zarr_conventions");

function report(findings: Finding[], options: ValidateOptions, datasets: string[], multiscales: string[]): ValidationReport {
  const sev = options.severities ?? {};
  const kept: Finding[] = [];
  const seen = new Set<string>();
  for (const f of findings) {
    const override = sev[f.rule];
    if (override === "off") continue;
    const g = override === undefined ? f : { ...f, severity: override };
    const key = `${g.rule}\u0000${g.path}\u0000${g.pointer}\u0000${g.message}`;
    if (seen.has(key)) continue;
    seen.add(key);
    kept.push(g);
  }
  const order: Record<Severity, number> = { error: 0, warning: 1, info: 2 };
  kept.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : order[a.severity] - order[b.severity]));
  const counts: Record<Severity, number> = { error: 0, warning: 0, info: 0 };
  for (const f of kept) counts[f.severity]++;
  return { valid: counts.error === 0, findings: kept, counts, datasets, multiscales };
}

/**
 * Validates one node's metadata document on its own (`{node_type, attributes, ...}`),
 * without its members: the convention declarations, the proj/spatial/multiscales fields,
 * and the layout's internal consistency (derived_from graph, transforms, scales against
 * the levels' `spatial:transform` and `spatial:shape`, the bbox against the base level).
 *
 * @example
 * ```ts
 * const r = validateDocument(JSON.parse(readFileSync("geospatial-pyramid.json", "utf8")));
 * r.valid; r.findings.map((f) => f.rule);
 * ```
 */
export function validateDocument(doc: JsonObject, options: ValidateOptions & { path?: string } = {}): ValidationReport {
  const path = options.path ?? "";
  const ctx: Ctx = { tolerance: options.tolerance ?? 0.01, out: [] };
  const attributes = isJsonObject(doc.attributes) ? doc.attributes : {};
  const kind = doc.node_type === "array" ? "array" : "group";
  const node: GeoNode = { path, name: path.slice(path.lastIndexOf("/") + 1), kind, zarrFormat: 3, attributes };
  if (kind === "array") {
    if (Array.isArray(doc.shape)) node.shape = doc.shape as number[];
    if (Array.isArray(doc.dimension_names)) {
      node.dimensionNames = doc.dimension_names as (string | null)[];
      node.dimensionNamesFrom = "dimension_names";
    }
  }
  checkNodeAttributes(node, ctx);
  const ms = kind === "group" ? readMultiscales(attributes).value : undefined;
  if (ms !== undefined) checkLayoutSelf(node, ms, ctx);
  if (kind === "array" && node.dimensionNames !== undefined) {
    const dims = readSpatial(attributes).value.dimensions;
    for (const [i, d] of (dims ?? []).entries()) {
      if (!node.dimensionNames.includes(d)) {
        ctx.out.push(
          locate(path, [
            issue(
              "spatial.dimensions-not-in-array",
              pointer("attributes", "spatial:dimensions", i),
              `spatial dimension "${d}" is not one of the array's dimension_names [${node.dimensionNames.join(", ")}]; rename it to the array's Y/X dimension`,
            ),
          ])[0],
        );
      }
    }
  }
  const dsets = kind === "group" && isDatasetGroup(attributes) ? [path] : [];
  return report(ctx.out, options, dsets, ms !== undefined ? [path] : []);
}

function declaredOf(attributes: JsonObject): ReadonlySet<ConventionName> {
  return detectConventions(attributes).declared;
}

function isDatasetGroup(attributes: JsonObject): boolean {
  const d = declaredOf(attributes);
  return d.has("proj") || d.has("spatial");
}

/**
 * The nodes whose convention values a node inherits, nearest first: an array's parent
 * group (groups give defaults to their direct child arrays), and the multiscales group of
 * a level (the node itself, or an array's parent, being a layout asset).
 */
function inheritedFrom(h: GeoHierarchy | undefined, node: GeoNode): GeoNode[] {
  if (h === undefined) return [];
  const out: GeoNode[] = [];
  const parent = node.kind === "array" ? h.parent(node.path) : undefined;
  if (parent !== undefined) out.push(parent);
  const level = levelOf(h, node.path) ?? (parent === undefined ? undefined : levelOf(h, parent.path));
  if (level !== undefined && !out.includes(level.multiscales)) out.push(level.multiscales);
  return out;
}

/**
 * The rules the node's proj keys follow: those of the version its own declaration names,
 * else of the declaration it inherits (parent group, multiscales group), else v1 (the
 * mini-spec's rules apply when no version is declared).
 */
function projRulesOf(node: GeoNode, inherited: readonly GeoNode[]): { rules: ConventionsVersion; version: string } {
  for (const n of [node, ...inherited]) {
    const d = detectConventions(n.attributes).entries.find((e) => e.convention === "proj");
    if (d !== undefined) return { rules: d.rules, version: d.version };
  }
  return { rules: "v1", version: "undeclared" };
}

/** The v1 entry of a convention, as the messages suggest it. */
function entryText(c: ConventionName): string {
  return JSON.stringify(CONVENTION_ENTRIES[c]);
}

/**
 * Checks of one node's own attributes: declarations, proj (by the declared version's
 * rules), spatial, multiscales syntax. With the hierarchy, values inherited from the
 * parent group and the multiscales group count towards what a node must carry.
 */
function checkNodeAttributes(node: GeoNode, ctx: Ctx, h?: GeoHierarchy): void {
  const a = node.attributes;
  const det = detectConventions(a);
  const found: Issue[] = [...det.issues];
  const declared = det.declared;
  const inherited = inheritedFrom(h, node);
  const usesProj = PROJ_KEYS.some((k) => a[k] !== undefined);
  const usesSpatial = SPATIAL_KEYS.some((k) => a[k] !== undefined);
  const { rules } = projRulesOf(node, inherited);
  const proj = readProj(a, undefined, rules);
  if (declared.has("proj") || usesProj) found.push(...proj.issues);
  const inheritsCrs = inherited.some((n) => readProj(n.attributes).value !== undefined);
  // geo-proj 0.1.0 keeps the CRS in `geo.proj` (or the entry's configuration): its rules
  // are at least one of code/wkt2/projjson, the code LETTERS:DIGITS.
  const old = geoProj010(a);
  if (old?.code !== undefined && a["proj:code"] === undefined && !PROJ_CODE_PATTERNS.v1.test(old.code)) {
    found.push(
      issue(
        "proj.code-format",
        isJsonObject(a.geo) && isJsonObject(a.geo.proj) ? pointer("attributes", "geo", "proj", "code") : DECL_POINTER,
        `the geo-proj 0.1.0 code must match ${PROJ_CODE_PATTERNS.v1.source}, not ${JSON.stringify(old.code)}`,
      ),
    );
  }
  const oldCrs = old !== undefined && (old.code !== undefined || old.wkt2 !== undefined || old.projjson !== undefined);
  if (declared.has("proj") && proj.value === undefined && proj.issues.length === 0 && !inheritsCrs && !oldCrs) {
    found.push(
      issue(
        "proj.missing-crs",
        DECL_POINTER,
        `the proj convention is declared but none of proj:code, proj:wkt2, proj:projjson is set (here or inherited); add e.g. "proj:code": "EPSG:32633" or remove the declaration`,
      ),
    );
  }
  const legacyPresent = LEGACY_PROJ_KEYS.some((k) => a[k] !== undefined);
  // STAC's projection extension also names proj:wkt2/proj:projjson/proj:code: next to
  // its other keys they are STAC, reported below, not an undeclared convention.
  if (usesProj && !declared.has("proj") && !legacyPresent) {
    found.push(
      issue(
        "conventions.undeclared",
        pointer("attributes", PROJ_KEYS.find((k) => a[k] !== undefined) as string),
        `proj: keys are used but the proj convention is not declared on this node; add ${entryText("proj")} to zarr_conventions`,
      ),
    );
  }
  if (legacyPresent) {
    if (declared.has("proj")) found.push(...legacyProjIssues(a));
    else {
      const keys = [...LEGACY_PROJ_KEYS, ...PROJ_KEYS].filter((k) => a[k] !== undefined);
      found.push(
        issue(
          "legacy.stac-proj",
          pointer("attributes", keys[0]),
          `STAC-style ${keys.join(", ")} on this node; express them with the conventions (proj:code, spatial:transform, spatial:shape, spatial:bbox), e.g. with migrate()`,
        ),
      );
    }
  }
  if (isJsonObject(a.geo) && isJsonObject(a.geo.proj)) {
    found.push(
      issue(
        "conventions.superseded-form",
        pointer("attributes", "geo", "proj"),
        "georeferencing in a `geo.proj` dictionary (geo-proj 0.1.0); the conventions now put proj:* and spatial:* at the root of the attributes: `zarr geozarr migrate` (or migrate()) moves them",
      ),
    );
  }
  const spatial = readSpatial(a);
  if (declared.has("spatial") || usesSpatial) found.push(...spatial.issues);
  if (usesSpatial && !declared.has("spatial")) {
    found.push(
      issue(
        "conventions.undeclared",
        pointer("attributes", SPATIAL_KEYS.find((k) => a[k] !== undefined) as string),
        `spatial: keys are used but the spatial convention is not declared on this node; add ${entryText("spatial")} to zarr_conventions`,
      ),
    );
  }
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
  if (a.multiscales !== undefined) {
    if (node.kind === "array") {
      found.push(issue("multiscales.on-array", pointer("attributes", "multiscales"), "multiscales is defined on groups only; move it to the group holding the levels"));
    } else {
      found.push(...readMultiscales(a).issues);
      if (!declared.has("multiscales") && isJsonObject(a.multiscales) && Array.isArray(a.multiscales.layout)) {
        found.push(
          issue("conventions.undeclared", pointer("attributes", "multiscales"), `multiscales is used but the multiscales convention is not declared; add ${entryText("multiscales")} to zarr_conventions`),
        );
      }
    }
  }
  // Georeferencing values that cannot be right even on their own.
  const s = spatial.value;
  if (s.transform !== undefined && s.shape !== undefined && s.bbox !== undefined && bboxNonDegenerate(s.bbox)) {
    const extent = gridExtent(s.transform, s.shape, s.registration ?? "pixel");
    const diff = bboxDifference(s.bbox, extent, s.transform);
    if (diff !== undefined) {
      found.push(
        issue(
          "spatial.bbox-mismatch",
          pointer("attributes", "spatial:bbox"),
          `spatial:bbox [${s.bbox.join(", ")}] differs from the extent of spatial:transform × spatial:shape [${extent.map(round).join(", ")}] (${diff}); the mini-spec does not require them to agree, but readers may use either`,
        ),
      );
    }
  }
  ctx.out.push(...locate(node.path, found));
}

function round(v: number): number {
  return Math.round(v * 1e6) / 1e6;
}

function bboxNonDegenerate(b: BBox): boolean {
  return b[1] < b[3] && b[0] !== b[2];
}

/** Undefined when the boxes agree within half a pixel; else a description of the difference. */
function bboxDifference(bbox: BBox, extent: BBox, t: Affine): string | undefined {
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

/** Layout checks that need only the multiscales group's own document. */
function checkLayoutSelf(node: GeoNode, ms: MultiscalesAttributes, ctx: Ctx): void {
  const found: Issue[] = [];
  const declared = declaredOf(node.attributes);
  const a = node.attributes;
  const geo =
    declared.has("proj") ||
    declared.has("spatial") ||
    hasKeysWithPrefix(a, "proj:") ||
    hasKeysWithPrefix(a, "spatial:") ||
    ms.layout.some((e) => e.spatialTransform !== undefined || e.spatialShape !== undefined || e.raw["proj:transform"] !== undefined);
  if (geo) {
    const missing = (["multiscales", "proj", "spatial"] as const).filter((c) => !declared.has(c));
    if (missing.length > 0) {
      found.push(
        issue(
          "multiscales.conventions-missing",
          DECL_POINTER,
          `a geospatial Multiscale Dataset declares multiscales, proj and spatial; ${missing.join(" and ")} ${missing.length > 1 ? "are" : "is"} not declared: add ${missing.map(entryText).join(", ")} (and the keys they define)`,
        ),
      );
    }
  } else {
    found.push(
      issue(
        "multiscales.not-geospatial",
        DECL_POINTER,
        "this multiscales group has no proj:/spatial: metadata: it is a valid multiscales layout but not a GeoZarr Multiscale Dataset (levels carry no georeferencing)",
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
    for (const k of ["proj:shape", "proj:transform", "proj:bbox", "proj:epsg"]) {
      if (e.raw[k] !== undefined) {
        const replacement = k === "proj:epsg" ? "proj:code on the group" : `spatial:${k.slice(5)}`;
        found.push(issue("proj.legacy-keys", at(e.index, k), `layout entry "${e.asset}" uses the pre-v0.1 key ${k}; write ${replacement} instead`));
      }
    }
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
    found.push(...chainIssues(e.asset, e.index, src.asset, scaleOf(e), e.spatialTransform, src.spatialTransform, e.spatialShape, src.spatialShape, ctx.tolerance, "layout"));
  }
  // The group's bbox against the base level's extent.
  const s = readSpatial(node.attributes).value;
  const base = ms.layout.find((e) => e.derivedFrom === undefined);
  if (s.bbox !== undefined && bboxNonDegenerate(s.bbox) && base?.spatialTransform !== undefined && base.spatialShape !== undefined) {
    const extent = gridExtent(base.spatialTransform, base.spatialShape, s.registration ?? "pixel");
    const diff = bboxDifference(s.bbox, extent, base.spatialTransform);
    if (diff !== undefined) {
      found.push(
        issue(
          "spatial.bbox-mismatch",
          pointer("attributes", "spatial:bbox"),
          `spatial:bbox [${s.bbox.join(", ")}] differs from the extent of the base level "${base.asset}" [${extent.map(round).join(", ")}] (${diff}); the mini-spec does not require them to agree, but readers may use either`,
        ),
      );
    }
  }
  ctx.out.push(...locate(node.path, found));
}

function scaleOf(e: { transform?: { scale?: number[]; translation?: number[] } }): { scale: [number, number]; translation: [number, number] } {
  const s = e.transform?.scale ?? [];
  const t = e.transform?.translation ?? [];
  const two = (a: number[], d: number): [number, number] => (a.length >= 2 ? [a[a.length - 2], a[a.length - 1]] : a.length === 1 ? [a[0], a[0]] : [d, d]);
  return { scale: two(s, 1), translation: two(t, 0) };
}

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
 * Validates a whole hierarchy: every node's attributes, then the Dataset rules
 * (DataArrays, coordinate variables, georeferencing), the Multiscale Dataset rules
 * (assets exist, derived_from acyclic, transforms, scale chains against transforms and
 * array shapes, variables per level, undeclared members) and legacy attributes.
 *
 * @example
 * ```ts
 * const report = validateHierarchy(await loadHierarchy(store));
 * for (const f of report.findings) console.log(f.severity, f.rule, f.path, f.pointer, f.message);
 * ```
 */
export function validateHierarchy(h: GeoHierarchy, options: ValidateOptions = {}): ValidationReport {
  const ctx: Ctx = { tolerance: options.tolerance ?? 0.01, out: [] };
  const datasets: string[] = [];
  const multiscales: string[] = [];
  if (!h.complete) {
    ctx.out.push({
      path: "",
      ...issue(
        "hierarchy.unlisted",
        "",
        "the store cannot list keys and has no consolidated metadata: only the root and the multiscales assets were checked; consolidate the metadata (consolidateMetadata) to validate everything",
      ),
    });
  }
  const checkedGroups = new Set<string>();
  // Level path → whether its Multiscale Dataset is geospatial (declares proj or spatial).
  const levelGroups = new Map<string, boolean>();
  for (const node of h.all()) {
    checkNodeAttributes(node, ctx, h);
    const ms = multiscalesOf(node);
    if (ms !== undefined) {
      multiscales.push(node.path);
      checkLayoutSelf(node, ms, ctx);
      checkMultiscalesMembers(h, node, ms, ctx);
      const d = declaredOf(node.attributes);
      for (const e of ms.layout) levelGroups.set(joinRelative(node.path, e.asset), d.has("proj") || d.has("spatial"));
    }
  }
  for (const node of h.all()) {
    if (node.kind !== "group") continue;
    const declared = declaredOf(node.attributes);
    const isDataset = declared.has("proj") || declared.has("spatial");
    if (isDataset) datasets.push(node.path);
    if (isDataset && multiscalesOf(node) === undefined && !(declared.has("proj") && declared.has("spatial"))) {
      const missing = declared.has("proj") ? "spatial" : "proj";
      ctx.out.push(
        ...locate(node.path, [
          issue(
            "dataset.incomplete-conventions",
            DECL_POINTER,
            `this group declares ${missing === "proj" ? "spatial" : "proj"} but not ${missing}: a GeoZarr Dataset carries both; declare ${missing} with its keys`,
          ),
        ]),
      );
    }
    if (isDataset || levelGroups.has(node.path)) {
      checkDataset(h, node, ctx, isDataset || levelGroups.get(node.path) === true);
      checkedGroups.add(node.path);
    }
  }
  for (const node of h.all()) {
    if (node.kind !== "array") continue;
    // The DataArray rules also hold for an array validated on its own (the root) and for
    // every array that declares proj or spatial, inside a Dataset or not.
    const parent = h.parent(node.path);
    const inDataset = parent !== undefined && checkedGroups.has(parent.path);
    if (!inDataset && (node.path === "" || declaredOf(node.attributes).has("proj") || declaredOf(node.attributes).has("spatial"))) {
      const found: Issue[] = [];
      dataArrayIssues(node, new Set(), found);
      ctx.out.push(...locate(node.path, found));
    }
    checkArray(h, node, ctx);
  }
  return report(ctx.out, options, datasets, multiscales);
}

/**
 * DataArray rules for one array: at least one dimension (a 0-d CF auxiliary is a
 * warning), every dimension named with a string, the names unique. Returns the names
 * when they are usable.
 */
function dataArrayIssues(arr: GeoNode, auxiliary: ReadonlySet<string>, found: Issue[]): readonly string[] | undefined {
  const shape = arr.shape ?? [];
  if (shape.length === 0) {
    const isAux = auxiliary.has(arr.name) || arr.attributes.grid_mapping_name !== undefined || arr.attributes.crs_wkt !== undefined;
    found.push(
      isAux
        ? issue(
            "dataarray.scalar-auxiliary",
            pointer("shape"),
            `"${arr.name}" is a 0-d CF ${arr.attributes.grid_mapping_name !== undefined || arr.attributes.crs_wkt !== undefined ? "grid-mapping" : "scalar coordinate"} variable; GeoZarr DataArrays have at least one dimension: move the CRS to proj:code on the group (or give it a dimension)`,
          )
        : issue("dataarray.scalar", pointer("shape"), `"${arr.name}" is a 0-d array; a GeoZarr DataArray has at least one dimension: give it a shape of [1] and a dimension name`),
    );
    return undefined;
  }
  const names = arr.dimensionNames;
  if (names === undefined || names.some((n) => n === null || n === "")) {
    found.push(
      issue(
        "dataarray.dimension-names-missing",
        pointer("dimension_names"),
        `"${arr.name}" must name each of its ${shape.length} dimensions (dimension_names${arr.zarrFormat === 2 ? " or _ARRAY_DIMENSIONS" : ""}); add e.g. ${JSON.stringify(shape.length === 2 ? ["Y", "X"] : shape.map((_, i) => `dim_${i}`))}`,
      ),
    );
    return undefined;
  }
  const dup = names.filter((n, i) => names.indexOf(n) !== i);
  if (dup.length > 0) {
    found.push(issue("dataarray.dimension-names-duplicate", pointer("dimension_names"), `dimension name "${dup[0]}" appears twice in "${arr.name}"; every axis needs its own name`));
    return undefined;
  }
  return names as readonly string[];
}

/**
 * The dimensions of an array that an applicable `spatial:transform` georeferences: its
 * spatial dimensions, when a transform declared on the array, its group, the multiscales
 * layout entry of its level or the multiscales group (base level) applies. These need no
 * 1-D coordinate array (the mini-spec's own first Dataset example has none).
 */
function georeferencedDimensions(geo: EffectiveGeoreference): ReadonlySet<string> {
  const origin = geo.provenance.transform?.origin;
  const declared = origin === "attributes" || origin === "parent" || origin === "layout" || origin === "multiscales";
  if (!declared || geo.transform === undefined || geo.dimensions === undefined || geo.roles === undefined || geo.roles.assumed) return new Set();
  if (geo.provenance.transform?.undeclared) return new Set();
  return new Set(geo.dimensions);
}

/** DataArray and Dataset rules for the members of a Dataset group. */
function checkDataset(h: GeoHierarchy, group: GeoNode, ctx: Ctx, geospatial: boolean): void {
  const arrays = h.children(group.path).filter((c) => c.kind === "array");
  const byName = new Map(arrays.map((a) => [a.name, a]));
  // Which 0-d arrays are CF auxiliaries (grid mappings, scalar coordinates).
  const auxiliary = new Set<string>();
  for (const n of [group, ...arrays]) {
    const gm = gridMappingName(n.attributes);
    if (gm !== undefined) auxiliary.add(gm);
    const coords = n.attributes.coordinates;
    if (typeof coords === "string") for (const c of coords.split(/\s+/)) if (c !== "") auxiliary.add(c);
  }
  const spatialVars: Array<{ node: GeoNode; geo: EffectiveGeoreference }> = [];
  for (const arr of arrays) {
    const found: Issue[] = [];
    const shape = arr.shape ?? [];
    const names = dataArrayIssues(arr, auxiliary, found);
    const geo = names !== undefined && shape.length >= 2 ? effectiveGeoreference(h, arr.path) : undefined;
    if (names !== undefined) {
      const georeferenced = geo === undefined ? new Set<string>() : georeferencedDimensions(geo);
      names.forEach((n, axis) => {
        const coord = byName.get(n);
        if (coord === undefined) {
          if (georeferenced.has(n)) return;
          found.push(
            issue(
              "dataset.coordinate-missing",
              pointer("dimension_names", axis),
              `the Dataset "${group.path || "/"}" has no coordinate array "${n}" for dimension ${axis} of "${arr.name}"; add a 1-D array "${n}" of length ${shape[axis]} with dimension_names ["${n}"]${geo?.dimensions?.includes(n) ? ", or a spatial:transform that georeferences it" : ""}`,
            ),
          );
        } else if (coord.shape === undefined || coord.shape.length !== 1 || coord.shape[0] !== shape[axis]) {
          found.push(
            issue(
              "dataset.coordinate-mismatch",
              pointer("dimension_names", axis),
              `coordinate array "${n}" has shape [${(coord.shape ?? []).join(", ")}] but dimension ${axis} of "${arr.name}" has length ${shape[axis]}; it must be 1-D of that length`,
            ),
          );
        }
      });
    }
    ctx.out.push(...locate(arr.path, found));
    if (geo !== undefined) {
      if (geo.dimensions !== undefined && geo.roles !== undefined && !geo.roles.assumed) spatialVars.push({ node: arr, geo });
      else if (geo.dimensions === undefined && geo.provenance.dimensions === undefined && isDatasetGroup(group.attributes)) {
        ctx.out.push(
          ...locate(arr.path, [
            issue(
              "spatial.dimensions-missing",
              pointer("attributes"),
              `"${arr.name}" has ${shape.length} dimensions but no spatial:dimensions applies (own or from "${group.path || "/"}"); set "spatial:dimensions": [Y, X] on the group or the array`,
            ),
          ]),
        );
      }
    }
  }
  // Georeferencing of the spatial data variables (only where the Dataset is geospatial).
  if (!geospatial) return;
  let legacyOnly = 0;
  let noTransform = 0;
  let legacyTransform = 0;
  for (const { node, geo } of spatialVars) {
    if (geo.crs === undefined) {
      ctx.out.push(
        ...locate(node.path, [
          issue(
            "dataset.georeferencing-missing",
            pointer("attributes"),
            `no CRS applies to "${node.name}" (none on the array, its group, or legacy attributes); add "proj:code" to the group "${group.path || "/"}" and declare the proj convention`,
          ),
        ]),
      );
    } else if (geo.crs.source !== "proj") legacyOnly++;
    if (geo.transform === undefined) noTransform++;
    else if (geo.provenance.transform?.origin === "legacy") legacyTransform++;
  }
  if (legacyOnly > 0) {
    ctx.out.push(
      ...locate(group.path, [
        issue(
          "legacy.only",
          pointer("attributes"),
          `${legacyOnly} spatial variable(s) of this group get their CRS only from legacy or undeclared attributes (GDAL _CRS, CF grid_mapping, STAC proj:epsg); add proj:code to the group and declare proj (migrate() does it)`,
        ),
      ]),
    );
  }
  if (noTransform + legacyTransform > 0) {
    const how = legacyTransform > 0 ? `${legacyTransform} use a legacy transform (STAC proj:transform / CF GeoTransform)` : "";
    const none = noTransform > 0 ? `${noTransform} have none` : "";
    ctx.out.push(
      ...locate(group.path, [
        issue(
          "spatial.transform-missing",
          pointer("attributes"),
          `no spatial:transform applies to the spatial variables of this group (${[how, none].filter((s) => s !== "").join("; ")}); add "spatial:transform" to the group or its multiscales layout entry`,
        ),
      ]),
    );
  }
}

/** Checks of one array's effective georeferencing and legacy attributes. */
function checkArray(h: GeoHierarchy, arr: GeoNode, ctx: Ctx): void {
  const found: Issue[] = [];
  const a = arr.attributes;
  const geo = effectiveGeoreference(h, arr.path);
  const own = readSpatial(a).value;
  if (own.dimensions !== undefined && arr.dimensionNames !== undefined) {
    own.dimensions.forEach((d, i) => {
      if (!arr.dimensionNames?.includes(d)) {
        found.push(
          issue(
            "spatial.dimensions-not-in-array",
            pointer("attributes", "spatial:dimensions", i),
            `spatial dimension "${d}" is not one of the array's dimension names [${arr.dimensionNames?.join(", ")}]; name the array's Y/X axes`,
          ),
        );
      }
    });
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
      const from = geo.provenance.shape?.from;
      found.push(
        issue(
          "spatial.shape-mismatch",
          pointer("shape"),
          `the array's spatial shape is [${ah}, ${aw}] but spatial:shape${declaredShapeSource(h, arr)} says [${dh}, ${dw}]; make spatial:shape match the array${from !== undefined ? "" : ""}`,
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
  // Legacy attributes that disagree with the array or with the conventions.
  const stacShape = shapeFromStac(a);
  if (stacShape !== undefined && geo.shape !== undefined && geo.roles !== undefined && !geo.roles.assumed && (stacShape[0] !== geo.shape[0] || stacShape[1] !== geo.shape[1])) {
    found.push(
      issue(
        "legacy.stale",
        pointer("attributes", "proj:shape"),
        `proj:shape [${stacShape.join(", ")}]${transformFromStac(a) !== undefined ? " and proj:transform" : ""} describe another grid than the array [${geo.shape.join(", ")}] (copied from another level?); they are ignored: remove them or fix them`,
      ),
    );
  }
  if (geo.crs !== undefined && geo.crs.source === "proj") {
    const conv = crsCode(geo.crs);
    for (const [label, crs, p] of [
      ["proj:epsg", crsFromStacEpsg(a), pointer("attributes", "proj:epsg")],
      ["_CRS", crsFromGdalAttribute(a), pointer("attributes", "_CRS")],
    ] as const) {
      const c = crs === undefined ? undefined : crsCode(crs);
      if (c !== undefined && conv !== undefined && c !== conv) {
        found.push(issue("legacy.stale", p, `${label} says ${c} but the conventions give ${crsLabel(geo.crs)} (from "${geo.crs.from || "/"}"); remove or correct ${label}`));
      }
    }
  }
  const gmName = gridMappingName(a);
  if (gmName !== undefined && gridMappingVariable(h, arr) === undefined) {
    found.push(issue("legacy.grid-mapping-missing", pointer("attributes", "grid_mapping"), `grid_mapping names "${gmName}", but there is no such variable next to "${arr.name}" or in a parent group; add it or remove grid_mapping`));
  }
  ctx.out.push(...locate(arr.path, found));
}

function declaredShapeSource(h: GeoHierarchy, arr: GeoNode): string {
  if (readSpatial(arr.attributes).value.shape !== undefined) return " (on the array)";
  const parent = h.parent(arr.path);
  if (parent !== undefined && readSpatial(parent.attributes).value.shape !== undefined) return ` (on "${parent.path || "/"}")`;
  const lvl = levelOf(h, arr.path) ?? (parent === undefined ? undefined : levelOf(h, parent.path));
  if (lvl !== undefined) return ` (layout entry "${lvl.entry.asset}" of "${lvl.multiscales.path || "/"}")`;
  return "";
}

/** Multiscale Dataset rules that need the members. */
function checkMultiscalesMembers(h: GeoHierarchy, group: GeoNode, ms: MultiscalesAttributes, ctx: Ctx): void {
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
  for (const child of h.children(group.path)) {
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
          scaleOf(e),
          transforms ? level.transform : undefined,
          transforms ? src.transform : undefined,
          shapes ? level.shape : undefined,
          shapes ? src.shape : undefined,
          ctx.tolerance,
          "arrays",
        ),
      );
    }
    // Variables per level (the mini-spec wants the same set; real data differs: a warning).
    const sets = desc.levels.filter((l) => l.kind === "group").map((l) => ({ asset: l.asset, vars: l.variables.slice().sort() }));
    const distinct = new Set(sets.map((s) => s.vars.join(",")));
    if (distinct.size > 1) {
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

/** Options of {@link validate}. */
export interface ValidateSourceOptions extends ValidateOptions, LoadHierarchyOptions {}

/**
 * Loads and validates the hierarchy of a store (or below an opened group).
 *
 * @example
 * ```ts
 * const report = await validate(new FileSystemStore("scene.zarr"));
 * if (!report.valid) console.log(report.findings.filter((f) => f.severity === "error"));
 * ```
 */
export async function validate(source: Store | ZarrGroup | ZarrArray | GeoHierarchy, options: ValidateSourceOptions = {}): Promise<ValidationReport> {
  const h = isHierarchy(source) ? source : await loadHierarchy(source, options);
  return validateHierarchy(h, options);
}

function isHierarchy(v: unknown): v is GeoHierarchy {
  return typeof v === "object" && v !== null && typeof (v as GeoHierarchy).all === "function" && typeof (v as GeoHierarchy).children === "function";
}

/** The catalogue of rules as `{id, severity, summary, section}` (for documentation and `--rules`); `section` is the mini-spec's. */
export function listRules(): Array<{ id: RuleId; severity: Severity; summary: string; section: string }> {
  return (Object.keys(RULES) as RuleId[]).map((id) => ({ id, severity: RULES[id][0], summary: RULES[id][1], section: RULES[id][2] }));
}

