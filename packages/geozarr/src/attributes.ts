/**
 * Typed accessors for the convention attributes of one node: `proj:*`, `spatial:*` and
 * `multiscales`. Each reader is lenient (it returns what it can use) and reports what is
 * wrong as issues with JSON pointers into the node's metadata document.
 */
import { isJsonObject, type JsonObject, type JsonValue } from "@zarr/spec";
import { type Affine, determinant, isAffine } from "./affine.js";
import { type ConventionsVersion, describe } from "./conventions.js";
import { type Crs, crsCode, isCrsCode, projjsonProblem, wktVersion } from "./crs.js";
import { type Issue, issue, pointer } from "./findings.js";

/** A bounding box `[xmin, ymin, xmax, ymax]` (xmin > xmax: the box crosses the antimeridian). */
export type BBox = readonly [number, number, number, number];

/** Grid cell registration: `pixel` (cell area, GeoTIFF PixelIsArea) or `node` (cell centre, PixelIsPoint). */
export type Registration = "pixel" | "node";

/** The `spatial:*` fields of one node, as far as they are valid. */
export interface SpatialAttributes {
  /** `[Y, X]` dimension names. */
  dimensions?: readonly [string, string];
  transform?: Affine;
  transformType?: string;
  bbox?: BBox;
  /** `[height, width]`. */
  shape?: readonly [number, number];
  registration?: Registration;
}

/** A parse result: the usable value and the problems found. */
export interface Parsed<T> {
  value: T;
  issues: Issue[];
}

const ATTR = "attributes";

/** True when any key of `attributes` starts with `prefix`. */
export function hasKeysWithPrefix(attributes: JsonObject, prefix: string): boolean {
  for (const k of Object.keys(attributes)) if (k.startsWith(prefix)) return true;
  return false;
}

/** The keys the v0.1 proj convention defines. */
export const PROJ_KEYS = ["proj:code", "proj:wkt2", "proj:projjson"] as const;
/** Keys of older drafts and of STAC's projection extension, read as legacy. */
export const LEGACY_PROJ_KEYS = [
  "proj:epsg",
  "proj:transform",
  "proj:shape",
  "proj:bbox",
  "proj:spatial_dimensions",
  "proj:centroid",
  "proj:geometry",
] as const;
/** The keys the v0.1 spatial convention defines. */
export const SPATIAL_KEYS = [
  "spatial:dimensions",
  "spatial:transform",
  "spatial:transform_type",
  "spatial:bbox",
  "spatial:shape",
  "spatial:registration",
] as const;

/**
 * The `proj:code` pattern of each version: the mini-spec's (and v1's) `^[A-Z]+:[0-9]+$`,
 * and the looser `^[^:]+:[^:]+$` of the v0.1 schema (which admits `OGC:CRS84`).
 */
export const PROJ_CODE_PATTERNS: Readonly<Record<ConventionsVersion, RegExp>> = {
  v1: /^[A-Z]+:[0-9]+$/,
  "v0.1": /^[^:]+:[^:]+$/,
};

/** A hint for a `proj:code` that fails the version's pattern. */
function codeHint(code: JsonValue, rules: ConventionsVersion): string {
  if (typeof code === "number") return `; write "EPSG:${code}"`;
  if (typeof code !== "string") return "";
  const upper = code.toUpperCase();
  if (PROJ_CODE_PATTERNS[rules].test(upper)) return `; write "${upper}"`;
  if (rules === "v1" && PROJ_CODE_PATTERNS["v0.1"].test(code)) {
    return "; a code that is not LETTERS:DIGITS (such as OGC:CRS84) goes in proj:wkt2 or proj:projjson under v1, or declare the v0.1 proj convention";
  }
  return "";
}

