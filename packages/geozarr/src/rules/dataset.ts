/**
 * Rule family **Dataset**: the DataArray rules (mini-spec: DataArray › Array metadata) and
 * the Dataset rules (Dataset › Attributes, Members, Geospatial Metadata) for the members
 * of a group that qualifies as a GeoZarr Dataset, and the infos that say why a group or an
 * array that uses proj:/spatial: is not (or not in) one.
 *
 * Rule ids: `dataarray.scalar`, `dataarray.scalar-auxiliary`,
 * `dataarray.dimension-names-missing`, `dataarray.dimension-names-duplicate`,
 * `dataset.coordinate-missing`, `dataset.coordinate-mismatch`,
 * `dataset.georeferencing-missing`, `dataset.incomplete-conventions`,
 * `dataset.array-not-member`; for a Dataset's
 * spatial variables also `spatial.dimensions-missing`, `spatial.transform-missing` and
 * `legacy.only`.
 */
import type { JsonObject } from "@zarr/spec";
import { type EffectiveGeoreference, effectiveGeoreference } from "../effective.js";
import { type Issue, issue, locate, pointer } from "../findings.js";
import type { GeoHierarchy, GeoNode } from "../hierarchy.js";
import { gridMappingName } from "../legacy.js";
import type { Ctx } from "./context.js";
import { DECL_POINTER, declaredOf } from "./conventions.js";
import { legacyOnlyIssue } from "./legacy.js";

/**
 * True when a group qualifies as a GeoZarr Dataset by its own declarations: it declares
 * both proj: and spatial: (mini-spec, Dataset › Attributes). A level of a Multiscale
 * Dataset qualifies through its multiscales group instead (Multiscale Dataset › Members).
 */
export function isDatasetGroup(attributes: JsonObject): boolean {
  const d = declaredOf(attributes);
  return d.has("proj") && d.has("spatial");
}

/**
 * The info for a group that declares one of proj: and spatial: but not the other: it is
 * no GeoZarr Dataset. A group with a multiscales layout gets the multiscales family's
 * info instead (`hasLayout`).
 */
export function groupQualificationIssues(group: GeoNode, hasLayout: boolean): Issue[] {
  const declared = declaredOf(group.attributes);
  if (hasLayout || declared.has("proj") === declared.has("spatial")) return [];
  const [has, missing] = declared.has("proj") ? ["proj", "spatial"] : ["spatial", "proj"];
  return [
    issue(
      "dataset.incomplete-conventions",
      DECL_POINTER,
      `not a GeoZarr Dataset: this group declares ${has}: but not ${missing}: (a Dataset declares both), so the Dataset rules do not apply to its members; declare ${missing}: with its keys if it is meant to be one`,
    ),
  ];
}

/**
 * The info for an array that declares proj: or spatial: without being a member of a
 * GeoZarr Dataset: says what its group lacks (or that it stands alone).
 */
export function arrayNotMemberIssue(arr: GeoNode, parent: GeoNode | undefined): Issue {
  const declared = declaredOf(arr.attributes);
  const own = (["proj", "spatial"] as const).filter((c) => declared.has(c)).map((c) => `${c}:`);
  let why: string;
  if (parent === undefined) why = "an array on its own is no Dataset (a Dataset is a group declaring proj: and spatial:)";
  else {
    const pd = declaredOf(parent.attributes);
    const lacking = (["proj", "spatial"] as const).filter((c) => !pd.has(c)).map((c) => `${c}:`);
    why = `its group "${parent.path || "/"}" does not declare ${lacking.join(" or ")} (a Dataset declares both)`;
  }
  return issue(
    "dataset.array-not-member",
    DECL_POINTER,
    `not part of a GeoZarr Dataset: this array declares ${own.join(" and ")}, but ${why}; only the conventions' own rules apply to it`,
  );
}

/**
 * DataArray rules for one array: at least one dimension (a 0-d CF auxiliary is a
 * warning), every dimension named with a string, the names unique. Returns the names
 * when they are usable.
 */
export function dataArrayIssues(arr: GeoNode, auxiliary: ReadonlySet<string>, found: Issue[]): readonly string[] | undefined {
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
export function checkDataset(h: GeoHierarchy, group: GeoNode, ctx: Ctx): void {
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
  // Georeferencing of the spatial data variables.
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
    ctx.out.push(...locate(group.path, [legacyOnlyIssue(legacyOnly)]));
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
