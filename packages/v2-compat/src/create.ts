/**
 * Writing Zarr v2: groups (with `.zgroup` for every missing ancestor, as the v2 spec
 * requires) and arrays with any NumPy dtype, numcodecs compressor and filters. The
 * returned nodes are ordinary @zarr/core nodes: `set`, `get`, `resize`,
 * `setAttributes` work on them and write v2 documents.
 */
import {
  type ArrayMetadata,
  asZarrError,
  type Attributes,
  type DataType,
  type GroupMetadata,
  isJsonObject,
  isWritable,
  type JsonObject,
  type JsonValue,
  jsonFromInput,
  MetadataError,
  type Scalar,
  type Store,
  ZarrError,
} from "@zarr/spec";
import {
  defaultRegistry,
  deleteNode,
  type ExtensionLike,
  guessChunkShape,
  type NodeEntry,
  type Registry,
  resolveArray,
  type ZarrArray,
  ZarrGroup,
} from "@zarr/core";
import { type Dtype, dataTypeToDtype, itemSizeOf, parseDtype } from "./dtype.js";
import { v3FillToV2 } from "./fill-value.js";
import { type CodecConfigV2, ZARRAY, ZATTRS, ZGROUP } from "./metadata.js";
import { prefixOf, readJson, writeJson } from "./store-io.js";
import { normalizeV2Path, v2NodeFormat } from "./v2-format.js";
import { v2ArrayToV3, v2GroupToV3 } from "./v2-model.js";

/** Options shared by `createGroupV2` and `createArrayV2`. */
export interface CreateNodeV2Options {
  /** User attributes, written to `.zattrs`. */
  attributes?: Attributes;
  /** Replace a node already at the path (deleting everything below it). Default false: `NODE_EXISTS`. */
  overwrite?: boolean;
  /**
   * Create the node even below a Zarr v3 node (a `zarr.json` of an ancestor, the root's
   * included, or an early-draft entry point). Default false: that is an `INVALID_ARGUMENT`
   * error naming both, and nothing is written.
   */
  allowMixedFormats?: boolean;
  /** Where codecs and data types are looked up (default: @zarr/core's `defaultRegistry`). */
  registry?: Registry;
  signal?: AbortSignal;
}

/** Options of `createArrayV2`. */
export interface CreateArrayV2Options extends CreateNodeV2Options {
  shape: readonly number[];
  /** Chunk shape (default: about 1 MiB per chunk, like zarr-python's `guess_chunks`). */
  chunks?: readonly number[];
  /**
   * The NumPy dtype as v2 writes it: `"<i4"`, `">f8"`, `"|S10"`, `"<U5"`, `"<M8[ns]"`,
   * `"|O"`, or a structured list `[["x", "<f4"], ["z", "<i2", [2, 2]]]`.
   */
  dtype?: JsonValue;
  /** Or a Zarr v3 data type (`"int16"`, `"string"`, `{name: "numpy.datetime64", ...}`), stored in `endian` order. */
  dataType?: ExtensionLike;
  /** Byte order for `dataType` (default little). */
  endian?: "little" | "big";
  /** numcodecs compressor config (`{"id": "zstd", "level": 3}`); `null` for none. Default: Blosc lz4 (zarr-python's default) when the registry has blosc, else none. */
  compressor?: CodecConfigV2 | null;
  /** numcodecs filters; object arrays need an object codec here (`{"id": "vlen-utf8"}`; added for `string`/`bytes`/`object` data types when missing). */
  filters?: CodecConfigV2[] | null;
  /** Fill value as a JavaScript value (`NaN`, `0n`, `"x"`, `Uint8Array`) or v2/v3 JSON (`"NaN"`); `null` writes `"fill_value": null`. Default: the type's zero. */
  fillValue?: Scalar | JsonValue | null;
  /** Memory layout of each chunk (default `"C"`). */
  order?: "C" | "F";
  /** `"."` (default, keys `0.1`) or `"/"` (keys `0/1`). */
  dimensionSeparator?: "." | "/";
  /** Dimension names, written as xarray's `_ARRAY_DIMENSIONS` attribute. */
  dimensionNames?: readonly string[];
  /** Store chunks whose elements all equal the fill value (default true, as zarr-python 2 does). */
  writeEmptyChunks?: boolean;
}