/**
 * Reads `proj:code`, `proj:wkt2` and `proj:projjson`. The value is `undefined` when
 * none is present; a code any version admits is kept in the value even when `rules`
 * reports it. `base` is the JSON pointer prefix (default `/attributes`). `rules` is the
 * version whose rules apply (default `v1`, the mini-spec's: `proj:code` matches
 * `^[A-Z]+:[0-9]+$` and exactly one of the three is given; `v0.1`: `^[^:]+:[^:]+$`, at
 * least one).
 *
 * @example
 * ```ts
 * readProj({ "proj:code": "EPSG:32633" }).value; // { code: "EPSG:32633" }
 * readProj({ "proj:code": "OGC:CRS84" }, undefined, "v0.1").issues; // []
 * ```
 */
export function readProj(attributes: JsonObject, base = pointer(ATTR), rules: ConventionsVersion = "v1"): Parsed<Crs | undefined> {
  const issues: Issue[] = [];
  const out: Crs = {};
  const code = attributes["proj:code"];
  if (code !== undefined) {
    if (typeof code === "string" && isCrsCode(code)) out.code = code;
    if (typeof code !== "string" || !PROJ_CODE_PATTERNS[rules].test(code)) {
      issues.push(
        issue(
          "proj.code-format",
          `${base}/proj:code`,
          `proj:code must match ${PROJ_CODE_PATTERNS[rules].source} (${rules} proj), such as "EPSG:32633", not ${describe(code)}${codeHint(code, rules)}`,
        ),
      );
    }
  }
  const wkt = attributes["proj:wkt2"];
  if (wkt !== undefined) {
    if (typeof wkt !== "string" || wktVersion(wkt) === undefined) {
      issues.push(issue("proj.wkt2-invalid", `${base}/proj:wkt2`, `proj:wkt2 must be a WKT2 string, not ${describe(wkt)}`));
    } else {
      out.wkt2 = wkt;
      if (wktVersion(wkt) === "wkt1") {
        issues.push(
          issue(
            "proj.wkt1",
            `${base}/proj:wkt2`,
            "proj:wkt2 holds WKT1 (PROJCS/GEOGCS...), not WKT2; write the WKT2 form (e.g. from pyproj's CRS.to_wkt()) or use proj:code",
          ),
        );
      }
    }
  }
  const pj = attributes["proj:projjson"];
  if (pj !== undefined) {
    const problem = projjsonProblem(pj);
    if (problem !== undefined) {
      issues.push(issue("proj.projjson-invalid", `${base}/proj:projjson`, `proj:projjson must be a PROJJSON CRS: ${problem}`));
    } else out.projjson = pj as JsonObject;
  }
  const any = out.code !== undefined || out.wkt2 !== undefined || out.projjson !== undefined;
  const given = PROJ_KEYS.filter((k) => attributes[k] !== undefined && attributes[k] !== null);
  if (rules === "v1" && given.length > 1) {
    issues.push(
      issue(
        "proj.multiple-crs",
        `${base}/${given[1]}`,
        `${given.join(" and ")} are both set; v1 proj takes exactly one of proj:code, proj:wkt2, proj:projjson: keep one (proj:code when the CRS has one), or declare the v0.1 proj convention, which allows several`,
      ),
    );
  }
  if (any) {
    const codes = [
      ["proj:code", out.code === undefined ? undefined : crsCode({ code: out.code })],
      ["proj:wkt2", out.wkt2 === undefined ? undefined : crsCode({ wkt2: out.wkt2 })],
      ["proj:projjson", out.projjson === undefined ? undefined : crsCode({ projjson: out.projjson })],
    ].filter((e): e is [string, string] => e[1] !== undefined);
    const distinct = new Set(codes.map((c) => c[1]));
    if (distinct.size > 1) {
      issues.push(
        issue(
          "proj.inconsistent",
          base,
          `the CRS fields disagree (${codes.map(([k, c]) => `${k} is ${c}`).join(", ")}); keep one CRS or make them describe the same one`,
        ),
      );
    }
  }
  return { value: any ? out : undefined, issues };
}

