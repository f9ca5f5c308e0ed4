/**
 * Rule family **conventions**: the `zarr_conventions` declarations (mini-spec: Zarr
 * Conventions Framework), and convention keys used without their declaration.
 *
 * Rule ids: `conventions.not-array`, `conventions.entry-invalid`,
 * `conventions.entry-extra-key`, `conventions.uuid-format`, `conventions.identity-mismatch`,
 * `conventions.superseded-form`, `conventions.unknown`, `conventions.duplicate`
 * (the declaration's own rules, from {@link detectConventions}), `conventions.undeclared`.
 */
import { isJsonObject, type JsonObject } from "@zarr/spec";
import { LEGACY_PROJ_KEYS, PROJ_KEYS, SPATIAL_KEYS } from "../attributes.js";
import { CONVENTION_ENTRIES, type ConventionName, type DetectedConventions, detectConventions } from "../conventions.js";
import { type Issue, issue, pointer } from "../findings.js";
import type { GeoNode } from "../hierarchy.js";

/** Where a node's declarations are: findings about a declaration (or its absence) point here. */
export const DECL_POINTER = pointer("attributes", "zarr_conventions");

/** The conventions a node's attributes declare. */
export function declaredOf(attributes: JsonObject): ReadonlySet<ConventionName> {
  return detectConventions(attributes).declared;
}

/** The v1 entry of a convention, as the messages suggest it. */
export function entryText(c: ConventionName): string {
  return JSON.stringify(CONVENTION_ENTRIES[c]);
}

/** True when the attributes hold STAC-style projection keys (`proj:epsg`, `proj:transform`, ...). */
export function hasLegacyProjKeys(attributes: JsonObject): boolean {
  return LEGACY_PROJ_KEYS.some((k) => attributes[k] !== undefined);
}

/**
 * The declaration rules of one node: the issues of its `zarr_conventions` entries, a
 * `geo` dictionary (geo-proj 0.1.0), and proj:/spatial:/multiscales keys used without
 * declaring their convention.
 */
export function conventionIssues(node: GeoNode, detected: DetectedConventions): Issue[] {
  const a = node.attributes;
  const declared = detected.declared;
  const found: Issue[] = [...detected.issues];
  const projKey = PROJ_KEYS.find((k) => a[k] !== undefined);
  // STAC's projection extension also names proj:wkt2/proj:projjson/proj:code: next to
  // its other keys they are STAC (the legacy family reports them), not an undeclared convention.
  if (projKey !== undefined && !declared.has("proj") && !hasLegacyProjKeys(a)) {
    found.push(
      issue(
        "conventions.undeclared",
        pointer("attributes", projKey),
        `proj: keys are used but the proj convention is not declared on this node; add ${entryText("proj")} to zarr_conventions`,
      ),
    );
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
  const spatialKey = SPATIAL_KEYS.find((k) => a[k] !== undefined);
  if (spatialKey !== undefined && !declared.has("spatial")) {
    found.push(
      issue(
        "conventions.undeclared",
        pointer("attributes", spatialKey),
        `spatial: keys are used but the spatial convention is not declared on this node; add ${entryText("spatial")} to zarr_conventions`,
      ),
    );
  }
  // spatial:* keys also extend the layout entries of a multiscales group (spatial:shape,
  // spatial:transform): there too they are the spatial convention's.
  const layoutKey = spatialKey === undefined && node.kind === "group" && !declared.has("spatial") ? layoutSpatialKey(a) : undefined;
  if (layoutKey !== undefined) {
    found.push(
      issue(
        "conventions.undeclared",
        pointer("attributes", "multiscales", "layout", layoutKey.index, layoutKey.key),
        `spatial: keys are used in the multiscales layout but the spatial convention is not declared on this group; add ${entryText("spatial")} to zarr_conventions`,
      ),
    );
  }
  // On an array, multiscales is wrong in itself (multiscales.on-array), declared or not.
  if (node.kind === "group" && !declared.has("multiscales") && isJsonObject(a.multiscales) && Array.isArray(a.multiscales.layout)) {
    found.push(
      issue("conventions.undeclared", pointer("attributes", "multiscales"), `multiscales is used but the multiscales convention is not declared; add ${entryText("multiscales")} to zarr_conventions`),
    );
  }
  return found;
}

/** The first `spatial:*` key of a multiscales layout entry, with the entry's index. */
function layoutSpatialKey(a: JsonObject): { index: number; key: string } | undefined {
  const layout = isJsonObject(a.multiscales) ? a.multiscales.layout : undefined;
  if (!Array.isArray(layout)) return undefined;
  for (const [index, entry] of layout.entries()) {
    const key = isJsonObject(entry) ? Object.keys(entry).find((k) => k.startsWith("spatial:")) : undefined;
    if (key !== undefined) return { index, key };
  }
  return undefined;
}