/** numcodecs' `JSON()` configuration, as zarr-python 2 writes it for object arrays. */
const JSON2_DEFAULT: CodecConfigV2 = {
  id: "json2",
  allow_nan: true,
  check_circular: true,
  encoding: "utf-8",
  ensure_ascii: true,
  indent: null,
  separators: [",", ":"],
  skipkeys: false,
  sort_keys: true,
  strict: true,
};

const OBJECT_CODECS = new Set(["vlen-utf8", "vlen-bytes", "vlen-array", "json2", "msgpack2", "pickle", "categorize"]);

function requireWritable(store: Store, what: string): void {
  if (!isWritable(store)) throw new ZarrError("STORE_READ_ONLY", `Cannot ${what}: the store is not writable`);
}

async function nodeKind(store: Store, path: string, signal?: AbortSignal): Promise<"array" | "group" | undefined> {
  const p = prefixOf(path);
  const [zarray, zgroup] = await Promise.all([readJson(store, p + ZARRAY, signal), readJson(store, p + ZGROUP, signal)]);
  return zarray !== undefined ? "array" : zgroup !== undefined ? "group" : undefined;
}

function ancestors(path: string): string[] {
  if (path === "") return [];
  const parts = path.split("/");
  const out = [""];
  for (let i = 1; i < parts.length; i++) out.push(parts.slice(0, i).join("/"));
  return out;
}

/**
 * The Zarr v3 node (or early-draft entry point) whose `zarr.json` is at `path`, or
 * `undefined`. Any `zarr.json` counts: a document that is not v3 is still not ours to write
 * `.zgroup` beside.
 */
async function v3NodeAt(store: Store, path: string, signal?: AbortSignal): Promise<{ kind: string; key: string } | undefined> {
  const key = `${prefixOf(path)}zarr.json`;
  const doc = await readJson(store, key, signal).catch(() => null);
  if (doc === undefined) return undefined;
  const nodeType = isJsonObject(doc) ? doc.node_type : undefined;
  const kind = nodeType === "array" || nodeType === "group" ? nodeType : isJsonObject(doc) && typeof doc.zarr_format === "string" ? "early-draft entry point" : "node";
  return { kind, key };
}

/**
 * Checks the ancestors (none may be an array, nor a Zarr v3 node unless
 * `allowMixedFormats`) and the path itself; writes `.zgroup` for missing ancestors.
 */
async function prepare(store: Store, path: string, options: CreateNodeV2Options, what: "array" | "group"): Promise<void> {
  const missing: string[] = [];
  for (const a of ancestors(path)) {
    const kind = await nodeKind(store, a, options.signal);
    if (kind === "array") throw new ZarrError("INVALID_ARGUMENT", `Cannot create ${what} "${path}": its ancestor "${a || "/"}" is an array`);
    if (options.allowMixedFormats !== true) {
      const v3 = await v3NodeAt(store, a, options.signal);
      if (v3 !== undefined) {
        throw new ZarrError(
          "INVALID_ARGUMENT",
          `Cannot create the Zarr v2 ${what} "${path || "/"}": its ancestor "${a || "/"}" is a Zarr v3 ${v3.kind} ("${v3.key}"), and one ` +
            "hierarchy does not mix Zarr v2 and v3 (readers of either would not see the other's nodes). Create it as Zarr v3, in another " +
            "store or prefix, or pass allowMixedFormats: true.",
          { key: v3.key },
        );
      }
    }
    if (kind === undefined) missing.push(a);
  }
  const existing = await nodeKind(store, path, options.signal);
  const v3 = await readJson(store, prefixOf(path) + "zarr.json", options.signal).catch(() => null);
  if (existing !== undefined || v3 !== undefined) {
    if (!options.overwrite) {
      throw new ZarrError("NODE_EXISTS", `A node already exists at "${path || "/"}" (pass overwrite: true to replace it)`, {
        key: prefixOf(path) + (existing === "array" ? ZARRAY : existing === "group" ? ZGROUP : "zarr.json"),
      });
    }
    await deleteNode(store, path, { signal: options.signal });
  }
  for (const a of missing) await writeJson(store, prefixOf(a) + ZGROUP, { zarr_format: 2 }, options.signal);
}

function checkAttributes(attributes: Attributes | undefined): void {
  if (attributes !== undefined && !isJsonObject(attributes)) throw new ZarrError("INVALID_ARGUMENT", "attributes must be a JSON object");
}