/** Issues for legacy proj keys (`proj:epsg`, 9-element `proj:transform`, ...) present in `attributes`. */
export function legacyProjIssues(attributes: JsonObject, base = pointer(ATTR)): Issue[] {
  const present = LEGACY_PROJ_KEYS.filter((k) => attributes[k] !== undefined);
  if (present.length === 0) return [];
  const fixes: string[] = [];
  if (present.includes("proj:epsg")) fixes.push('proj:epsg → proj:code "EPSG:<n>"');
  if (present.includes("proj:transform")) fixes.push("proj:transform → spatial:transform (first six numbers)");
  if (present.includes("proj:shape")) fixes.push("proj:shape → spatial:shape");
  if (present.includes("proj:bbox")) fixes.push("proj:bbox → spatial:bbox");
  if (present.includes("proj:spatial_dimensions")) fixes.push("proj:spatial_dimensions → spatial:dimensions");
  return [
    issue(
      "proj.legacy-keys",
      `${base}/${present[0]}`,
      `legacy keys ${present.join(", ")} are not part of proj v0.1; move them to the conventions (${fixes.join("; ") || "drop them"}), e.g. with migrate()`,
    ),
  ];
}

function isPositiveInt(v: JsonValue | undefined): v is number {
  return typeof v === "number" && Number.isSafeInteger(v) && v >= 1;
}

/**
 * Reads the `spatial:*` fields (`dimensions`, `transform`, `transform_type`, `bbox`,
 * `shape`, `registration`). Invalid fields are left out of the value and reported.
 *
 * @example
 * ```ts
 * readSpatial({ "spatial:dimensions": ["y", "x"], "spatial:transform": [10, 0, 5e5, 0, -10, 5e6] }).value;
 * ```
 */
export function readSpatial(attributes: JsonObject, base = pointer(ATTR)): Parsed<SpatialAttributes> {
  const issues: Issue[] = [];
  const out: SpatialAttributes = {};
  const dims = attributes["spatial:dimensions"];
  if (dims !== undefined) {
    if (Array.isArray(dims) && dims.length === 2 && dims.every((d) => typeof d === "string" && d !== "") && dims[0] !== dims[1]) {
      out.dimensions = [dims[0] as string, dims[1] as string];
    } else {
      issues.push(
        issue(
          "spatial.dimensions-invalid",
          `${base}/spatial:dimensions`,
          `spatial:dimensions must be two distinct dimension names ordered [Y, X], e.g. ["y", "x"], not ${describe(dims)}`,
        ),
      );
    }
  }
  const t = attributes["spatial:transform"];
  if (t !== undefined) {
    if (!isAffine(t)) {
      const hint = Array.isArray(t) && t.length === 9 ? " (a 9-element STAC matrix: keep its first six numbers)" : "";
      issues.push(
        issue("spatial.transform-invalid", `${base}/spatial:transform`, `spatial:transform must be six finite numbers [a, b, c, d, e, f], not ${describe(t)}${hint}`),
      );
    } else if (determinant(t) === 0) {
      issues.push(
        issue("spatial.transform-degenerate", `${base}/spatial:transform`, "spatial:transform maps the grid onto a line (a*e − b*d = 0); pixel sizes a and e must be non-zero"),
      );
    } else out.transform = [t[0], t[1], t[2], t[3], t[4], t[5]];
  }
  const tt = attributes["spatial:transform_type"];
  if (tt !== undefined) {
    if (typeof tt !== "string") {
      issues.push(issue("spatial.transform-invalid", `${base}/spatial:transform_type`, `spatial:transform_type must be a string, not ${describe(tt)}`));
    } else {
      out.transformType = tt;
      if (tt !== "affine") {
        issues.push(
          issue(
            "spatial.transform-type-unknown",
            `${base}/spatial:transform_type`,
            `spatial:transform_type "${tt}" is not "affine"; spatial:transform is ignored for georeferencing`,
          ),
        );
      }
    }
  }
  const bbox = attributes["spatial:bbox"];
  if (bbox !== undefined) {
    if (Array.isArray(bbox) && bbox.length === 4 && bbox.every((v) => typeof v === "number" && Number.isFinite(v))) {
      const b = bbox as number[];
      out.bbox = [b[0], b[1], b[2], b[3]];
      if (b[1] >= b[3] || b[0] === b[2]) {
        issues.push(
          issue(
            "spatial.bbox-degenerate",
            `${base}/spatial:bbox`,
            `spatial:bbox [${b.join(", ")}] has no area (ymin ≥ ymax or xmin = xmax); write the real extent [xmin, ymin, xmax, ymax] or remove it`,
          ),
        );
      }
    } else {
      issues.push(issue("spatial.bbox-invalid", `${base}/spatial:bbox`, `spatial:bbox must be four numbers [xmin, ymin, xmax, ymax], not ${describe(bbox)}`));
    }
  }
  const shape = attributes["spatial:shape"];
  if (shape !== undefined) {
    if (Array.isArray(shape) && shape.length === 2 && shape.every(isPositiveInt)) {
      out.shape = [shape[0] as number, shape[1] as number];
    } else {
      issues.push(issue("spatial.shape-invalid", `${base}/spatial:shape`, `spatial:shape must be two positive integers [height, width], not ${describe(shape)}`));
    }
  }
  const reg = attributes["spatial:registration"];
  if (reg !== undefined) {
    if (reg === "pixel" || reg === "node") out.registration = reg;
    else {
      issues.push(
        issue("spatial.registration-invalid", `${base}/spatial:registration`, `spatial:registration must be "pixel" or "node", not ${describe(reg)}`),
      );
    }
  }
  return { value: out, issues };
}

