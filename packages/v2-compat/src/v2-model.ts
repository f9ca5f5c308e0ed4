/**
 * Zarr v2 documents described in the Zarr v3 model: what a `.zarray` (+ `.zattrs`)
 * becomes as v3 array metadata, which is also exactly what a metadata-only conversion
 * writes as `zarr.json`.
 */
import {
  type ArrayMetadata,
  type GroupMetadata,
  type JsonObject,
  type JsonValue,
  MetadataError,
  parseArrayMetadata,
  ZarrError,
} from "@zarr/spec";
import type { Registry } from "@zarr/core";
import { v2CodecsToV3, v3CodecName } from "./codecs.js";
import { type Dtype, dtypeToDataType } from "./dtype.js";
import { v2FillToV3 } from "./fill-value.js";
import { type ArrayMetadataV2, dimensionNamesOf, parseArrayMetadataV2 } from "./metadata.js";

/** A `.zarray` in the v3 model, with the parsed v2 document it came from. */
export interface V2ArrayModel {
  metadata: ArrayMetadata;
  v2: ArrayMetadataV2;
  dtype: Dtype;
}

/** Resolves a data type definition through the registry (for fill values). */
async function resolveDataType(registry: Registry, def: string | { name: string; configuration: JsonObject }, key: string) {
  const name = typeof def === "string" ? def : def.name;
  const configuration = typeof def === "string" ? {} : def.configuration;
  const entry = await registry.dataType(name, { key, path: ["dtype"] });
  try {
    return entry.fromConfig(name, configuration, ["dtype"]);
  } catch (error) {
    if (error instanceof MetadataError) throw new MetadataError(["dtype"], error.problem, { key, cause: error });
    throw error;
  }
}

/**
 * Describes a `.zarray` document (and the node's attributes) as v3 array metadata:
 * the data type of the dtype, a regular grid of `chunks`, the `v2` chunk key encoding
 * with the array's `dimension_separator`, the codec chain of `order`, `filters` and
 * `compressor`, the fill value in v3 form, and `_ARRAY_DIMENSIONS` as dimension names.
 * `key` names the document in errors.
 */
export async function v2ArrayToV3(doc: JsonValue, attributes: JsonObject, key: string, registry: Registry): Promise<V2ArrayModel> {
  const { metadata: v2, dtype } = parseArrayMetadataV2(doc, { key });
  const where = `"${key}"`;
  let chain: Awaited<ReturnType<typeof v2CodecsToV3>>;
  try {
    chain = await v2CodecsToV3({ ...v2, ndim: v2.shape.length }, dtype, registry, where);
  } catch (error) {
    if (error instanceof ZarrError && error.key === undefined) throw new ZarrError(error.code, error.message, { key, cause: error });
    throw error;
  }
  let objectType = chain.objectType;
  if (dtype.kind === "O" && objectType === undefined) {
    // categorize turns strings into codes without an object codec of its own
    if ((v2.filters ?? []).some((f) => f.id === "categorize")) objectType = "string";
    else {
      const other = (v2.filters ?? []).find((f) => f.id === "pickle" || f.id === "vlen-array");
      const problem = other
        ? `uses the object codec "${other.id}", which has no Zarr v3 model here`
        : "has no object codec in its filters";
      throw new ZarrError("UNSUPPORTED", `The object array ${where} ${problem} (readable: vlen-utf8, vlen-bytes, json2, msgpack2)`, { key });
    }
  }
  let dataTypeDef: ReturnType<typeof dtypeToDataType>;
  try {
    dataTypeDef = dtypeToDataType(dtype, objectType);
  } catch (error) {
    if (error instanceof ZarrError) throw new ZarrError(error.code, `${error.message} (in ${where})`, { key, cause: error });
    throw error;
  }
  const dataType = await resolveDataType(registry, dataTypeDef as string | { name: string; configuration: JsonObject }, key);
  let fill: JsonValue;
  try {
    fill = v2FillToV3(v2.fill_value, dtype, dataType, ["fill_value"]);
  } catch (error) {
    if (error instanceof MetadataError) throw new MetadataError(error.path, error.problem, { key, cause: error });
    throw error;
  }
  const v3: JsonObject = {
    zarr_format: 3,
    node_type: "array",
    shape: v2.shape,
    data_type: dataTypeDef as JsonValue,
    chunk_grid: { name: "regular", configuration: { chunk_shape: v2.chunks } },
    chunk_key_encoding: { name: "v2", configuration: { separator: v2.dimension_separator ?? "." } },
    fill_value: fill,
    codecs: chain.codecs as unknown as JsonValue[],
    attributes,
  };
  const names = dimensionNamesOf(attributes, v2.shape.length);
  if (names !== undefined) v3.dimension_names = names;
  return { metadata: parseArrayMetadata(v3, { key }), v2, dtype };
}

