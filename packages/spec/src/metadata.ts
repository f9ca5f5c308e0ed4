/**
 * Zarr v3 metadata documents (`zarr.json`): their types, and parsers that turn
 * untrusted JSON into them or throw a `MetadataError` naming the JSON path.
 */
import { describeJson, type JsonPath, MetadataError } from "./errors.js";
import type { ExtensionObject } from "./extension.js";
import { isJsonObject, type JsonObject, type JsonValue } from "./json.js";

/** User attributes. */
export type Attributes = JsonObject;

/** The `zarr.json` of an array, normalised (extension short-hands expanded). */
export interface ArrayMetadata {
  zarr_format: 3;
  node_type: "array";
  shape: number[];
  data_type: ExtensionObject;
  chunk_grid: ExtensionObject;
  chunk_key_encoding: ExtensionObject;
  /** As written; the data type interprets it. */
  fill_value: JsonValue;
  codecs: ExtensionObject[];
  attributes: Attributes;
  storage_transformers: ExtensionObject[];
  /** One name (or null) per dimension, when given. */
  dimension_names?: (string | null)[];
  /** Unknown top-level fields that carried `"must_understand": false`, kept for writing back. */
  extra_fields?: JsonObject;
}

/** Inline consolidated metadata of a group: every descendant's document by relative path. */
export interface ConsolidatedMetadata {
  kind: "inline";
  must_understand: false;
  metadata: Record<string, NodeMetadata>;
}

/** The `zarr.json` of a group. */
export interface GroupMetadata {
  zarr_format: 3;
  node_type: "group";
  attributes: Attributes;
  /** Present (possibly null) when the document has the field. */
  consolidated_metadata?: ConsolidatedMetadata | null;
  extra_fields?: JsonObject;
}

/** An array or group document. */
export type NodeMetadata = ArrayMetadata | GroupMetadata;

interface ParseOptions {
  /** Store key of the document, named in error messages. */
  key?: string;
}

class Ctx {
  constructor(readonly key: string | undefined) {}
  fail(path: JsonPath, problem: string): never {
    throw new MetadataError(path, problem, { key: this.key });
  }
  expected(path: JsonPath, what: string, got: unknown): never {
    this.fail(path, `expected ${what}, got ${describeJson(got)}`);
  }
}

const ARRAY_FIELDS = new Set([
  "zarr_format",
  "node_type",
  "shape",
  "data_type",
  "chunk_grid",
  "chunk_key_encoding",
  "fill_value",
  "codecs",
  "attributes",
  "storage_transformers",
  "dimension_names",
]);
const GROUP_FIELDS = new Set(["zarr_format", "node_type", "attributes", "consolidated_metadata"]);

function unknownFields(doc: JsonObject, known: Set<string>, path: JsonPath, ctx: Ctx): JsonObject | undefined {
  let extra: JsonObject | undefined;
  for (const [k, v] of Object.entries(doc)) {
    if (known.has(k)) continue;
    if (isJsonObject(v) && v.must_understand === false) {
      extra ??= {};
      extra[k] = v;
      continue;
    }
    ctx.fail(
      [...path, k],
      `unknown field "${k}" (a field this implementation does not understand must be an object with "must_understand": false)`,
    );
  }
  return extra;
}

/**
 * Parses an extension definition: `"name"` (v3.1 short-hand) or
 * `{"name", "configuration"?, "must_understand"?}`.
 */
export function parseExtension(
  value: JsonValue,
  path: JsonPath,
  options: ParseOptions & { allowMustUnderstand?: boolean; extraKeys?: readonly string[] } = {},
): ExtensionObject {
  const ctx: Ctx = new Ctx(options.key);
  if (typeof value === "string") {
    if (value === "") ctx.fail(path, "extension name must not be empty");
    return { name: value, configuration: {} };
  }
  if (!isJsonObject(value)) ctx.expected(path, 'a name or an object {"name", "configuration"}', value);
  const { name, configuration, must_understand } = value;
  if (typeof name !== "string" || name === "") ctx.expected([...path, "name"], "a non-empty string", name);
  let config: JsonObject = {};
  if (configuration !== undefined) {
    if (!isJsonObject(configuration)) ctx.expected([...path, "configuration"], "an object", configuration);
    config = configuration;
  }
  const out: ExtensionObject = { name, configuration: config };
  if (must_understand !== undefined) {
    if (typeof must_understand !== "boolean") {
      ctx.expected([...path, "must_understand"], "a boolean", must_understand);
    }
    if (options.allowMustUnderstand === false && must_understand === false) {
      ctx.fail([...path, "must_understand"], '"must_understand": false is not allowed here');
    }
    out.must_understand = must_understand;
  }
  for (const k of Object.keys(value)) {
    if (k !== "name" && k !== "configuration" && k !== "must_understand" && !options.extraKeys?.includes(k)) {
      ctx.fail([...path, k], `unknown field "${k}" in extension definition "${name}"`);
    }
  }
  return out;
}

