/**
 * The `zarr_conventions` declaration: recognising the GeoZarr conventions by uuid, then
 * schema URL, then spec URL (never by name), with the aliases and versions real data uses
 * (v1, v0.1, geo-proj 0.1.0, branch heads), and writing the declarations: v1 as the
 * mini-spec shows them by default, v0.1 on request.
 */
import { isJsonObject, type JsonObject, type JsonValue, ZarrError } from "@zarr/spec";
import { type Issue, issue, pointer } from "./findings.js";

/** The three GeoZarr conventions. */
export type ConventionName = "multiscales" | "proj" | "spatial";

/** The permanent UUIDs of the conventions. */
export const CONVENTION_UUIDS: Readonly<Record<ConventionName, string>> = {
  multiscales: "d35379db-88df-4056-af3a-620245f8e347",
  proj: "f17cb550-5864-4468-aeb7-f3180cfb622f",
  spatial: "689b58e2-cf7b-45e0-9fff-9cfc0883d6b4",
};

/** The forms of the declarations this package writes: `v1` (the mini-spec's) or `v0.1` (the conventions' v0.1 tags). */
export type ConventionsVersion = "v1" | "v0.1";

/** The versions {@link ConventionsVersion} can take, for option parsers. */
export const CONVENTIONS_VERSIONS: readonly ConventionsVersion[] = ["v1", "v0.1"];

const DESCRIPTIONS: Readonly<Record<ConventionName, string>> = {
  multiscales: "Multiscale layout of zarr datasets",
  proj: "Coordinate reference system information for geospatial data",
  spatial: "Spatial coordinate information",
};

/**
 * The declaration entries each version writes. `v1` is exactly what the mini-spec shows
 * (geo-proj under zarr-experimental, names `proj:`/`spatial:`); `v0.1` is exactly what the
 * conventions' v0.1 schemas pin (all under zarr-conventions, names `proj`/`spatial`).
 */
export const CONVENTION_ENTRIES_BY_VERSION: Readonly<Record<ConventionsVersion, Readonly<Record<ConventionName, Readonly<JsonObject>>>>> = {
  v1: {
    multiscales: entry("multiscales", "zarr-conventions/multiscales", "v1", "multiscales"),
    proj: entry("proj", "zarr-experimental/geo-proj", "v1", "proj:"),
    spatial: entry("spatial", "zarr-conventions/spatial", "v1", "spatial:"),
  },
  "v0.1": {
    multiscales: entry("multiscales", "zarr-conventions/multiscales", "v0.1", "multiscales"),
    proj: entry("proj", "zarr-conventions/proj", "v0.1", "proj"),
    spatial: entry("spatial", "zarr-conventions/spatial", "v0.1", "spatial"),
  },
};

function entry(c: ConventionName, repository: string, tag: string, name: string): JsonObject {
  return {
    uuid: CONVENTION_UUIDS[c],
    schema_url: `https://raw.githubusercontent.com/${repository}/refs/tags/${tag}/schema.json`,
    spec_url: `https://github.com/${repository}/blob/${tag}/README.md`,
    name,
    description: DESCRIPTIONS[c],
  };
}

/** The declaration entries this package writes by default: v1, exactly as the mini-spec shows them. */
export const CONVENTION_ENTRIES: Readonly<Record<ConventionName, Readonly<JsonObject>>> = CONVENTION_ENTRIES_BY_VERSION.v1;

/** Checks a `conventions` option: `undefined` means v1. */
export function conventionsVersion(value: unknown): ConventionsVersion {
  if (value === undefined) return "v1";
  if (value === "v1" || value === "v0.1") return value;
  throw new ZarrError("INVALID_ARGUMENT", `conventions is "v1" or "v0.1", not ${JSON.stringify(value)}`);
}

/** Names accepted for each convention (only used to report mismatches, never to identify). */
const NAME_ALIASES: Readonly<Record<ConventionName, readonly string[]>> = {
  multiscales: ["multiscales"],
  proj: ["proj:", "proj", "geo-proj", "geo:proj"],
  spatial: ["spatial:", "spatial"],
};