/** A `.zgroup` (and the node's attributes) as v3 group metadata. */
export function v2GroupToV3(attributes: JsonObject): GroupMetadata {
  return { zarr_format: 3, node_type: "group", attributes };
}

/**
 * The data type name of a Zarr v2 array that has no Zarr v3 model (a pickle object array,
 * a structured type mixing byte orders, a codec the registry lacks): its configuration
 * holds the v2 `dtype` as written and why it cannot be read (`code`, `problem`).
 */
export const UNREADABLE_V2_DATA_TYPE = "zarr-v2.unreadable";

/** Why a v2 array cannot be modelled: the codes of a missing extension, not of a broken document. */
function isUnmodellable(error: unknown): error is ZarrError {
  return error instanceof ZarrError && !(error instanceof MetadataError) && (error.code === "UNSUPPORTED" || error.code === "CODEC_UNKNOWN");
}

/**
 * The v3 model of a `.zarray` (as {@link v2ArrayToV3}), or, for an array that has none,
 * metadata that still describes it (shape, chunks, key encoding, numcodecs chain,
 * attributes) with the {@link UNREADABLE_V2_DATA_TYPE} data type: such an array is
 * listed like any other and fails only when resolved (see `v2NodeFormat.unreadable`). A
 * broken document is still a `MetadataError`.
 */
export async function v2ArrayMetadata(doc: JsonValue, attributes: JsonObject, key: string, registry: Registry): Promise<ArrayMetadata> {
  try {
    return (await v2ArrayToV3(doc, attributes, key, registry)).metadata;
  } catch (error) {
    if (!isUnmodellable(error)) throw error;
    return unreadableModel(parseArrayMetadataV2(doc, { key }).metadata, attributes, key, error);
  }
}

function unreadableModel(v2: ArrayMetadataV2, attributes: JsonObject, key: string, error: ZarrError): ArrayMetadata {
  const chain = [...(v2.filters ?? []), ...(v2.compressor === null ? [] : [v2.compressor])];
  const codecs = chain.map(({ id, ...configuration }) => ({ name: v3CodecName(id), configuration }));
  const v3: JsonObject = {
    zarr_format: 3,
    node_type: "array",
    shape: v2.shape,
    data_type: { name: UNREADABLE_V2_DATA_TYPE, configuration: { dtype: v2.dtype, code: error.code, problem: error.message } },
    chunk_grid: { name: "regular", configuration: { chunk_shape: v2.chunks } },
    chunk_key_encoding: { name: "v2", configuration: { separator: v2.dimension_separator ?? "." } },
    fill_value: v2.fill_value,
    // v3 requires a codec: an array without filters or compressor stores its bytes as they are.
    codecs: codecs.length > 0 ? codecs : [{ name: "bytes", configuration: {} }],
    attributes,
  };
  const names = dimensionNamesOf(attributes, v2.shape.length);
  if (names !== undefined) v3.dimension_names = names;
  return parseArrayMetadata(v3, { key });
}

/** `NodeFormat.unreadable` of the formats read through this model: the error resolving such an array throws. */
export function unreadableArrayError(metadata: ArrayMetadata, key: string): ZarrError | undefined {
  const why = unreadableV2Array(metadata);
  if (why === undefined) return undefined;
  return new ZarrError(why.error.code, `The array "${key}" cannot be read: ${why.error.message}`, { key, cause: why.error });
}

/**
 * For array metadata read from a Zarr v2 array that has no v3 model (see
 * {@link v2ArrayMetadata}): the v2 `dtype` as written and the error that makes it
 * unreadable; `undefined` for any other array.
 *
 * @example
 * ```ts
 * const entry = await openEntry(store, "pickled", { registry });
 * if (entry.metadata.node_type === "array") unreadableV2Array(entry.metadata)?.error.message; // why it cannot be read
 * ```
 */
export function unreadableV2Array(metadata: ArrayMetadata): { dtype: JsonValue; error: ZarrError } | undefined {
  if (metadata.data_type.name !== UNREADABLE_V2_DATA_TYPE) return undefined;
  const { dtype, code, problem } = metadata.data_type.configuration;
  const errorCode = code === "CODEC_UNKNOWN" ? "CODEC_UNKNOWN" : "UNSUPPORTED";
  return { dtype: dtype ?? null, error: new ZarrError(errorCode, typeof problem === "string" ? problem : "no Zarr v3 model") };
}