/**
 * Creates a Zarr v2 group at `path` (`.zgroup`, and `.zattrs` when attributes are given),
 * and `.zgroup` for every ancestor that has none.
 *
 * @example
 * ```ts
 * const g = await createGroupV2(store, "climate/daily", { attributes: { title: "ERA5" } });
 * g.zarrFormat; // 2
 * ```
 */
export async function createGroupV2(store: Store, path = "", options: CreateNodeV2Options = {}): Promise<ZarrGroup> {
  const entry = await writeGroupV2(store, path, options);
  return new ZarrGroup(store, entry.path, entry.metadata as GroupMetadata, options.registry ?? defaultRegistry, undefined, false, 2, v2NodeFormat);
}

/** Writes a v2 group (what `createGroupV2` does) and describes it as a node entry. */
export async function writeGroupV2(store: Store, path: string, options: CreateNodeV2Options): Promise<NodeEntry> {
  requireWritable(store, `create group "${path}"`);
  const p = normalizeV2Path(path);
  checkAttributes(options.attributes);
  await prepare(store, p, options, "group");
  await writeJson(store, prefixOf(p) + ZGROUP, { zarr_format: 2 }, options.signal);
  const attributes = options.attributes ?? {};
  if (Object.keys(attributes).length > 0) await writeJson(store, prefixOf(p) + ZATTRS, attributes, options.signal);
  return { path: p, name: nameOf(p), kind: "group", metadata: v2GroupToV3(attributes), implicit: false, format: v2NodeFormat };
}

function nameOf(path: string): string {
  return path.slice(path.lastIndexOf("/") + 1);
}

function toDataTypeDef(e: ExtensionLike): { name: string; configuration: JsonObject } {
  if (typeof e === "string") return { name: e, configuration: {} };
  // Properties set to `undefined` (settings left unset) are not part of the data type.
  return { name: e.name, configuration: e.configuration === undefined ? {} : (jsonFromInput(e.configuration) as JsonObject) };
}

async function resolveType(registry: Registry, def: { name: string; configuration: JsonObject }): Promise<DataType> {
  const entry = await registry.dataType(def.name, { path: ["data_type"] });
  try {
    return entry.fromConfig(def.name, def.configuration, ["data_type"]);
  } catch (error) {
    if (error instanceof MetadataError) throw new ZarrError("INVALID_ARGUMENT", `Invalid data type: ${error.problem}`, { cause: error });
    throw error;
  }
}

/** The v2 fill_value for the caller's `fillValue` (a JS value, or JSON in v2 or v3 form). */
function fillJson(value: CreateArrayV2Options["fillValue"], dataType: DataType, dtype: Dtype): JsonValue {
  if (value === null) return null;
  // An object array's fill value is any JSON value in v2 (zarr-python 2 writes 0 by default): kept as given.
  if (dtype.kind === "O" && (typeof value === "number" || typeof value === "string" || typeof value === "boolean")) return value;
  let scalar: Scalar;
  if (value === undefined) scalar = dataType.getItem(dataType.allocate(1), 0);
  else {
    try {
      scalar = dataType.coerce(value);
    } catch (coerceError) {
      try {
        scalar = dataType.parseFillValue(value as JsonValue, ["fill_value"]);
      } catch {
        throw asZarrError(coerceError, "INVALID_ARGUMENT", `Invalid fill value for data type ${dataType.name}`);
      }
    }
  }
  return v3FillToV2(scalar, dataType, dtype);
}

/**
 * Creates a Zarr v2 array at `path`: writes `.zarray` (and `.zattrs` for attributes or
 * dimension names), and `.zgroup` for every ancestor that has none. Every choice made for
 * the caller (chunks, compressor, fill value) is written to `.zarray`.
 *
 * @example
 * ```ts
 * const t = await createArrayV2(store, "t2m", {
 *   shape: [365, 721, 1440], chunks: [1, 721, 1440], dtype: "<f4", fillValue: NaN,
 *   compressor: { id: "zstd", level: 3 }, filters: [{ id: "bitround", keepbits: 10 }],
 *   dimensionNames: ["time", "lat", "lon"],
 * });
 * await set(t, [0, null, null], firstDay);
 * ```
 */
export async function createArrayV2(store: Store, path: string, options: CreateArrayV2Options): Promise<ZarrArray> {
  const entry = await writeArrayV2(store, path, options);
  return resolveArray(store, entry.path, entry.metadata as ArrayMetadata, {
    registry: options.registry ?? defaultRegistry,
    format: v2NodeFormat,
    ...(options.writeEmptyChunks === undefined ? {} : { writeEmptyChunks: options.writeEmptyChunks }),
  });
}