/** Repositories (owner/name) that host each convention, past and present. */
const REPOSITORIES: Readonly<Record<string, ConventionName>> = {
  "zarr-conventions/multiscales": "multiscales",
  "zarr-experimental/multiscales": "multiscales",
  "zarr-conventions/proj": "proj",
  "zarr-conventions/geo-proj": "proj",
  "zarr-experimental/geo-proj": "proj",
  "zarr-experimental/proj": "proj",
  "zarr-conventions/spatial": "spatial",
  "zarr-experimental/spatial": "spatial",
};

const UUID_PATTERN = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
const ENTRY_KEYS = new Set(["uuid", "schema_url", "spec_url", "name", "description"]);

/** What a convention URL says: which convention and which git ref (tag or branch). */
export interface ConventionUrl {
  convention: ConventionName;
  /** The tag or branch: `v1`, `v0.1`, `v0.1.0`, `main`, ... */
  ref: string;
}

/**
 * Recognises a schema or spec URL of a GeoZarr convention: raw.githubusercontent.com
 * (`refs/tags/<tag>/`, `refs/heads/<branch>/`, `<ref>/`) and github.com (`blob/<ref>/`,
 * `tree/<ref>`) under the zarr-conventions and zarr-experimental organisations.
 * `undefined` for anything else.
 *
 * @example
 * ```ts
 * parseConventionUrl("https://raw.githubusercontent.com/zarr-experimental/geo-proj/refs/tags/v1/schema.json");
 * // { convention: "proj", ref: "v1" }
 * ```
 */
