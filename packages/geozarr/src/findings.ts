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
}

/** A validation finding: an {@link Issue} located at a node of the hierarchy. */
export interface Finding extends Issue {
  /** Path of the node in the hierarchy (`""` for the root). */
  path: string;
}

/** Every rule the validator applies, with its default severity and what it checks. */
export const RULES = {
  "conventions.not-array": ["error", "`zarr_conventions` must be an array of convention entries"],
  "conventions.entry-invalid": ["error", "a convention entry must be an object with at least one of uuid, schema_url, spec_url"],
  "conventions.entry-extra-key": ["warning", "a convention entry holds only uuid, schema_url, spec_url, name, description"],
  "conventions.uuid-format": ["error", "a convention uuid is lowercase hex 8-4-4-4-12"],
  "conventions.identity-mismatch": ["warning", "the uuid, name and URLs of an entry name different conventions"],
  "conventions.legacy-url": ["info", "an entry points at pre-v0.1 URLs (v0, v1, branch heads, zarr-experimental)"],
  "conventions.unknown": ["info", "an entry declares a convention this package does not know"],
  "conventions.duplicate": ["warning", "the same convention is declared more than once"],
  "conventions.undeclared": ["warning", "convention keys are used without declaring the convention in zarr_conventions"],
  "proj.missing-crs": ["error", "the proj convention needs proj:code, proj:wkt2 or proj:projjson"],
  "proj.code-format": ["error", "proj:code is AUTHORITY:CODE"],
  "proj.wkt2-invalid": ["error", "proj:wkt2 is a WKT2 string"],
  "proj.wkt1": ["warning", "proj:wkt2 holds WKT1 instead of WKT2"],
  "proj.projjson-invalid": ["error", "proj:projjson is a PROJJSON object describing a CRS"],
  "proj.inconsistent": ["warning", "proj:code, proj:wkt2 and proj:projjson name different CRSs"],
  "proj.legacy-keys": ["warning", "pre-v0.1 or STAC keys (proj:epsg, proj:transform, proj:shape, proj:bbox, ...)"],
  "spatial.dimensions-missing": ["error", "a georeferenced array needs spatial:dimensions (own or inherited)"],
  "spatial.dimensions-invalid": ["error", "spatial:dimensions is exactly two dimension names [Y, X]"],
  "spatial.dimensions-not-in-array": ["error", "each spatial dimension is one of the array's dimension_names"],
  "spatial.transform-invalid": ["error", "spatial:transform is six finite numbers [a, b, c, d, e, f]"],
  "spatial.transform-degenerate": ["error", "spatial:transform must be invertible"],
  "spatial.transform-type-unknown": ["warning", "spatial:transform_type other than affine cannot be interpreted"],
  "spatial.transform-missing": ["warning", "no spatial:transform for a georeferenced array (a legacy source may stand in)"],
  "spatial.bbox-invalid": ["error", "spatial:bbox is four numbers [xmin, ymin, xmax, ymax]"],
  "spatial.bbox-degenerate": ["warning", "spatial:bbox has zero width or height"],
  "spatial.bbox-mismatch": ["warning", "spatial:bbox disagrees with the extent of spatial:transform and the shape"],
  "spatial.shape-invalid": ["error", "spatial:shape is two positive integers [height, width]"],
  "spatial.shape-mismatch": ["error", "spatial:shape disagrees with the array's shape along its spatial dimensions"],
  "spatial.registration-invalid": ["error", 'spatial:registration is "pixel" or "node"'],
  "dataarray.scalar": ["error", "a DataArray has at least one dimension"],
  "dataarray.scalar-auxiliary": ["warning", "a 0-d CF grid-mapping or scalar coordinate variable inside a Dataset"],
  "dataarray.dimension-names-missing": ["error", "a DataArray names every dimension with a string"],
  "dataarray.dimension-names-duplicate": ["error", "a DataArray's dimension names are unique"],
  "dataset.coordinate-missing": ["error", "each dimension of a data variable has a 1-D coordinate array of that name"],
  "dataset.coordinate-mismatch": ["error", "a coordinate array is 1-D and as long as the dimension it indexes"],
  "dataset.georeferencing-missing": ["error", "a Dataset's spatial data variables resolve a CRS and spatial:dimensions"],
  "dataset.incomplete-conventions": ["warning", "a Dataset declares only one of proj: and spatial:"],
  "multiscales.invalid": ["error", "multiscales is an object with a non-empty layout array"],
  "multiscales.on-array": ["error", "multiscales is defined on groups only"],
  "multiscales.conventions-missing": ["error", "a geospatial Multiscale Dataset declares multiscales, proj: and spatial:"],
  "multiscales.not-geospatial": ["info", "a multiscales group without proj:/spatial: is not a GeoZarr Multiscale Dataset"],
  "multiscales.asset-invalid": ["error", "asset and derived_from are relative paths (no leading /, no ..)"],
  "multiscales.asset-duplicate": ["error", "each asset appears once in the layout"],
  "multiscales.asset-missing": ["error", "each asset names an existing child group or array"],
  "multiscales.derived-from-unknown": ["error", "derived_from names an asset of the same layout"],
  "multiscales.derived-from-cycle": ["error", "derived_from links are acyclic"],
  "multiscales.transform-missing": ["error", "a level with derived_from has a transform"],
  "multiscales.transform-invalid": ["error", "transform.scale and transform.translation are number arrays (scale > 0)"],
  "multiscales.scale-inconsistent": ["error", "the relative scale disagrees with the levels' spatial:transform or shapes"],
  "multiscales.shape-mismatch": ["error", "a level's spatial:shape disagrees with its arrays"],
  "multiscales.transform-mismatch": ["error", "a level's spatial:transform disagrees with the level's own metadata"],
  "multiscales.variables-differ": ["warning", "levels hold different sets of variables"],
  "multiscales.undeclared-member": ["warning", "a member of the multiscales group is not a level of its layout"],
  "multiscales.resampling-unknown": ["info", "a resampling method outside the common list"],
  "legacy.stac-proj": ["warning", "STAC-style proj:epsg/proj:transform/proj:shape/proj:bbox on a node"],
  "legacy.stale": ["warning", "legacy georeferencing disagrees with the array or with the conventions"],
  "legacy.only": ["warning", "georeferencing comes only from legacy attributes (GDAL _CRS, CF grid_mapping, STAC)"],
  "legacy.grid-mapping-missing": ["warning", "grid_mapping names a variable that does not exist"],
  "hierarchy.unlisted": ["info", "the store cannot list and has no consolidated metadata: only reachable nodes were checked"],
} as const satisfies Record<string, readonly [Severity, string]>;

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
  return { rule, severity, pointer: at, message };
}

/** Attaches a node path to issues. */
export function locate(path: string, issues: readonly Issue[]): Finding[] {
  return issues.map((i) => ({ path, ...i }));
}
