/**
 * Zarr v2 metadata documents: `.zarray`, `.zgroup`, `.zattrs` and consolidated
 * `.zmetadata`, parsed from untrusted JSON into typed values (or a `MetadataError` naming
 * the store key and JSON path).
 */
import { describeJson, isJsonObject, type JsonObject, type JsonPath, type JsonValue, MetadataError } from "@zarr/spec";
import { type Dtype, parseDtype } from "./dtype.js";

/** A numcodecs codec configuration: `{"id": "blosc", ...}`. */
export interface CodecConfigV2 extends JsonObject {
  id: string;
}

/** A `.zarray` document. */
export interface ArrayMetadataV2 {
  zarr_format: 2;
  shape: number[];
  chunks: number[];
  /** A type string or a structured list, as written. */
  dtype: JsonValue;
  compressor: CodecConfigV2 | null;
  fill_value: JsonValue;
  order: "C" | "F";
  filters: CodecConfigV2[] | null;
  /** `"."` (the default) or `"/"`. */
  dimension_separator?: "." | "/";
}

/** A `.zgroup` document. */
export interface GroupMetadataV2 {
  zarr_format: 2;
}

/** A `.zmetadata` document: every `.zarray`, `.zgroup` and `.zattrs` below a group, by key relative to it. */
export interface ConsolidatedMetadataV2 {
  zarr_consolidated_format: 1;
  metadata: Record<string, JsonObject>;
}

/** The three v2 document names. */
export const ZARRAY = ".zarray";
export const ZGROUP = ".zgroup";
export const ZATTRS = ".zattrs";
export const ZMETADATA = ".zmetadata";

function fail(key: string | undefined, path: JsonPath, problem: string): never {
  throw new MetadataError(path, problem, { key });
}

function positiveInts(value: JsonValue | undefined, key: string | undefined, field: string, min: number): number[] {
  if (!Array.isArray(value)) fail(key, [field], `expected a list of integers, got ${describeJson(value)}`);
  return value.map((n, i) => {
    if (typeof n !== "number" || !Number.isSafeInteger(n) || n < min) {
      fail(key, [field, i], `expected an integer of at least ${min}, got ${describeJson(n)}`);
    }
    return n;
  });
}

function codecConfig(value: JsonValue, key: string | undefined, path: JsonPath): CodecConfigV2 {
  if (!isJsonObject(value)) fail(key, path, `expected a codec configuration {"id": ...}, got ${describeJson(value)}`);
  if (typeof value.id !== "string" || value.id === "") fail(key, [...path, "id"], `expected a codec id, got ${describeJson(value.id)}`);
  return value as CodecConfigV2;
}

/**
 * Parses and validates a `.zarray` document (unknown keys are ignored, as the v2 spec
 * asks). Returns the document and its parsed dtype.
 */
export function parseArrayMetadataV2(doc: JsonValue, options: { key?: string } = {}): { metadata: ArrayMetadataV2; dtype: Dtype } {
  const key = options.key;
  if (!isJsonObject(doc)) fail(key, [], `expected a JSON object, got ${describeJson(doc)}`);
  if (doc.zarr_format !== 2) fail(key, ["zarr_format"], `expected 2, got ${describeJson(doc.zarr_format)}`);
  const shape = positiveInts(doc.shape, key, "shape", 0);
  const chunks = positiveInts(doc.chunks, key, "chunks", 1);
  if (chunks.length !== shape.length) {
    fail(key, ["chunks"], `expected ${shape.length} chunk sizes (one per dimension), got ${chunks.length}`);
  }
  if (shape.reduce((a, b) => a * b, 1) > Number.MAX_SAFE_INTEGER) fail(key, ["shape"], "the array would hold more than 2^53−1 elements");
  if (!("dtype" in doc)) fail(key, ["dtype"], 'required field "dtype" is missing');
  let dtype: Dtype;
  try {
    dtype = parseDtype(doc.dtype, ["dtype"]);
  } catch (error) {
    if (error instanceof MetadataError) fail(key, error.path, error.problem);
    throw error;
  }
  const compressor = doc.compressor === undefined || doc.compressor === null ? null : codecConfig(doc.compressor, key, ["compressor"]);
  let filters: CodecConfigV2[] | null = null;
  if (doc.filters !== undefined && doc.filters !== null) {
    if (!Array.isArray(doc.filters)) fail(key, ["filters"], `expected a list of codec configurations or null, got ${describeJson(doc.filters)}`);
    filters = doc.filters.map((f, i) => codecConfig(f, key, ["filters", i]));
  }
  const order = doc.order ?? "C";
  if (order !== "C" && order !== "F") fail(key, ["order"], `expected "C" or "F", got ${describeJson(order)}`);
  const metadata: ArrayMetadataV2 = {
    zarr_format: 2,
    shape,
    chunks,
    dtype: doc.dtype,
    compressor,
    fill_value: doc.fill_value === undefined ? null : doc.fill_value,
    order,
    filters,
  };
  const sep = doc.dimension_separator;
  if (sep !== undefined && sep !== null) {
    if (sep !== "." && sep !== "/") fail(key, ["dimension_separator"], `expected "." or "/", got ${describeJson(sep)}`);
    metadata.dimension_separator = sep;
  }
  return { metadata, dtype };
}

/** Parses a `.zgroup` document. */
export function parseGroupMetadataV2(doc: JsonValue, options: { key?: string } = {}): GroupMetadataV2 {
  if (!isJsonObject(doc)) fail(options.key, [], `expected a JSON object, got ${describeJson(doc)}`);
  if (doc.zarr_format !== 2) fail(options.key, ["zarr_format"], `expected 2, got ${describeJson(doc.zarr_format)}`);
  return { zarr_format: 2 };
}

/** Parses a `.zattrs` document (`{}` when absent). */
export function parseAttributesV2(doc: JsonValue | undefined, options: { key?: string } = {}): JsonObject {
  if (doc === undefined) return {};
  if (!isJsonObject(doc)) fail(options.key, [], `expected a JSON object of attributes, got ${describeJson(doc)}`);
  return doc;
}

/** Parses a `.zmetadata` document (the documents inside are checked when they are used). */
export function parseConsolidatedV2(doc: JsonValue, options: { key?: string } = {}): ConsolidatedMetadataV2 {
  const key = options.key;
  if (!isJsonObject(doc)) fail(key, [], `expected a JSON object, got ${describeJson(doc)}`);
  if (doc.zarr_consolidated_format !== 1) {
    fail(key, ["zarr_consolidated_format"], `expected 1, got ${describeJson(doc.zarr_consolidated_format)}`);
  }
  const metadata = doc.metadata;
  if (!isJsonObject(metadata)) fail(key, ["metadata"], `expected an object of documents, got ${describeJson(metadata)}`);
  for (const [k, v] of Object.entries(metadata)) {
    if (!isJsonObject(v)) fail(key, ["metadata", k], `expected a JSON object, got ${describeJson(v)}`);
  }
  return { zarr_consolidated_format: 1, metadata: metadata as Record<string, JsonObject> };
}

/** The `_ARRAY_DIMENSIONS` attribute (xarray's dimension names) when it names every dimension. */
export function dimensionNamesOf(attributes: JsonObject, ndim: number): string[] | undefined {
  const dims = attributes._ARRAY_DIMENSIONS;
  if (!Array.isArray(dims) || dims.length !== ndim || !dims.every((d) => typeof d === "string")) return undefined;
  return dims as string[];
}
