/**
 * Rewriting older declarations into one version's form: `zarr_conventions` entries of
 * other versions (v0.1, v0, branch heads, other names) become exactly the entries of the
 * target version, and the geo-proj 0.1.0 forms (`zarr_conventions` as an object keyed by
 * uuid; CRS and grid in a `geo.proj` dictionary, in the entry's `configuration`, or as
 * `proj:spatial_dimensions`/`proj:transform`/... at the root) become `proj:*` and
 * `spatial:*` keys with their declarations. Under v1, a node's proj keys are brought to
 * the v1 rules (one CRS field, `proj:code` LETTERS:DIGITS) where that loses nothing.
 */
import { isJsonObject, type JsonObject, type JsonValue } from "@zarr/spec";
import { isAffine } from "./affine.js";
import { PROJ_CODE_PATTERNS, PROJ_KEYS } from "./attributes.js";
import { CONVENTION_ENTRIES_BY_VERSION, type ConventionName, type ConventionsVersion, detectConventions } from "./conventions.js";
import type { GeoNode } from "./hierarchy.js";

/** One node's rewrite: attributes to set, keys to remove, what was done, and what could not be. */
export interface DeclarationUpgrade {
  source: "conventions" | "geo-proj-0.1.0";
  description: string;
  set: JsonObject;
  remove: string[];
  notes: string[];
}

/** The geo-proj 0.1.0 fields of a node (from `geo.proj`, the entry's `configuration`, or root `proj:` keys). */
export interface GeoProj010 {
  code?: string;
  wkt2?: string;
  projjson?: JsonObject;
  dimensions?: [string, string];
  transform?: number[];
  bbox?: number[];
  shape?: [number, number];
  /** Keys of the attributes these came from (removed once rewritten). */
  from: string[];
}

function strings2(v: JsonValue | undefined): [string, string] | undefined {
  return Array.isArray(v) && v.length === 2 && v.every((s) => typeof s === "string" && s !== "") ? [v[0] as string, v[1] as string] : undefined;
}

function numbers(v: JsonValue | undefined, lengths: number[]): number[] | undefined {
  return Array.isArray(v) && lengths.includes(v.length) && v.every((n) => typeof n === "number" && Number.isFinite(n)) ? (v as number[]) : undefined;
}

/** Reads one source object of geo-proj 0.1.0 fields, with or without a `proj:` prefix. */
function readFields(obj: JsonObject, prefix: string, into: GeoProj010): void {
  const get = (k: string) => obj[`${prefix}${k}`];
  const code = get("code");
  if (typeof code === "string" && into.code === undefined) into.code = code;
  const wkt2 = get("wkt2");
  if (typeof wkt2 === "string" && into.wkt2 === undefined) into.wkt2 = wkt2;
  const projjson = get("projjson");
  if (isJsonObject(projjson) && into.projjson === undefined) into.projjson = projjson;
  into.dimensions ??= strings2(get("spatial_dimensions")) ?? strings2(get("spatial_dims"));
  into.transform ??= numbers(get("transform"), [6, 9]);
  into.bbox ??= numbers(get("bbox"), [4]);
  const shape = numbers(get("shape"), [2]);
  if (shape?.every((n) => Number.isSafeInteger(n) && n >= 1)) into.shape ??= [shape[0], shape[1]];
}

/** The geo-proj 0.1.0 fields of a node, when it uses that form (object-form declaration or a `geo.proj` dictionary). */
export function geoProj010(a: JsonObject): GeoProj010 | undefined {
  const out: GeoProj010 = { from: [] };
  const objectForm = isJsonObject(a.zarr_conventions) && !Array.isArray(a.zarr_conventions);
  if (isJsonObject(a.geo) && isJsonObject(a.geo.proj)) {
    readFields(a.geo.proj, "", out);
    out.from.push("geo");
  }
  if (objectForm) {
    for (const entry of Object.values(a.zarr_conventions as JsonObject)) {
      if (isJsonObject(entry) && isJsonObject(entry.configuration)) readFields(entry.configuration, "", out);
    }
    // That form put the fields at the root with a proj: prefix, beside proj:code.
    readFields(a, "proj:", out);
    for (const k of ["proj:spatial_dimensions", "proj:transform", "proj:bbox", "proj:shape"]) if (a[k] !== undefined) out.from.push(k);
  }
  return out.from.length === 0 && !objectForm ? undefined : out;
}