/** Writes a v2 array (what `createArrayV2` does) and describes it as a node entry. */
export async function writeArrayV2(store: Store, path: string, options: CreateArrayV2Options): Promise<NodeEntry> {
  requireWritable(store, `create array "${path}"`);
  const p = normalizeV2Path(path);
  const registry = options.registry ?? defaultRegistry;
  checkAttributes(options.attributes);
  if (!Array.isArray(options.shape)) throw new ZarrError("INVALID_ARGUMENT", "shape must be an array of integers");
  // The dtype, from either form.
  let dtypeJson: JsonValue;
  if (options.dtype !== undefined) dtypeJson = options.dtype;
  else if (options.dataType !== undefined) dtypeJson = dataTypeToDtype(toDataTypeDef(options.dataType) as unknown as JsonValue, options.endian);
  else throw new ZarrError("INVALID_ARGUMENT", "Pass dtype (a NumPy type such as \"<i4\") or dataType");
  let dtype: Dtype;
  try {
    dtype = parseDtype(dtypeJson, ["dtype"]);
  } catch (error) {
    if (error instanceof MetadataError) throw new ZarrError("INVALID_ARGUMENT", `Invalid dtype: ${error.problem}`, { cause: error });
    throw error;
  }
  let filters = options.filters === undefined || options.filters === null ? [] : [...options.filters];
  if (dtype.kind === "O" && !filters.some((f) => OBJECT_CODECS.has(f.id))) {
    const name = options.dataType === undefined ? "string" : toDataTypeDef(options.dataType).name;
    const codec = name === "bytes" || name === "variable_length_bytes" ? { id: "vlen-bytes" } : name === "object" ? JSON2_DEFAULT : { id: "vlen-utf8" };
    filters = [codec, ...filters];
  }
  const compressor =
    options.compressor !== undefined
      ? options.compressor
      : registry.has("codec", "blosc")
        ? { id: "blosc", blocksize: 0, clevel: 5, cname: "lz4", shuffle: 1 }
        : null;
  const chunks = options.chunks ?? guessChunkShape(options.shape, Math.max(1, itemSizeOf(dtype)));
  const zarray: JsonObject = {
    chunks: [...chunks],
    compressor,
    dtype: dtypeJson,
    fill_value: null,
    filters: filters.length === 0 ? null : filters,
    order: options.order ?? "C",
    shape: [...options.shape],
    zarr_format: 2,
  };
  if (options.dimensionSeparator === "/") zarray.dimension_separator = "/";
  else if (options.dimensionSeparator !== undefined && options.dimensionSeparator !== ".") {
    throw new ZarrError("INVALID_ARGUMENT", `dimensionSeparator must be "." or "/", got ${JSON.stringify(options.dimensionSeparator)}`);
  }
  const attributes: JsonObject = { ...(options.attributes ?? {}) };
  if (options.dimensionNames !== undefined) {
    if (options.dimensionNames.length !== options.shape.length || !options.dimensionNames.every((n) => typeof n === "string")) {
      throw new ZarrError("INVALID_ARGUMENT", `dimensionNames must be ${options.shape.length} strings`);
    }
    attributes._ARRAY_DIMENSIONS = [...options.dimensionNames];
  }
  const key = prefixOf(p) + ZARRAY;
  // Map once with a null fill to learn the data type, then fill in the fill value and validate everything.
  const typed = await v2ArrayToV3(zarray, attributes, key, registry).catch((error: unknown) => {
    throw asZarrError(error, "INVALID_ARGUMENT", "Invalid array");
  });
  const dataType = await resolveType(registry, {
    name: typed.metadata.data_type.name,
    configuration: typed.metadata.data_type.configuration,
  });
  zarray.fill_value = fillJson(options.fillValue, dataType, dtype);
  const model = await v2ArrayToV3(zarray, attributes, key, registry);
  // Resolving builds the codec chain: a bad compressor or filter configuration fails here, before anything is written.
  await resolveArray(store, p, model.metadata, { registry, format: v2NodeFormat });
  await prepare(store, p, options, "array");
  await writeJson(store, key, zarray, options.signal);
  if (Object.keys(attributes).length > 0) await writeJson(store, prefixOf(p) + ZATTRS, attributes, options.signal);
  return { path: p, name: nameOf(p), kind: "array", metadata: model.metadata, implicit: false, format: v2NodeFormat };
}
