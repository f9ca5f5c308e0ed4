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
import { v2CodecsToV3 } from "./codecs.js";
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
    else throw new ZarrError("UNSUPPORTED", `The object array ${where} has no object codec (vlen-utf8, vlen-bytes, json2, msgpack2) in its filters`, { key });
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