/** The relative transform of a multiscales level. */
export interface LevelTransform {
  /** Scale factors per axis, in the order of the level's spatial dimensions `[Y, X]` (> 1: coarser). */
  scale?: number[];
  translation?: number[];
}

/** One level of `multiscales.layout`. */
export interface LayoutEntry {
  /** Position in the layout. */
  index: number;
  asset: string;
  derivedFrom?: string;
  transform?: LevelTransform;
  resamplingMethod?: string;
  /** `spatial:shape` of the level `[height, width]`. */
  spatialShape?: readonly [number, number];
  /** `spatial:transform` of the level. */
  spatialTransform?: Affine;
  /** The raw entry (other keys are allowed). */
  raw: JsonObject;
}

/** The `multiscales` attribute. */
export interface MultiscalesAttributes {
  layout: LayoutEntry[];
  resamplingMethod?: string;
}

/** Resampling methods named by the multiscales convention as common. */
export const COMMON_RESAMPLING = new Set([
  "nearest",
  "average",
  "bilinear",
  "cubic",
  "cubic_spline",
  "lanczos",
  "mode",
  "max",
  "min",
  "med",
  "sum",
  "q1",
  "q3",
  "rms",
  "gauss",
  "or",
]);

/** True for a relative path as the layout allows (no leading `/`, no `..`, no empty segment). */
export function isRelativeAssetPath(p: string): boolean {
  return p !== "" && !p.startsWith("/") && p.split("/").every((s) => s !== "" && s !== ".." && s !== ".");
}

/**
 * Reads `multiscales` (layout, default resampling). The value is `undefined` when the
 * attribute is absent or unusable (not an object, no layout array).
 *
 * @example
 * ```ts
 * const ms = readMultiscales(group.attributes).value;
 * ms?.layout.map((l) => l.asset); // ["r10m", "r20m", ...]
 * ```
 */
