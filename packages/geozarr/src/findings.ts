/**
 * Validation findings and the catalogue of rules that produce them. Every rule has a
 * stable id (match on it, never on the message), a default severity and a one-line
 * summary; the message of each finding says what is wrong there and how to fix it.
 */

/** How bad a finding is: `error` breaks the conventions, `warning` is a real-world quirk or a likely mistake, `info` is worth knowing. */
export type Severity = "error" | "warning" | "info";

/** A problem found in one node's attributes, before the node's path is known. */
export interface Issue {
  rule: RuleId;
  severity: Severity;
  /** JSON pointer (RFC 6901) into the node's metadata document, e.g. `/attributes/spatial:transform`. */
  pointer: string;
  message: string;
  /** The section of the GeoZarr mini-spec the rule comes from, e.g. `Appendix › proj: Properties`. */
  section: string;
}

/** A validation finding: an {@link Issue} located at a node of the hierarchy. */
export interface Finding extends Issue {
  /** Path of the node in the hierarchy (`""` for the root). */
  path: string;
}

/** Every rule the validator applies: its default severity, what it checks, and the section of the mini-spec that states it. */
export const RULES = {
  "conventions.not-array": ["error", "`zarr_conventions` must be an array of convention entries", "Zarr Conventions Framework"],
  "conventions.entry-invalid": ["error", "a convention entry must be an object with at least one of uuid, schema_url, spec_url", "Zarr Conventions Framework"],
  "conventions.entry-extra-key": ["warning", "a convention entry holds only uuid, schema_url, spec_url, name, description", "Zarr Conventions Framework"],
  "conventions.uuid-format": ["error", "a convention uuid is lowercase hex 8-4-4-4-12", "Zarr Conventions Framework"],
  "conventions.identity-mismatch": ["warning", "the uuid, name and URLs of an entry name different conventions", "Zarr Conventions Framework"],
  "conventions.superseded-form": ["warning", "zarr_conventions in the geo-proj 0.1.0 object form, or a `geo` dictionary: migrate rewrites them", "Zarr Conventions Framework"],
  "conventions.unknown": ["info", "an entry declares a convention this package does not know", "Zarr Conventions Framework"],
  "conventions.duplicate": ["warning", "the same convention is declared more than once", "Zarr Conventions Framework"],
  "conventions.undeclared": ["warning", "convention keys are used without declaring the convention in zarr_conventions", "Zarr Conventions Framework"],
  "proj.missing-crs": ["error", "the proj convention needs proj:code, proj:wkt2 or proj:projjson", "Appendix › proj: Properties"],
  "proj.multiple-crs": ["error", "v1 proj (and undeclared versions) take exactly one of proj:code, proj:wkt2, proj:projjson", "Appendix › proj: Properties"],
  "proj.code-format": ["error", "proj:code is AUTHORITY:CODE", "Appendix › proj: Properties"],
  "proj.wkt2-invalid": ["error", "proj:wkt2 is a WKT2 string", "Appendix › proj: Properties"],
  "proj.wkt1": ["warning", "proj:wkt2 holds WKT1 instead of WKT2", "Appendix › proj: Properties"],
  "proj.projjson-invalid": ["error", "proj:projjson is a PROJJSON object describing a CRS", "Appendix › proj: Properties"],
  "proj.inconsistent": ["warning", "proj:code, proj:wkt2 and proj:projjson name different CRSs", "Appendix › proj: Properties"],
  "proj.legacy-keys": ["warning", "pre-v0.1 or STAC keys (proj:epsg, proj:transform, proj:shape, proj:bbox, ...)", "Appendix › proj: Properties"],
  "spatial.dimensions-missing": ["error", "a georeferenced array needs spatial:dimensions (own or inherited)", "Appendix › spatial: Properties"],
  "spatial.dimensions-invalid": ["error", "spatial:dimensions is exactly two dimension names [Y, X]", "Appendix › spatial: Properties"],
  "spatial.dimensions-not-in-array": ["error", "each spatial dimension is one of the array's dimension_names", "Appendix › spatial: Properties"],
  "spatial.transform-invalid": ["error", "spatial:transform is six finite numbers [a, b, c, d, e, f]", "Appendix › spatial: Properties"],
  "spatial.transform-degenerate": ["error", "spatial:transform must be invertible", "Appendix › spatial: Properties"],
  "spatial.transform-type-unknown": ["warning", "spatial:transform_type other than affine cannot be interpreted", "Appendix › spatial: Properties"],
  "spatial.transform-missing": ["warning", "no spatial:transform for a georeferenced array (a legacy source may stand in)", "Appendix › spatial: Properties"],
  "spatial.bbox-invalid": ["error", "spatial:bbox is four numbers [xmin, ymin, xmax, ymax]", "Appendix › spatial: Properties"],
  "spatial.bbox-degenerate": ["warning", "spatial:bbox has zero width or height", "Appendix › spatial: Properties"],
  "spatial.bbox-mismatch": ["info", "spatial:bbox disagrees with the extent of spatial:transform and the shape", "Appendix › spatial: Properties"],
  "spatial.shape-invalid": ["error", "spatial:shape is two positive integers [height, width]", "Appendix › spatial: Properties"],
  "spatial.shape-mismatch": ["error", "spatial:shape disagrees with the array's shape along its spatial dimensions", "Appendix › spatial: Properties"],
  "spatial.registration-invalid": ["error", 'spatial:registration is "pixel" or "node"', "Appendix › spatial: Properties"],
  "dataarray.scalar": ["error", "a DataArray has at least one dimension", "DataArray › Array metadata"],
  "dataarray.scalar-auxiliary": ["warning", "a 0-d CF grid-mapping or scalar coordinate variable inside a Dataset", "DataArray › Array metadata"],
  "dataarray.dimension-names-missing": ["error", "a DataArray names every dimension with a string", "DataArray › Array metadata"],
  "dataarray.dimension-names-duplicate": ["error", "a DataArray's dimension names are unique", "DataArray › Array metadata"],
  "dataset.coordinate-missing": ["error", "each dimension of a data variable has a 1-D coordinate array of that name", "Dataset › Members"],
  "dataset.coordinate-mismatch": ["error", "a coordinate array is 1-D and as long as the dimension it indexes", "Dataset › Members"],
  "dataset.georeferencing-missing": ["error", "a Dataset's spatial data variables resolve a CRS and spatial:dimensions", "Dataset › Geospatial Metadata"],
  "dataset.incomplete-conventions": ["info", "a group declares one of proj: and spatial: but not both: it is not a GeoZarr Dataset (the Dataset rules do not apply)", "Dataset › Attributes"],
  "dataset.array-not-member": ["info", "an array declares proj: or spatial: outside a GeoZarr Dataset: only the conventions' own rules apply", "Dataset › Attributes"],
  "multiscales.invalid": ["error", "multiscales is an object with a non-empty layout array", "Appendix › MultiscalesMetadata"],
  "multiscales.on-array": ["error", "multiscales is defined on groups only", "Multiscale Dataset › Attributes"],
  "multiscales.conventions-missing": ["info", "a multiscales group that declares proj: or spatial: but not all of multiscales, proj: and spatial: is not a GeoZarr Multiscale Dataset", "Multiscale Dataset › Attributes"],
  "multiscales.not-geospatial": ["info", "a multiscales group that declares neither proj: nor spatial: is not a GeoZarr Multiscale Dataset", "Multiscale Dataset › Attributes"],
  "multiscales.asset-invalid": ["error", "asset and derived_from are relative paths (no leading /, no ..)", "Appendix › LayoutObject"],
  "multiscales.asset-duplicate": ["error", "each asset appears once in the layout", "Appendix › LayoutObject"],
  "multiscales.asset-missing": ["error", "each asset names an existing child group or array", "Appendix › LayoutObject"],
  "multiscales.derived-from-unknown": ["error", "derived_from names an asset of the same layout", "Appendix › LayoutObject"],
  "multiscales.derived-from-cycle": ["error", "derived_from links are acyclic", "Appendix › LayoutObject"],
  "multiscales.transform-missing": ["error", "a level with derived_from has a transform", "Appendix › LayoutObject"],
  "multiscales.transform-invalid": ["error", "transform.scale and transform.translation are number arrays (scale > 0)", "Appendix › TransformObject"],
  "multiscales.scale-inconsistent": ["error", "the relative scale disagrees with the levels' spatial:transform or shapes", "Appendix › TransformObject"],
  "multiscales.shape-mismatch": ["error", "a level's spatial:shape disagrees with its arrays", "Appendix › LayoutObject"],
  "multiscales.transform-mismatch": ["error", "a level's spatial:transform disagrees with the level's own metadata", "Appendix › LayoutObject"],
  "multiscales.variables-differ": ["warning", "levels hold different sets of variables", "Multiscale Dataset › Members"],
  "multiscales.undeclared-member": ["warning", "a member of the multiscales group is not a level of its layout", "Multiscale Dataset › Members"],
  "multiscales.resampling-unknown": ["info", "a resampling method outside the common list", "Appendix › ResamplingMethod"],
  "legacy.stac-proj": ["warning", "STAC-style proj:epsg/proj:transform/proj:shape/proj:bbox on a node", "outside the mini-spec (legacy attributes)"],
  "legacy.stale": ["warning", "legacy georeferencing disagrees with the array or with the conventions", "outside the mini-spec (legacy attributes)"],
  "legacy.only": ["warning", "georeferencing comes only from legacy attributes (GDAL _CRS, CF grid_mapping, STAC)", "outside the mini-spec (legacy attributes)"],
  "legacy.grid-mapping-missing": ["warning", "grid_mapping names a variable that does not exist", "outside the mini-spec (legacy attributes)"],
  "hierarchy.unlisted": ["info", "the store cannot list and has no consolidated metadata: only reachable nodes were checked", "Organization"],
} as const satisfies Record<string, readonly [Severity, string, string]>;

/** A rule id, e.g. `"multiscales.derived-from-cycle"`. */
export type RuleId = keyof typeof RULES;

/** Escapes one JSON pointer token (`~` → `~0`, `/` → `~1`). */
export function pointerToken(token: string | number): string {
  return String(token).replace(/~/g, "~0").replace(/\//g, "~1");
}

/** Builds a JSON pointer from tokens: `pointer("attributes", "spatial:bbox", 0)` → `/attributes/spatial:bbox/0`. */
export function pointer(...tokens: Array<string | number>): string {
  return tokens.map((t) => `/${pointerToken(t)}`).join("");
}

/** Creates an issue with the rule's default severity (or `severity` when given). */
export function issue(rule: RuleId, at: string, message: string, severity: Severity = RULES[rule][0]): Issue {
  return { rule, severity, pointer: at, message, section: RULES[rule][2] };
}

/** Attaches a node path to issues. */
export function locate(path: string, issues: readonly Issue[]): Finding[] {
  return issues.map((i) => ({ path, ...i }));
}