/** Exactly one CRS field under v1 (the code when it has the v1 form), every field under v0.1; `undefined` when v1 cannot hold the CRS. */
function projKeys(crs: { code?: string; wkt2?: string; projjson?: JsonObject }, target: ConventionsVersion): JsonObject | undefined {
  const code = crs.code !== undefined && PROJ_CODE_PATTERNS[target].test(crs.code.toUpperCase()) ? crs.code.toUpperCase() : undefined;
  const all: JsonObject = {};
  if (target === "v0.1" && crs.code !== undefined) all["proj:code"] = crs.code;
  else if (code !== undefined) all["proj:code"] = code;
  if (crs.wkt2 !== undefined) all["proj:wkt2"] = crs.wkt2;
  if (crs.projjson !== undefined) all["proj:projjson"] = crs.projjson;
  const keys = Object.keys(all);
  if (keys.length === 0) return undefined;
  if (target === "v1") return { [keys[0]]: all[keys[0]] };
  return all;
}

/** The declaration array with every known convention's entry replaced by the target's, unknown entries kept. */
function rewrittenEntries(list: JsonValue[], target: ConventionsVersion, add: Iterable<ConventionName>): JsonValue[] {
  const entries = CONVENTION_ENTRIES_BY_VERSION[target];
  const det = detectConventions({ zarr_conventions: list });
  const out: JsonValue[] = [];
  const done = new Set<ConventionName>();
  for (const [i, e] of list.entries()) {
    const c = det.entries.find((d) => d.index === i)?.convention;
    if (c === undefined) out.push(e);
    else if (!done.has(c)) {
      out.push({ ...entries[c] });
      done.add(c);
    }
  }
  for (const c of add) if (!done.has(c)) out.push({ ...entries[c] });
  return out;
}

/** JSON text with object keys sorted, so key order does not count as a difference. */
function canonical(v: JsonValue | undefined): string {
  if (Array.isArray(v)) return `[${v.map(canonical).join(",")}]`;
  if (isJsonObject(v)) return `{${Object.keys(v).sort().map((k) => `${JSON.stringify(k)}:${canonical(v[k])}`).join(",")}}`;
  return JSON.stringify(v) ?? "undefined";
}

function sameJson(a: JsonValue | undefined, b: JsonValue | undefined): boolean {
  return canonical(a) === canonical(b);
}

/**
 * What it takes to bring one node's declarations and proj keys to the `target` version's
 * form; `undefined` when the node already has it (or uses no convention).
 */