export function readMultiscales(attributes: JsonObject, base = pointer(ATTR)): Parsed<MultiscalesAttributes | undefined> {
  const issues: Issue[] = [];
  const ms = attributes.multiscales;
  if (ms === undefined) return { value: undefined, issues };
  const at = `${base}/multiscales`;
  if (!isJsonObject(ms)) {
    const hint = Array.isArray(ms)
      ? " (a list: the GeoZarr 0.4 / ndpyramid format; convert it with migrate())"
      : "";
    issues.push(issue("multiscales.invalid", at, `multiscales must be an object {layout, resampling_method?}, not ${describe(ms)}${hint}`));
    return { value: undefined, issues };
  }
  const layout = ms.layout;
  if (!Array.isArray(layout) || layout.length === 0) {
    const hint = ms.tile_matrix_set !== undefined ? " (this is a GeoZarr 0.4 tile-matrix-set pyramid; convert it with migrate())" : "";
    issues.push(issue("multiscales.invalid", `${at}/layout`, `multiscales.layout must be a non-empty array of levels, not ${describe(layout)}${hint}`));
    return { value: undefined, issues };
  }
  const out: MultiscalesAttributes = { layout: [] };
  if (ms.resampling_method !== undefined) {
    if (typeof ms.resampling_method === "string") out.resamplingMethod = ms.resampling_method;
    else issues.push(issue("multiscales.invalid", `${at}/resampling_method`, `resampling_method must be a string, not ${describe(ms.resampling_method)}`));
  }
  layout.forEach((raw, index) => {
    const here = `${at}/layout/${index}`;
    if (!isJsonObject(raw)) {
      issues.push(issue("multiscales.invalid", here, `layout entry ${index} must be an object, not ${describe(raw)}`));
      return;
    }
    const asset = raw.asset;
    if (typeof asset !== "string" || !isRelativeAssetPath(asset)) {
      issues.push(
        issue(
          "multiscales.asset-invalid",
          `${here}/asset`,
          `layout entry ${index} needs "asset": a relative path to the level's group or array (no leading "/", no ".."), not ${describe(asset)}`,
        ),
      );
      return;
    }
    const entry: LayoutEntry = { index, asset, raw };
    if (raw.derived_from !== undefined) {
      if (typeof raw.derived_from === "string" && isRelativeAssetPath(raw.derived_from)) entry.derivedFrom = raw.derived_from;
      else {
        issues.push(
          issue("multiscales.asset-invalid", `${here}/derived_from`, `derived_from of level "${asset}" must be a relative path, not ${describe(raw.derived_from)}`),
        );
      }
    }
    if (raw.transform !== undefined) {
      const t = readLevelTransform(raw.transform, `${here}/transform`, asset, issues);
      if (t !== undefined) entry.transform = t;
    }
    if (raw.resampling_method !== undefined) {
      if (typeof raw.resampling_method === "string") entry.resamplingMethod = raw.resampling_method;
      else issues.push(issue("multiscales.invalid", `${here}/resampling_method`, `resampling_method must be a string, not ${describe(raw.resampling_method)}`));
    }
    const spatial = readSpatial(
      { "spatial:shape": raw["spatial:shape"], "spatial:transform": raw["spatial:transform"] } as JsonObject,
      here,
    );
    for (const i of spatial.issues) issues.push(i);
    if (spatial.value.shape !== undefined) entry.spatialShape = spatial.value.shape;
    if (spatial.value.transform !== undefined) entry.spatialTransform = spatial.value.transform;
    out.layout.push(entry);
  });
  return { value: out, issues };
}

function readLevelTransform(value: JsonValue, at: string, asset: string, issues: Issue[]): LevelTransform | undefined {
  if (!isJsonObject(value)) {
    issues.push(issue("multiscales.transform-invalid", at, `transform of level "${asset}" must be an object {scale, translation}, not ${describe(value)}`));
    return undefined;
  }
  const out: LevelTransform = {};
  for (const key of ["scale", "translation"] as const) {
    const v = value[key];
    if (v === undefined) continue;
    const ok = Array.isArray(v) && v.length > 0 && v.every((x) => typeof x === "number" && Number.isFinite(x));
    if (!ok || (key === "scale" && (v as number[]).some((x) => x <= 0))) {
      issues.push(
        issue(
          "multiscales.transform-invalid",
          `${at}/${key}`,
          `transform.${key} of level "${asset}" must be an array of ${key === "scale" ? "positive " : ""}numbers, not ${describe(v)}`,
        ),
      );
      continue;
    }
    out[key] = (v as number[]).slice();
  }
  if (out.scale !== undefined && out.translation !== undefined && out.scale.length !== out.translation.length) {
    issues.push(
      issue(
        "multiscales.transform-invalid",
        at,
        `transform.scale has ${out.scale.length} values but transform.translation ${out.translation.length}; give one per axis`,
      ),
    );
  }
  return out;
}