function parseExtensionList(value: JsonValue | undefined, path: JsonPath, ctx: Ctx, required: boolean) {
  if (value === undefined && !required) return [];
  if (!Array.isArray(value)) ctx.expected(path, "an array of extension definitions", value);
  return value.map((v, i) => parseExtension(v, [...path, i], { key: ctx.key }));
}

function parseAttributes(value: JsonValue | undefined, path: JsonPath, ctx: Ctx): Attributes {
  if (value === undefined) return {};
  if (!isJsonObject(value)) ctx.expected(path, "an object", value);
  return value;
}

function checkHeader(doc: JsonValue, nodeType: "array" | "group" | undefined, ctx: Ctx): JsonObject {
  if (!isJsonObject(doc)) ctx.expected([], "a JSON object", doc);
  if (doc.zarr_format !== 3) {
    ctx.expected(["zarr_format"], "3", doc.zarr_format);
  }
  if (doc.node_type !== "array" && doc.node_type !== "group") {
    ctx.expected(["node_type"], '"array" or "group"', doc.node_type);
  }
  if (nodeType !== undefined && doc.node_type !== nodeType) {
    ctx.fail(["node_type"], `expected "${nodeType}", got "${doc.node_type}"`);
  }
  return doc;
}

/**
 * Parses and validates the `zarr.json` of an array.
 *
 * @example
 * ```ts
 * const meta = parseArrayMetadata(parseJson(text), { key: "temp/zarr.json" });
 * meta.shape; // [365, 721, 1440]
 * ```
 */
export function parseArrayMetadata(doc: JsonValue, options: ParseOptions = {}): ArrayMetadata {
  const ctx: Ctx = new Ctx(options.key);
  const d = checkHeader(doc, "array", ctx);
  const shape = d.shape;
  if (!Array.isArray(shape)) ctx.expected(["shape"], "an array of non-negative integers", shape);
  let size = 1;
  shape.forEach((n, i) => {
    if (typeof n !== "number" || !Number.isSafeInteger(n) || n < 0) {
      ctx.expected(["shape", i], "a non-negative integer below 2^53", n);
    }
    size *= n;
  });
  if (size > Number.MAX_SAFE_INTEGER) {
    ctx.fail(["shape"], `the array would hold ${size} elements, more than 2^53−1`);
  }
  for (const field of ["data_type", "chunk_grid", "chunk_key_encoding", "fill_value", "codecs"]) {
    if (!(field in d)) ctx.fail([field], `required field "${field}" is missing`);
  }
  const data_type = parseExtension(d.data_type, ["data_type"], {
    key: ctx.key,
    allowMustUnderstand: false,
    extraKeys: ["fallback"],
  });
  const chunk_grid = parseExtension(d.chunk_grid, ["chunk_grid"], { key: ctx.key, allowMustUnderstand: false });
  const chunk_key_encoding = parseExtension(d.chunk_key_encoding, ["chunk_key_encoding"], {
    key: ctx.key,
    allowMustUnderstand: false,
  });
  const codecs = parseExtensionList(d.codecs, ["codecs"], ctx, true);
  if (codecs.length === 0) ctx.fail(["codecs"], "at least one codec (an array→bytes codec such as bytes) is required");
  const storage_transformers = parseExtensionList(d.storage_transformers, ["storage_transformers"], ctx, false);
  const out: ArrayMetadata = {
    zarr_format: 3,
    node_type: "array",
    shape: shape as number[],
    data_type,
    chunk_grid,
    chunk_key_encoding,
    fill_value: d.fill_value,
    codecs,
    attributes: parseAttributes(d.attributes, ["attributes"], ctx),
    storage_transformers,
  };
  if (d.dimension_names !== undefined && d.dimension_names !== null) {
    const names = d.dimension_names;
    if (!Array.isArray(names)) ctx.expected(["dimension_names"], "an array of strings or nulls", names);
    if (names.length !== shape.length) {
      ctx.fail(["dimension_names"], `expected ${shape.length} names (one per dimension), got ${names.length}`);
    }
    names.forEach((n, i) => {
      if (n !== null && typeof n !== "string") ctx.expected(["dimension_names", i], "a string or null", n);
    });
    out.dimension_names = names as (string | null)[];
  }
  const extra = unknownFields(d, ARRAY_FIELDS, [], ctx);
  if (extra) out.extra_fields = extra;
  return out;
}