export function parseConventionUrl(url: string): ConventionUrl | undefined {
  const m = /^https?:\/\/(raw\.githubusercontent\.com|github\.com)\/([^/]+)\/([^/]+)\/(.*)$/.exec(url.trim());
  if (m === null) return undefined;
  const convention = REPOSITORIES[`${m[2].toLowerCase()}/${m[3].toLowerCase()}`];
  if (convention === undefined) return undefined;
  let rest = m[4];
  let ref: string | undefined;
  if (m[1] === "github.com") {
    const g = /^(?:blob|tree)\/([^/]+)/.exec(rest);
    ref = g?.[1];
  } else {
    rest = rest.replace(/^refs\/(?:tags|heads)\//, "");
    ref = rest.split("/")[0];
  }
  if (ref === undefined || ref === "") return undefined;
  return { convention, ref };
}

/**
 * The rules a declared version is checked against: `v0.1` for declarations of the
 * conventions' v0.1 tags (looser `proj:code`, at least one CRS field), `v1` (the mini-spec's
 * rules) for v1, for other tags and branch heads, and when no version is declared.
 */
export function rulesOfVersion(version: string): ConventionsVersion {
  return version === "v0.1" ? "v0.1" : "v1";
}

/** One entry of `zarr_conventions`, as recognised. */
export interface ConventionDeclaration {
  /** Position in the array (the uuid key's position in the geo-proj 0.1.0 object form). */
  index: number;
  /** The convention, when the entry names one this package knows. */
  convention?: ConventionName;
  /** Which field identified it. */
  identifiedBy?: "uuid" | "schema_url" | "spec_url";
  /** The uuid as written (any case). */
  uuid?: string;
  name?: string;
  /** Git ref of the URLs (`v0.1`, `v1`, `main`, ...), when they are convention URLs. */
  ref?: string;
  /**
   * The declared version: the URLs' ref (`v1`, `v0.1`, `v0.1.0`, a branch name), the
   * `version` of a geo-proj 0.1.0 entry, or `"undeclared"` when neither says.
   */
  version: string;
  /** The rules that apply to the convention's keys on this node ({@link rulesOfVersion}). */
  rules: ConventionsVersion;
  /** True for the geo-proj 0.1.0 form (`zarr_conventions` an object keyed by uuid). */
  objectForm?: boolean;
}

/** The declarations of one node. */
export interface DetectedConventions {
  /** The conventions declared (at least one entry identifies them). */
  declared: ReadonlySet<ConventionName>;
  entries: ConventionDeclaration[];
  /** Problems with the declarations, pointers relative to the node's metadata document. */
  issues: Issue[];
}

function conventionOfUuid(uuid: string): ConventionName | undefined {
  const lower = uuid.toLowerCase();
  for (const [name, id] of Object.entries(CONVENTION_UUIDS)) if (id === lower) return name as ConventionName;
  return undefined;
}

/**
 * Reads the `zarr_conventions` attribute of a node. Entries are identified by `uuid`
 * first, then `schema_url`, then `spec_url`; names and URLs that disagree with the
 * uuid are reported as warnings, unknown conventions as infos. Every known version (v1,
 * v0.1, geo-proj 0.1.0, branch heads) is the same convention; each entry records its
 * version and the rules that follow from it.
 *
 * @example
 * ```ts
 * const { declared, entries } = detectConventions(group.attributes);
 * if (declared.has("multiscales")) ...
 * entries[0].version; // "v1"
 * ```
 */
export function detectConventions(attributes: JsonObject): DetectedConventions {
  const declared = new Set<ConventionName>();
  const entries: ConventionDeclaration[] = [];
  const issues: Issue[] = [];
  const value = attributes.zarr_conventions;
  if (value === undefined) return { declared, entries, issues };
  const at = pointer("attributes", "zarr_conventions");
  if (!Array.isArray(value)) {
    const old = isJsonObject(value) ? objectFormEntries(value) : undefined;
    if (old === undefined || old.length === 0) {
      issues.push(
        issue("conventions.not-array", at, `zarr_conventions must be an array of entries, not ${describe(value)}; wrap the entry in [ ]`),
      );
      return { declared, entries, issues };
    }
    for (const d of old) {
      entries.push(d);
      if (d.convention !== undefined) declared.add(d.convention);
    }
    issues.push(
      issue(
        "conventions.superseded-form",
        at,
        `zarr_conventions is an object keyed by uuid (the geo-proj 0.1.0 form); the conventions now use an array of entries: \`zarr geozarr migrate\` (or migrate()) rewrites it as ${JSON.stringify([...declared].map((c) => CONVENTION_ENTRIES[c]))}`,
      ),
    );
    return { declared, entries, issues };
  }
  const seen = new Map<ConventionName, number>();
  value.forEach((entry, index) => {
    const here = `${at}/${index}`;
    if (!isJsonObject(entry)) {
      issues.push(issue("conventions.entry-invalid", here, `entry ${index} must be an object, not ${describe(entry)}`));
      return;
    }
    const decl = readEntry(entry, index, here, issues);
    entries.push(decl);
    if (decl.convention === undefined) return;
    const previous = seen.get(decl.convention);
    if (previous !== undefined) {
      issues.push(
        issue(
          "conventions.duplicate",
          here,
          `the ${decl.convention} convention is already declared by entry ${previous}; remove one of the two entries`,
        ),
      );
    } else seen.set(decl.convention, index);
    declared.add(decl.convention);
  });
  return { declared, entries, issues };
}

/**
 * The geo-proj 0.1.0 declaration form: `{"<uuid>": {version, schema, name, description,
 * spec, configuration?}}`. `undefined` when no key is a UUID holding an object.
 */
function objectFormEntries(value: JsonObject): ConventionDeclaration[] | undefined {
  const out: ConventionDeclaration[] = [];
  Object.entries(value).forEach(([key, v], index) => {
    if (!UUID_PATTERN.test(key.toLowerCase()) || !isJsonObject(v)) return;
    const schema = typeof v.schema === "string" ? parseConventionUrl(v.schema) : undefined;
    const spec = typeof v.spec === "string" ? parseConventionUrl(v.spec) : undefined;
    const convention = conventionOfUuid(key) ?? schema?.convention ?? spec?.convention;
    const version = typeof v.version === "string" ? v.version : (schema?.ref ?? spec?.ref ?? "undeclared");
    const d: ConventionDeclaration = { index, uuid: key, version, rules: rulesOfVersion(version), objectForm: true };
    if (convention !== undefined) {
      d.convention = convention;
      d.identifiedBy = conventionOfUuid(key) !== undefined ? "uuid" : schema !== undefined ? "schema_url" : "spec_url";
    }
    if (typeof v.name === "string") d.name = v.name;
    const ref = schema?.ref ?? spec?.ref;
    if (ref !== undefined) d.ref = ref;
    out.push(d);
  });
  return out.length === 0 ? undefined : out;
}

function readEntry(entry: JsonObject, index: number, here: string, issues: Issue[]): ConventionDeclaration {
  const decl: ConventionDeclaration = { index, version: "undeclared", rules: "v1" };
  for (const key of Object.keys(entry)) {
    if (!ENTRY_KEYS.has(key)) {
      issues.push(
        issue(
          "conventions.entry-extra-key",
          `${here}/${key}`,
          `entry ${index} has the key "${key}"; an entry holds only uuid, schema_url, spec_url, name and description: move it out of the entry`,
        ),
      );
    }
  }
  const { uuid, schema_url, spec_url, name } = entry;
  for (const [key, v] of [
    ["uuid", uuid],
    ["schema_url", schema_url],
    ["spec_url", spec_url],
    ["name", name],
    ["description", entry.description],
  ] as const) {
    if (v !== undefined && typeof v !== "string") {
      issues.push(issue("conventions.entry-invalid", `${here}/${key}`, `${key} of entry ${index} must be a string, not ${describe(v)}`));
    }
  }
  const u = typeof uuid === "string" ? uuid : undefined;
  const s = typeof schema_url === "string" ? parseConventionUrl(schema_url) : undefined;
  const p = typeof spec_url === "string" ? parseConventionUrl(spec_url) : undefined;
  if (u === undefined && typeof schema_url !== "string" && typeof spec_url !== "string") {
    issues.push(
      issue(
        "conventions.entry-invalid",
        here,
        `entry ${index} has none of uuid, schema_url, spec_url; add the convention's "uuid"`,
      ),
    );
    return decl;
  }
  if (u !== undefined) {
    decl.uuid = u;
    if (!UUID_PATTERN.test(u)) {
      const hint = UUID_PATTERN.test(u.toLowerCase()) ? `write it in lowercase: "${u.toLowerCase()}"` : "use the convention's published UUID";
      issues.push(issue("conventions.uuid-format", `${here}/uuid`, `uuid "${u}" is not a lowercase 8-4-4-4-12 hex UUID; ${hint}`));
    }
  }
  if (typeof name === "string") decl.name = name;
  const byUuid = u === undefined ? undefined : conventionOfUuid(u);
  if (byUuid !== undefined) {
    decl.convention = byUuid;
    decl.identifiedBy = "uuid";
  } else if (s !== undefined) {
    decl.convention = s.convention;
    decl.identifiedBy = "schema_url";
  } else if (p !== undefined) {
    decl.convention = p.convention;
    decl.identifiedBy = "spec_url";
  }
  const ref = s?.ref ?? p?.ref;
  if (ref !== undefined) {
    decl.ref = ref;
    decl.version = ref;
    decl.rules = rulesOfVersion(ref);
  }
  if (decl.convention === undefined) {
    const what = u ?? (typeof schema_url === "string" ? schema_url : String(spec_url));
    issues.push(issue("conventions.unknown", here, `entry ${index} declares a convention this validator does not know (${what}); its keys are not checked`));
    return decl;
  }
  const c = decl.convention;
  const clashes: string[] = [];
  if (u !== undefined && byUuid === undefined) clashes.push(`uuid "${u}" is not the ${c} uuid ${CONVENTION_UUIDS[c]}`);
  if (s !== undefined && s.convention !== c) clashes.push(`schema_url points at the ${s.convention} convention`);
  if (p !== undefined && p.convention !== c) clashes.push(`spec_url points at the ${p.convention} convention`);
  if (typeof name === "string" && !NAME_ALIASES[c].includes(name)) {
    const other = (Object.keys(NAME_ALIASES) as ConventionName[]).find((k) => NAME_ALIASES[k].includes(name));
    clashes.push(other === undefined ? `name "${name}" is not a name of ${c}` : `name "${name}" names the ${other} convention`);
  }
  if (clashes.length > 0) {
    const form = CONVENTION_ENTRIES_BY_VERSION[decl.rules][c];
    issues.push(
      issue(
        "conventions.identity-mismatch",
        here,
        `entry ${index} is read as the ${c} convention (by its ${decl.identifiedBy}), but ${clashes.join("; ")}; write the entry as ${JSON.stringify(form)}`,
      ),
    );
  }
  return decl;
}

/** True when the node's `zarr_conventions` declares `convention`. */
export function hasConvention(attributes: JsonObject, convention: ConventionName): boolean {
  return detectConventions(attributes).declared.has(convention);
}

/**
 * The `zarr_conventions` entries for the given conventions, in the given order: v1 (the
 * mini-spec's) unless `version` is `"v0.1"`.
 *
 * @example
 * ```ts
 * conventionDeclarations(["multiscales", "proj", "spatial"]); // three v1 entries with uuid, URLs, name, description
 * conventionDeclarations(["proj"], "v0.1")[0].name; // "proj"
 * ```
 */
export function conventionDeclarations(conventions: Iterable<ConventionName>, version: ConventionsVersion = "v1"): JsonObject[] {
  const entries = CONVENTION_ENTRIES_BY_VERSION[conventionsVersion(version)];
  const out: JsonObject[] = [];
  for (const c of new Set(conventions)) out.push({ ...entries[c] });
  return out;
}

/**
 * Returns `attributes` with `zarr_conventions` declaring `conventions` (v1 entries unless
 * `version` is `"v0.1"`): any existing entry for the same convention is replaced, other
 * entries are kept. An object-form (geo-proj 0.1.0) declaration is replaced whole.
 *
 * @example
 * ```ts
 * withConventions({ "proj:code": "EPSG:4326" }, ["proj"]).zarr_conventions; // [the v1 proj: entry]
 * ```
 */
export function withConventions(attributes: JsonObject, conventions: Iterable<ConventionName>, version: ConventionsVersion = "v1"): JsonObject {
  const entries = CONVENTION_ENTRIES_BY_VERSION[conventionsVersion(version)];
  const wanted = new Set(conventions);
  const existing = Array.isArray(attributes.zarr_conventions) ? attributes.zarr_conventions : [];
  const kept: JsonValue[] = [];
  const replaced = new Set<ConventionName>();
  for (const e of existing) {
    const c = isJsonObject(e) ? readEntry(e, 0, "", []).convention : undefined;
    if (c !== undefined && wanted.has(c)) {
      if (!replaced.has(c)) kept.push({ ...entries[c] });
      replaced.add(c);
    } else kept.push(e);
  }
  for (const c of wanted) if (!replaced.has(c)) kept.push({ ...entries[c] });
  return { ...attributes, zarr_conventions: kept };
}

/** Short description of a JSON value for messages. */
export function describe(value: JsonValue | undefined): string {
  if (value === undefined) return "nothing";
  if (value === null) return "null";
  if (Array.isArray(value)) return `an array of ${value.length}`;
  if (typeof value === "object") return "an object";
  if (typeof value === "string") return `the string ${JSON.stringify(value.length > 40 ? `${value.slice(0, 40)}…` : value)}`;
  return `${typeof value} ${String(value)}`;
}