export function upgradeDeclarations(node: GeoNode, target: ConventionsVersion): DeclarationUpgrade | undefined {
  const a = node.attributes;
  const notes: string[] = [];
  const old = geoProj010(a);
  if (old !== undefined) {
    // geo-proj 0.1.0: fields move to the root as proj:* and spatial:*.
    const set: JsonObject = {};
    const remove = [...old.from];
    const declare = new Set<ConventionName>();
    const proj = projKeys(old, target);
    if (proj !== undefined) {
      Object.assign(set, proj);
      declare.add("proj");
      for (const k of PROJ_KEYS) if (a[k] !== undefined && set[k] === undefined) remove.push(k);
    } else if (old.code !== undefined) {
      notes.push(`"${node.path || "/"}": proj code "${old.code}" has no ${target} proj:code form and no WKT2/PROJJSON is given; proj left out (rerun with --conventions v0.1)`);
      for (const k of PROJ_KEYS) if (a[k] !== undefined) remove.push(k);
    }
    if (old.dimensions !== undefined) set["spatial:dimensions"] = [...old.dimensions];
    if (old.transform !== undefined && isAffine(old.transform.slice(0, 6))) set["spatial:transform"] = old.transform.slice(0, 6);
    if (old.bbox !== undefined) set["spatial:bbox"] = [...old.bbox];
    if (old.shape !== undefined) set["spatial:shape"] = [...old.shape];
    if (SPATIAL_SET.some((k) => set[k] !== undefined)) declare.add("spatial");
    const list = Array.isArray(a.zarr_conventions) ? a.zarr_conventions : objectFormAsEntries(a.zarr_conventions);
    set.zarr_conventions = rewrittenEntries(list, target, declare);
    remove.push("zarr_conventions");
    return {
      source: "geo-proj-0.1.0",
      description: `geo-proj 0.1.0 (${old.from.length > 0 ? old.from.join(", ") : "object-form declaration"}) → ${Object.keys(set).filter((k) => k !== "zarr_conventions").join(", ") || "declarations only"} with ${target} declarations`,
      set,
      remove: [...new Set(remove)],
      notes,
    };
  }
  const list = a.zarr_conventions;
  if (!Array.isArray(list)) return undefined;
  const det = detectConventions(a);
  if (det.declared.size === 0) return undefined;
  const set: JsonObject = {};
  const remove: string[] = [];
  const done: string[] = [];
  // Entries: anything but the target's exact entry is rewritten.
  const entries = rewrittenEntries(list, target, []);
  // Key order and unknown entries' position aside, an entry that is the target's stays.
  const known = (l: JsonValue[]) => l.filter((e) => isJsonObject(e) && detectConventions({ zarr_conventions: [e] }).declared.size > 0);
  if (known(entries).length !== known(list).length || !known(entries).every((e, i) => sameJson(e, known(list)[i]))) {
    const from = [...new Set(det.entries.filter((e) => e.convention !== undefined).map((e) => `${e.convention} ${e.version}${e.name !== undefined ? ` "${e.name}"` : ""}`))];
    set.zarr_conventions = entries;
    remove.push("zarr_conventions");
    done.push(`declarations ${from.join(", ")} → ${target}`);
  }
  // proj keys: the target version's rules, where nothing is lost.
  if (det.declared.has("proj") && target === "v1") {
    const code = typeof a["proj:code"] === "string" ? a["proj:code"] : undefined;
    const wkt2 = typeof a["proj:wkt2"] === "string" ? a["proj:wkt2"] : undefined;
    const projjson = isJsonObject(a["proj:projjson"]) ? a["proj:projjson"] : undefined;
    const present = PROJ_KEYS.filter((k) => a[k] !== undefined);
    const one = projKeys({ code, wkt2, projjson }, "v1");
    if (one === undefined && code !== undefined) {
      notes.push(`"${node.path || "/"}": proj:code "${code}" has no v1 form and no WKT2/PROJJSON is given; left as it is (valid only under v0.1: rerun with --conventions v0.1)`);
    } else if (one !== undefined && (present.length > 1 || !sameJson(one[present[0]], a[present[0]]))) {
      Object.assign(set, one);
      for (const k of present) if (one[k] === undefined) remove.push(k);
      done.push(`proj: ${present.join(" + ")} → ${Object.keys(one)[0]}${one["proj:code"] !== undefined && one["proj:code"] !== code ? ` "${one["proj:code"]}"` : ""}`);
    }
  }
  if (done.length === 0 && notes.length === 0) return undefined;
  return { source: "conventions", description: done.join("; ") || "nothing rewritten", set, remove, notes };
}

const SPATIAL_SET = ["spatial:dimensions", "spatial:transform", "spatial:bbox", "spatial:shape"];

/** The object-form declaration's entries as `{uuid, name?, description?}` objects (known ones are then rewritten whole). */
function objectFormAsEntries(value: JsonValue | undefined): JsonValue[] {
  if (!isJsonObject(value)) return [];
  return Object.entries(value).map(([uuid, v]) => {
    const e: JsonObject = { uuid: uuid.toLowerCase() };
    if (isJsonObject(v) && typeof v.name === "string") e.name = v.name;
    if (isJsonObject(v) && typeof v.description === "string") e.description = v.description;
    return e;
  });
}
