/**
 * Rule family **proj**: the geo-proj convention's keys (mini-spec: Appendix › proj:
 * Properties), checked by the rules of the version the node declares (or inherits).
 *
 * Rule ids: `proj.missing-crs`, `proj.multiple-crs`, `proj.code-format`,
 * `proj.wkt2-invalid`, `proj.wkt1`, `proj.projjson-invalid`, `proj.inconsistent`,
 * `proj.legacy-keys` (STAC keys next to a proj declaration, or in a layout entry).
 */
import { isJsonObject } from "@zarr/spec";
import { legacyProjIssues, type MultiscalesAttributes, PROJ_CODE_PATTERNS, PROJ_KEYS, readProj } from "../attributes.js";
import { type ConventionName, type ConventionsVersion, detectConventions } from "../conventions.js";
import { type Issue, issue, pointer } from "../findings.js";
import type { GeoNode } from "../hierarchy.js";
import { geoProj010 } from "../upgrade.js";
import { DECL_POINTER, hasLegacyProjKeys } from "./conventions.js";

/**
 * The rules the node's proj keys follow: those of the version its own declaration names,
 * else of the declaration it inherits (parent group, multiscales group), else v1 (the
 * mini-spec's rules apply when no version is declared).
 */
function projRulesOf(node: GeoNode, inherited: readonly GeoNode[]): ConventionsVersion {
  for (const n of [node, ...inherited]) {
    const d = detectConventions(n.attributes).entries.find((e) => e.convention === "proj");
    if (d !== undefined) return d.rules;
  }
  return "v1";
}

/**
 * The proj rules of one node: its CRS fields (where it declares proj or uses its keys),
 * a geo-proj 0.1.0 code, a declaration without any CRS (here or inherited), and STAC
 * keys next to the declaration.
 */
export function projIssues(node: GeoNode, declared: ReadonlySet<ConventionName>, inherited: readonly GeoNode[]): Issue[] {
  const a = node.attributes;
  const found: Issue[] = [];
  const usesProj = PROJ_KEYS.some((k) => a[k] !== undefined);
  const proj = readProj(a, undefined, projRulesOf(node, inherited));
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
  // Without the declaration, STAC keys are the legacy family's (legacy.stac-proj).
  if (declared.has("proj") && hasLegacyProjKeys(a)) found.push(...legacyProjIssues(a));
  return found;
}

/** Pre-v0.1 keys in the entries of a multiscales layout. */
export function layoutProjKeyIssues(ms: MultiscalesAttributes): Issue[] {
  const found: Issue[] = [];
  for (const e of ms.layout) {
    for (const k of ["proj:shape", "proj:transform", "proj:bbox", "proj:epsg"]) {
      if (e.raw[k] !== undefined) {
        const replacement = k === "proj:epsg" ? "proj:code on the group" : `spatial:${k.slice(5)}`;
        found.push(
          issue("proj.legacy-keys", pointer("attributes", "multiscales", "layout", e.index, k), `layout entry "${e.asset}" uses the pre-v0.1 key ${k}; write ${replacement} instead`),
        );
      }
    }
  }
  return found;
}
