/**
 * The `zarr_conventions` declaration: recognising the GeoZarr conventions by uuid, then
 * schema URL, then spec URL (never by name), with the aliases real data uses, and
 * writing the v0.1 declarations.
 */
import { isJsonObject, type JsonObject, type JsonValue } from "@zarr/spec";
import { type Issue, issue, pointer } from "./findings.js";

/** The three GeoZarr conventions. */
export type ConventionName = "multiscales" | "proj" | "spatial";

/** The permanent UUIDs of the conventions. */
export const CONVENTION_UUIDS: Readonly<Record<ConventionName, string>> = {
  multiscales: "d35379db-88df-4056-af3a-620245f8e347",
  proj: "f17cb550-5864-4468-aeb7-f3180cfb622f",
  spatial: "689b58e2-cf7b-45e0-9fff-9cfc0883d6b4",
};

/** The declaration entries this package writes (v0.1, exactly as the published schemas pin them). */
export const CONVENTION_ENTRIES: Readonly<Record<ConventionName, Readonly<JsonObject>>> = {
  multiscales: {
    uuid: CONVENTION_UUIDS.multiscales,
    schema_url: "https://raw.githubusercontent.com/zarr-conventions/multiscales/refs/tags/v0.1/schema.json",
    spec_url: "https://github.com/zarr-conventions/multiscales/blob/v0.1/README.md",
    name: "multiscales",
    description: "Multiscale layout of zarr datasets",
  },
  proj: {
    uuid: CONVENTION_UUIDS.proj,
    schema_url: "https://raw.githubusercontent.com/zarr-conventions/proj/refs/tags/v0.1/schema.json",
    spec_url: "https://github.com/zarr-conventions/proj/blob/v0.1/README.md",
    name: "proj",
    description: "Coordinate reference system information for geospatial data",
  },
  spatial: {
    uuid: CONVENTION_UUIDS.spatial,
    schema_url: "https://raw.githubusercontent.com/zarr-conventions/spatial/refs/tags/v0.1/schema.json",
    spec_url: "https://github.com/zarr-conventions/spatial/blob/v0.1/README.md",
    name: "spatial",
    description: "Spatial coordinate information",
  },
};

/** Names accepted for each convention (only used to report mismatches, never to identify). */
const NAME_ALIASES: Readonly<Record<ConventionName, readonly string[]>> = {
  multiscales: ["multiscales"],
  proj: ["proj:", "proj", "geo-proj"],
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

/** What a convention URL says: which convention, which git ref (tag or branch), and whether it is the current v0.1 home. */
export interface ConventionUrl {
  convention: ConventionName;
  ref: string;
  current: boolean;
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
 * // { convention: "proj", ref: "v1", current: false }
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
  const current = m[2].toLowerCase() === "zarr-conventions" && m[3].toLowerCase() !== "geo-proj" && ref === "v0.1";
  return { convention, ref, current };
}

/** One entry of `zarr_conventions`, as recognised. */
export interface ConventionDeclaration {
  /** Position in the array. */
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
 * uuid are reported as warnings, as are pre-v0.1 URLs (info) and unknown conventions (info).
 *
 * @example
 * ```ts
 * const { declared } = detectConventions(group.attributes);
 * if (declared.has("multiscales")) ...
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
    issues.push(
      issue("conventions.not-array", at, `zarr_conventions must be an array of entries, not ${describe(value)}; wrap the entry in [ ]`),
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

function readEntry(entry: JsonObject, index: number, here: string, issues: Issue[]): ConventionDeclaration {
  const decl: ConventionDeclaration = { index };
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
  decl.ref = s?.ref ?? p?.ref;
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
    issues.push(
      issue(
        "conventions.identity-mismatch",
        here,
        `entry ${index} is read as the ${c} convention (by its ${decl.identifiedBy}), but ${clashes.join("; ")}; write the entry as ${JSON.stringify(CONVENTION_ENTRIES[c])}`,
      ),
    );
  }
  const old = [s, p].filter((x): x is ConventionUrl => x !== undefined && !x.current);
  if (old.length > 0) {
    issues.push(
      issue(
        "conventions.legacy-url",
        here,
        `entry ${index} (${c}) points at "${old[0].ref}" URLs; the published version is v0.1: use ${CONVENTION_ENTRIES[c].schema_url}`,
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
 * The v0.1 `zarr_conventions` entries for the given conventions, in the given order.
 *
 * @example
 * ```ts
 * conventionDeclarations(["multiscales", "proj", "spatial"]); // three entries with uuid, URLs, name, description
 * ```
 */
export function conventionDeclarations(conventions: Iterable<ConventionName>): JsonObject[] {
  const out: JsonObject[] = [];
  for (const c of new Set(conventions)) out.push({ ...CONVENTION_ENTRIES[c] });
  return out;
}

/**
 * Returns `attributes` with `zarr_conventions` declaring `conventions` (v0.1 entries): any
 * existing entry for the same convention is replaced, other entries are kept.
 */
export function withConventions(attributes: JsonObject, conventions: Iterable<ConventionName>): JsonObject {
  const wanted = new Set(conventions);
  const existing = Array.isArray(attributes.zarr_conventions) ? attributes.zarr_conventions : [];
  const kept: JsonValue[] = [];
  const replaced = new Set<ConventionName>();
  for (const entry of existing) {
    const c = isJsonObject(entry) ? readEntry(entry, 0, "", []).convention : undefined;
    if (c !== undefined && wanted.has(c)) {
      if (!replaced.has(c)) kept.push({ ...CONVENTION_ENTRIES[c] });
      replaced.add(c);
    } else kept.push(entry);
  }
  for (const c of wanted) if (!replaced.has(c)) kept.push({ ...CONVENTION_ENTRIES[c] });
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
