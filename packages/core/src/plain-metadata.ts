/**
 * The fast path of reading a `zarr.json`: a document in the plain form writers produce
 * (no consolidated metadata, no unknown or `must_understand` fields, no storage
 * transformers, every value valid) becomes metadata here, with a few checks. Anything
 * else returns undefined and goes to @zarr/spec's full validating parser, which
 * `readNodeMetadata` loads on first use (bundle size) and which gives the exact error for
 * a bad document. For any document this accepts, it returns what the full parser returns
 * (a property test holds it to that).
 */
import {
  type ArrayMetadata,
  type ExtensionObject,
  type GroupMetadata,
  isJsonObject,
  type JsonValue,
  type NodeMetadata,
} from "@zarr/spec";

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

/** An extension as a name, or `{name, configuration?}` with nothing else; undefined for any other form. */
function plainExtension(value: JsonValue | undefined): ExtensionObject | undefined {
  if (typeof value === "string") return value === "" ? undefined : { name: value, configuration: {} };
  if (!isJsonObject(value)) return undefined;
  const { name, configuration = {} } = value;
  if (typeof name !== "string" || name === "" || !isJsonObject(configuration)) return undefined;
  for (const k in value) if (k !== "name" && k !== "configuration") return undefined;
  return { name, configuration };
}

/** The metadata of `doc` when it is a plain Zarr v3 document (see above); undefined otherwise. */
export function parsePlainMetadata(doc: JsonValue): NodeMetadata | undefined {
  if (!isJsonObject(doc) || doc.zarr_format !== 3) return undefined;
  const attributes = doc.attributes === undefined ? {} : doc.attributes;
  if (!isJsonObject(attributes)) return undefined;
  if (doc.node_type === "group") {
    for (const k in doc) if (k !== "zarr_format" && k !== "node_type" && k !== "attributes") return undefined;
    const group: GroupMetadata = { zarr_format: 3, node_type: "group", attributes };
    return group;
  }
  if (doc.node_type !== "array" || !("fill_value" in doc)) return undefined;
  for (const k in doc) if (!ARRAY_FIELDS.has(k)) return undefined;
  const { shape, codecs, storage_transformers: transformers, dimension_names: names } = doc;
  if (!Array.isArray(shape) || !Array.isArray(codecs) || codecs.length === 0) return undefined;
  let size = 1;
  for (const n of shape) {
    if (typeof n !== "number" || !Number.isSafeInteger(n) || n < 0) return undefined;
    size *= n;
  }
  if (size > Number.MAX_SAFE_INTEGER) return undefined;
  if (transformers !== undefined && !(Array.isArray(transformers) && transformers.length === 0)) return undefined;
  const data_type = plainExtension(doc.data_type);
  const chunk_grid = plainExtension(doc.chunk_grid);
  const chunk_key_encoding = plainExtension(doc.chunk_key_encoding);
  const chain = codecs.map(plainExtension);
  if (data_type === undefined || chunk_grid === undefined || chunk_key_encoding === undefined) return undefined;
  if (chain.includes(undefined)) return undefined;
  const array: ArrayMetadata = {
    zarr_format: 3,
    node_type: "array",
    shape: shape as number[],
    data_type,
    chunk_grid,
    chunk_key_encoding,
    fill_value: doc.fill_value,
    codecs: chain as ExtensionObject[],
    attributes,
    storage_transformers: [],
  };
  if (names !== undefined && names !== null) {
    if (!Array.isArray(names) || names.length !== shape.length) return undefined;
    if (names.some((n) => n !== null && typeof n !== "string")) return undefined;
    array.dimension_names = names as (string | null)[];
  }
  return array;
}