/**
 * Parses and validates the `zarr.json` of a group, including inline consolidated
 * metadata (every nested document is validated too).
 */
export function parseGroupMetadata(doc: JsonValue, options: ParseOptions = {}): GroupMetadata {
  const ctx: Ctx = new Ctx(options.key);
  const d = checkHeader(doc, "group", ctx);
  const out: GroupMetadata = {
    zarr_format: 3,
    node_type: "group",
    attributes: parseAttributes(d.attributes, ["attributes"], ctx),
  };
  if ("consolidated_metadata" in d) {
    out.consolidated_metadata = parseConsolidated(d.consolidated_metadata, ["consolidated_metadata"], ctx);
  }
  const extra = unknownFields(d, GROUP_FIELDS, [], ctx);
  if (extra) out.extra_fields = extra;
  return out;
}

function parseConsolidated(value: JsonValue, path: JsonPath, ctx: Ctx): ConsolidatedMetadata | null {
  if (value === null) return null;
  if (!isJsonObject(value)) ctx.expected(path, "an object or null", value);
  if (value.kind !== "inline") ctx.expected([...path, "kind"], '"inline"', value.kind);
  const metadata = value.metadata;
  if (!isJsonObject(metadata)) ctx.expected([...path, "metadata"], "an object", metadata);
  const out: Record<string, NodeMetadata> = {};
  for (const [rel, node] of Object.entries(metadata)) {
    try {
      out[rel] = parseNodeMetadata(node, { key: ctx.key });
    } catch (error) {
      if (error instanceof MetadataError) {
        throw new MetadataError([...path, "metadata", rel, ...error.path], error.problem, {
          key: ctx.key,
        });
      }
      throw error;
    }
  }
  return { kind: "inline", must_understand: false, metadata: out };
}

/** Parses an array or group document, dispatching on `node_type`. */
export function parseNodeMetadata(doc: JsonValue, options: ParseOptions = {}): NodeMetadata {
  const ctx: Ctx = new Ctx(options.key);
  const d = checkHeader(doc, undefined, ctx);
  return d.node_type === "array" ? parseArrayMetadata(d, options) : parseGroupMetadata(d, options);
}

function extensionToJson(ext: ExtensionObject): JsonObject {
  const out: JsonObject = { name: ext.name, configuration: ext.configuration };
  if (ext.must_understand !== undefined) out.must_understand = ext.must_understand;
  return out;
}

/**
 * Turns metadata back into a `zarr.json` document (object form for every extension,
 * except data types without configuration, which are written as bare names as 3.0
 * readers expect).
 */
export function nodeMetadataToJson(meta: NodeMetadata): JsonObject {
  if (meta.node_type === "group") {
    const out: JsonObject = { zarr_format: 3, node_type: "group", attributes: meta.attributes };
    if (meta.consolidated_metadata !== undefined) {
      out.consolidated_metadata =
        meta.consolidated_metadata === null
          ? null
          : {
              kind: "inline",
              must_understand: false,
              metadata: Object.fromEntries(
                Object.entries(meta.consolidated_metadata.metadata).map(([k, v]) => [k, nodeMetadataToJson(v)]),
              ),
            };
    }
    return { ...out, ...meta.extra_fields };
  }
  const dt = meta.data_type;
  const out: JsonObject = {
    zarr_format: 3,
    node_type: "array",
    shape: meta.shape,
    data_type: Object.keys(dt.configuration).length === 0 ? dt.name : extensionToJson(dt),
    chunk_grid: extensionToJson(meta.chunk_grid),
    chunk_key_encoding: extensionToJson(meta.chunk_key_encoding),
    fill_value: meta.fill_value,
    codecs: meta.codecs.map(extensionToJson),
    attributes: meta.attributes,
  };
  if (meta.storage_transformers.length > 0) out.storage_transformers = meta.storage_transformers.map(extensionToJson);
  if (meta.dimension_names !== undefined) out.dimension_names = meta.dimension_names;
  return { ...out, ...meta.extra_fields };
}
