/**
 * Coordinate reference systems as the conventions and legacy tools write them: an
 * `AUTHORITY:CODE`, WKT (2 or 1) or PROJJSON. No CRS database is needed: identities are
 * compared through their authority codes, read from the top level of WKT (`ID[...]`,
 * `AUTHORITY[...]`) and PROJJSON (`id`, `ids`, a BoundCRS's source).
 */
import { isJsonObject, type JsonObject, type JsonValue } from "@zarr/spec";

/** A CRS in any of the forms the proj convention allows. At least one field is set. */
export interface Crs {
  /** `AUTHORITY:CODE`, e.g. `EPSG:32633`, `OGC:CRS84`. */
  code?: string;
  /** WKT2 (or, in legacy data, WKT1). */
  wkt2?: string;
  /** A PROJJSON object. */
  projjson?: JsonObject;
}

/** Where a resolved CRS came from. */
export type CrsSource =
  | "proj"
  | "proj-undeclared"
  | "gdal:_CRS"
  | "cf:grid_mapping"
  | "cf:crs_wkt"
  | "stac:proj:epsg";

/** A CRS with its source: the node it was read from and how. */
export interface ResolvedCrs extends Crs {
  source: CrsSource;
  /** Path of the node holding it. */
  from: string;
}

/** The CRS types PROJJSON defines (a `Transformation` or `Datum` is not a CRS). */
const PROJJSON_CRS_TYPES = new Set([
  "BoundCRS",
  "CompoundCRS",
  "DerivedEngineeringCRS",
  "DerivedGeodeticCRS",
  "DerivedGeographicCRS",
  "DerivedParametricCRS",
  "DerivedProjectedCRS",
  "DerivedTemporalCRS",
  "DerivedVerticalCRS",
  "EngineeringCRS",
  "GeodeticCRS",
  "GeographicCRS",
  "ParametricCRS",
  "ProjectedCRS",
  "TemporalCRS",
  "VerticalCRS",
]);

