/**
 * Rule family **legacy**: georeferencing attributes from outside the mini-spec (STAC
 * projection keys, GDAL `_CRS`, CF `grid_mapping`) that stand in for, or disagree with,
 * the conventions. All are warnings.
 *
 * Rule ids: `legacy.stac-proj`, `legacy.stale`, `legacy.grid-mapping-missing`,
 * `legacy.only` (raised by the Dataset family, which sees where a CRS comes from).
 */

import { LEGACY_PROJ_KEYS, PROJ_KEYS } from "../attributes.js";
import type { ConventionName } from "../conventions.js";
import { crsCode, crsLabel } from "../crs.js";
import { type EffectiveGeoreference, gridMappingVariable } from "../effective.js";
import { type Issue, issue, pointer } from "../findings.js";
import type { GeoHierarchy, GeoNode } from "../hierarchy.js";
import { crsFromGdalAttribute, crsFromStacEpsg, gridMappingName, shapeFromStac, transformFromStac } from "../legacy.js";

/** STAC projection keys on a node that does not declare proj (with it, proj.legacy-keys says so). */
export function legacyNodeIssues(node: GeoNode, declared: ReadonlySet<ConventionName>): Issue[] {
  const a = node.attributes;
  if (declared.has("proj") || !LEGACY_PROJ_KEYS.some((k) => a[k] !== undefined)) return [];
  const keys = [...LEGACY_PROJ_KEYS, ...PROJ_KEYS].filter((k) => a[k] !== undefined);
  return [
    issue(
      "legacy.stac-proj",
      pointer("attributes", keys[0]),
      `STAC-style ${keys.join(", ")} on this node; express them with the conventions (proj:code, spatial:transform, spatial:shape, spatial:bbox), e.g. with migrate()`,
    ),
  ];
}

/** Legacy attributes of one array that disagree with the array or with the conventions. */
export function legacyArrayIssues(h: GeoHierarchy, arr: GeoNode, geo: EffectiveGeoreference): Issue[] {
  const found: Issue[] = [];
  const a = arr.attributes;
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
  return found;
}

/** The Dataset group's finding when some of its spatial variables get their CRS only from legacy attributes. */
export function legacyOnlyIssue(count: number): Issue {
  return issue(
    "legacy.only",
    pointer("attributes"),
    `${count} spatial variable(s) of this group get their CRS only from legacy or undeclared attributes (GDAL _CRS, CF grid_mapping, STAC proj:epsg); add proj:code to the group and declare proj (migrate() does it)`,
  );
}
