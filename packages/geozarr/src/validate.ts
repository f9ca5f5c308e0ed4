/**
 * Whole-hierarchy validation against the GeoZarr mini-spec and the conventions, each node
 * by the rules of the version it declares (v1 and undeclared: the mini-spec's; v0.1: the
 * v0.1 schemas').
 * Rules are written by hand (the published JSON schemas pin names and URLs and give
 * wrong answers on real data); real-world quirks are warnings, not errors.
 *
 * This module runs the rule families over the nodes and builds the report; each family
 * lives in `rules/` with the ids of its rules at its top: conventions (declarations),
 * proj, spatial, Dataset (DataArray and Dataset members), multiscales, and legacy
 * attributes from outside the mini-spec.
 */
import type { ZarrArray, ZarrGroup } from "@zarr/core";
import { isJsonObject, type JsonObject, type Store } from "@zarr/spec";
import { readMultiscales } from "./attributes.js";
import { detectConventions } from "./conventions.js";
import { effectiveGeoreference, multiscalesOf } from "./effective.js";
import { type Finding, type Issue, issue, locate, RULES, type RuleId, type Severity } from "./findings.js";
import { type GeoHierarchy, type GeoNode, joinRelative, type LoadHierarchyOptions, loadHierarchy } from "./hierarchy.js";
import { type Ctx, inheritedFrom } from "./rules/context.js";
import { conventionIssues, declaredOf } from "./rules/conventions.js";
import { arrayNotMemberIssue, checkDataset, dataArrayIssues, groupQualificationIssues, isDatasetGroup } from "./rules/dataset.js";
import { legacyArrayIssues, legacyNodeIssues } from "./rules/legacy.js";
import { checkLayoutSelf, checkMultiscalesMembers, isMultiscaleDataset, multiscalesAttributeIssues } from "./rules/multiscales.js";
import { projIssues } from "./rules/proj.js";
import { ownDimensionIssues, spatialArrayIssues, spatialIssues } from "./rules/spatial.js";

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
  /**
   * Groups checked as GeoZarr Datasets: those that declare both proj: and spatial:, and
   * the levels of the Multiscale Datasets.
   */
  datasets: string[];
  /** Groups that qualify as GeoZarr Multiscale Datasets (declare multiscales, proj: and spatial:). */
  multiscales: string[];
}

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
 * A group document that declares one of proj:/spatial: gets the info that it is no Dataset;
 * an array document gets none (whether its group is a Dataset is not known here).
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
  if (kind === "array") ctx.out.push(...locate(path, ownDimensionIssues(node)));
  if (kind === "group") ctx.out.push(...locate(path, groupQualificationIssues(node, ms !== undefined)));
  const dsets = kind === "group" && isDatasetGroup(attributes) ? [path] : [];
  return report(ctx.out, options, dsets, ms !== undefined && isMultiscaleDataset(attributes) ? [path] : []);
}

/**
 * Checks of one node's own attributes, family by family: declarations, proj (by the
 * declared version's rules), legacy keys, spatial, multiscales syntax. With the hierarchy,
 * values inherited from the parent group and the multiscales group count towards what a
 * node must carry.
 */
function checkNodeAttributes(node: GeoNode, ctx: Ctx, h?: GeoHierarchy): void {
  const detected = detectConventions(node.attributes);
  const declared = detected.declared;
  const inherited = inheritedFrom(h, node);
  const found: Issue[] = [
    ...conventionIssues(node, detected),
    ...projIssues(node, declared, inherited),
    ...legacyNodeIssues(node, declared),
    ...spatialIssues(node, declared, inherited),
    ...multiscalesAttributeIssues(node),
  ];
  ctx.out.push(...locate(node.path, found));
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
  // Groups whose members the Dataset rules apply to: those that qualify as Datasets by
  // their own declarations, and the levels of the Multiscale Datasets.
  const datasetGroups = new Set<string>();
  const levels = new Set<string>();
  for (const node of h.all()) {
    checkNodeAttributes(node, ctx, h);
    const ms = multiscalesOf(node);
    if (ms !== undefined) {
      const qualifying = isMultiscaleDataset(node.attributes);
      if (qualifying) multiscales.push(node.path);
      checkLayoutSelf(node, ms, ctx);
      checkMultiscalesMembers(h, node, ms, ctx, qualifying);
      if (qualifying) for (const e of ms.layout) levels.add(joinRelative(node.path, e.asset));
    }
  }
  for (const node of h.all()) {
    if (node.kind !== "group") continue;
    // A level of a Multiscale Dataset is a Dataset through its multiscales group, whatever it declares.
    if (!levels.has(node.path)) ctx.out.push(...locate(node.path, groupQualificationIssues(node, multiscalesOf(node) !== undefined)));
    if (isDatasetGroup(node.attributes) || levels.has(node.path)) {
      datasets.push(node.path);
      datasetGroups.add(node.path);
      checkDataset(h, node, ctx);
    }
  }
  for (const node of h.all()) {
    if (node.kind !== "array") continue;
    const parent = h.parent(node.path);
    const inDataset = parent !== undefined && datasetGroups.has(parent.path);
    // An array validated on its own (the root) is checked as a DataArray; members of a
    // Dataset were checked with it. Elsewhere only the conventions' own rules apply.
    if (!inDataset && node.path === "") {
      const found: Issue[] = [];
      dataArrayIssues(node, new Set(), found);
      ctx.out.push(...locate(node.path, found));
    }
    const declared = declaredOf(node.attributes);
    if (!inDataset && (declared.has("proj") || declared.has("spatial"))) ctx.out.push(...locate(node.path, [arrayNotMemberIssue(node, parent)]));
    checkArray(h, node, ctx, inDataset || node.path === "");
  }
  return report(ctx.out, options, datasets, multiscales);
}

/** Checks of one array's effective georeferencing and legacy attributes. */
function checkArray(h: GeoHierarchy, arr: GeoNode, ctx: Ctx, namesChecked: boolean): void {
  const geo = effectiveGeoreference(h, arr.path);
  ctx.out.push(...locate(arr.path, [...spatialArrayIssues(h, arr, geo, namesChecked), ...legacyArrayIssues(h, arr, geo)]));
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