const WKT1_KEYWORDS = /^\s*(PROJCS|GEOGCS|GEOCCS|COMPD_CS|VERT_CS|LOCAL_CS|FITTED_CS)\s*\[/i;
const WKT2_KEYWORDS =
  /^\s*(PROJCRS|PROJECTEDCRS|GEOGCRS|GEOGRAPHICCRS|GEODCRS|GEODETICCRS|BASEGEOGCRS|COMPOUNDCRS|BOUNDCRS|VERTCRS|VERTICALCRS|ENGCRS|ENGINEERINGCRS|TIMECRS|PARAMETRICCRS|DERIVEDPROJCRS)\s*\[/i;

/** `"wkt2"`, `"wkt1"` or `undefined` (not WKT) for a string. */
export function wktVersion(text: string): "wkt1" | "wkt2" | undefined {
  if (WKT2_KEYWORDS.test(text)) return "wkt2";
  if (WKT1_KEYWORDS.test(text)) return "wkt1";
  return undefined;
}

/** True when `code` has the `AUTHORITY:CODE` form of proj:code (`^[^:]+:[^:]+$`). */
export function isCrsCode(code: string): boolean {
  return /^[^:\s]+:[^:\s]+$/.test(code);
}

/**
 * The authority code at the top level of a WKT string (WKT2 `ID["EPSG",32633]` or WKT1
 * `AUTHORITY["EPSG","32633"]`), ignoring those of nested elements (datum, base CRS...).
 */
export function wktAuthorityCode(wkt: string): string | undefined {
  let depth = 0;
  let found: string | undefined;
  let inString = false;
  for (let i = 0; i < wkt.length; i++) {
    const ch = wkt[i];
    if (ch === '"') {
      // WKT escapes a quote by doubling it.
      if (inString && wkt[i + 1] === '"') i++;
      else inString = !inString;
      continue;
    }
    if (inString) continue;
    if (ch === "[" || ch === "(") depth++;
    else if (ch === "]" || ch === ")") depth--;
    else if (depth === 1 && /[A-Za-z]/.test(ch) && !/[A-Za-z_]/.test(wkt[i - 1] ?? "")) {
      const m = /^(ID|AUTHORITY)\s*[[(]\s*"([^"]+)"\s*,\s*"?([^",\])]+)"?/i.exec(wkt.slice(i, i + 120));
      if (m) found = `${m[2].toUpperCase()}:${m[3].trim()}`;
    }
  }
  return found;
}

/** The name of the CRS a WKT string describes (its first quoted string). */
export function wktName(wkt: string): string | undefined {
  return /^\s*[A-Za-z_]+\s*[[(]\s*"((?:[^"]|"")*)"/.exec(wkt)?.[1]?.replace(/""/g, '"');
}

function projjsonId(value: JsonValue | undefined): string | undefined {
  if (!isJsonObject(value)) return undefined;
  const id = isJsonObject(value.id) ? value.id : Array.isArray(value.ids) && isJsonObject(value.ids[0]) ? value.ids[0] : undefined;
  if (id !== undefined && typeof id.authority === "string" && (typeof id.code === "number" || typeof id.code === "string")) {
    return `${id.authority.toUpperCase()}:${id.code}`;
  }
  return undefined;
}

/** The authority code of a PROJJSON CRS (`id`/`ids`; a BoundCRS is identified by its source CRS). */
export function projjsonAuthorityCode(projjson: JsonObject): string | undefined {
  const own = projjsonId(projjson);
  if (own !== undefined) return own;
  if (projjson.type === "BoundCRS") return projjsonId(projjson.source_crs);
  return undefined;
}

/** Why a PROJJSON value is not a CRS, or `undefined` when it is one. */
export function projjsonProblem(value: JsonValue): string | undefined {
  if (!isJsonObject(value)) return "it is not a JSON object";
  if (typeof value.type !== "string") return 'it has no "type"';
  if (!PROJJSON_CRS_TYPES.has(value.type)) return `its type "${value.type}" is not a CRS type`;
  return undefined;
}

/**
 * The authority code of a CRS: `code` itself, else from the WKT's or PROJJSON's top-level
 * identifier. `OGC:CRS84` and `EPSG:4326` stay distinct (their axis orders differ).
 *
 * @example
 * ```ts
 * crsCode({ wkt2: 'PROJCS["WGS 84 / UTM zone 32N", ..., AUTHORITY["EPSG","32632"]]' }); // "EPSG:32632"
 * ```
 */
export function crsCode(crs: Crs): string | undefined {
  if (crs.code !== undefined) return normaliseCode(crs.code);
  if (crs.projjson !== undefined) {
    const c = projjsonAuthorityCode(crs.projjson);
    if (c !== undefined) return c;
  }
  if (crs.wkt2 !== undefined) return wktAuthorityCode(crs.wkt2);
  return undefined;
}

/**
 * Normalises authority codes: uppercase authority, OGC/OpenGIS URIs and URNs
 * (`http://www.opengis.net/def/crs/EPSG/0/3857`, `urn:ogc:def:crs:EPSG::3857`) to `EPSG:3857`.
 */
export function normaliseCode(code: string): string {
  const t = code.trim();
  const uri = /opengis\.net\/def\/crs\/([^/]+)\/[^/]+\/([^/?#]+)/i.exec(t);
  if (uri) return `${uri[1].toUpperCase()}:${uri[2]}`;
  const urn = /^urn:ogc:def:crs:([^:]+):[^:]*:(.+)$/i.exec(t);
  if (urn) return `${urn[1].toUpperCase()}:${urn[2]}`;
  const i = t.indexOf(":");
  return i > 0 ? `${t.slice(0, i).toUpperCase()}:${t.slice(i + 1)}` : t;
}

/** The EPSG number of a CRS, when it has one. */
export function epsgCode(crs: Crs): number | undefined {
  const c = crsCode(crs);
  const m = c === undefined ? null : /^EPSG:(\d+)$/.exec(c);
  return m ? Number(m[1]) : undefined;
}

/** True when two CRSs are known to be the same (same authority code, or identical WKT/PROJJSON). `undefined`: cannot tell. */
export function sameCrs(p: Crs, q: Crs): boolean | undefined {
  const a = crsCode(p);
  const b = crsCode(q);
  if (a !== undefined && b !== undefined) return a === b;
  if (p.wkt2 !== undefined && q.wkt2 !== undefined && p.wkt2 === q.wkt2) return true;
  if (p.projjson !== undefined && q.projjson !== undefined && JSON.stringify(p.projjson) === JSON.stringify(q.projjson)) return true;
  return undefined;
}

/** A short human-readable label: the code, else the WKT/PROJJSON name. */
export function crsLabel(crs: Crs): string {
  const code = crsCode(crs);
  const name =
    crs.projjson !== undefined && typeof crs.projjson.name === "string"
      ? crs.projjson.name
      : crs.wkt2 !== undefined
        ? wktName(crs.wkt2)
        : undefined;
  if (code !== undefined && name !== undefined) return `${code} (${name})`;
  return code ?? name ?? "unknown CRS";
}

/**
 * Reads GDAL's `_CRS` attribute: an object with `url` (an OGC CRS URL), `wkt` and/or
 * `projjson`, or a plain string (a WKT, a URL/URN, or `AUTHORITY:CODE`).
 */
export function crsFromGdal(value: JsonValue | undefined): Crs | undefined {
  if (typeof value === "string") return crsFromString(value);
  if (!isJsonObject(value)) return undefined;
  const out: Crs = {};
  if (typeof value.url === "string") out.code = normaliseCode(value.url);
  if (typeof value.wkt === "string") out.wkt2 = value.wkt;
  if (isJsonObject(value.projjson)) out.projjson = value.projjson;
  return out.code === undefined && out.wkt2 === undefined && out.projjson === undefined ? undefined : out;
}

/** A CRS from a string: WKT, an OGC URL/URN, or `AUTHORITY:CODE`. */
export function crsFromString(text: string): Crs | undefined {
  if (wktVersion(text) !== undefined) return { wkt2: text };
  const code = normaliseCode(text);
  return isCrsCode(code) ? { code } : undefined;
}

/**
 * True when the CRS is geographic (longitude/latitude): EPSG:4326, OGC:CRS84, EPSG:4258,
 * EPSG:4269..., a PROJJSON GeographicCRS, or a WKT GEOGCS/GEOGCRS. Used to wrap longitudes.
 */
export function isGeographic(crs: Crs): boolean {
  if (crs.projjson !== undefined) {
    const t = crs.projjson.type === "BoundCRS" && isJsonObject(crs.projjson.source_crs) ? crs.projjson.source_crs.type : crs.projjson.type;
    return t === "GeographicCRS";
  }
  if (crs.wkt2 !== undefined) return /^\s*(GEOGCS|GEOGCRS|GEOGRAPHICCRS)\s*\[/i.test(crs.wkt2);
  const code = crsCode(crs);
  return code !== undefined && GEOGRAPHIC_CODES.has(code);
}

const GEOGRAPHIC_CODES = new Set(["EPSG:4326", "OGC:CRS84", "OGC:CRS83", "OGC:CRS27", "EPSG:4258", "EPSG:4269", "EPSG:4267", "EPSG:4230", "EPSG:4283", "EPSG:4618", "EPSG:4674", "EPSG:6318", "EPSG:4019"]);
