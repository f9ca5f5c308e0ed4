/**
 * Creating nodes with defaults: `createGroup`, `createArray` (chunk shape, codecs, fill
 * value and endianness chosen for the caller and written to the metadata) and `create`.
 */

import {
  type ArrayMetadata,
  type Attributes,
  asZarrError,
  describeJson,
  type ExtensionObject,
  type GroupMetadata,
  isJsonObject,
  type JsonObject,
  type JsonValue,
  jsonFromInput,
  type Store,
  ZarrError,
} from "@zarr/spec";
import { createArrayThroughFormat, createGroupThroughFormat, requestedZarrFormat } from "./create-format.js";
import { chunkKeyEncodingOption } from "./key-encoding-option.js";
import { readNodeMetadata, writeNodeMetadata } from "./metadata-io.js";
import { deleteNode, requireWritable } from "./mutate.js";
import type { CreateArrayOptions, CreateNodeOptions, ExtensionLike } from "./node-options.js";
import { resolveArray, withMetadataKey, type ZarrArray, ZarrGroup } from "./nodes.js";
import { exists } from "./open.js";
import { mixedFormatsError, v2NodeAt } from "./mixed-formats.js";
import { metadataKey, normalizePath, parentPath, validateNewNodePath } from "./paths.js";
import { defaultRegistry, type Registry } from "./registry.js";

/**
 * Makes sure a Zarr v3 node can be created at `path`: parents are v3 groups (or absent, and
 * then no Zarr v2 node either, unless `allowMixedFormats`), nothing is there unless overwriting.
 */
async function prepareNewNode(store: Store, path: string, kind: "array" | "group", options: CreateNodeOptions): Promise<void> {
  validateNewNodePath(path);
  for (let parent = parentPath(path); parent !== undefined; parent = parentPath(parent)) {
    const meta = await readNodeMetadata(store, parent, options.signal);
    if (meta?.node_type === "array") {
      throw new ZarrError("INVALID_ARGUMENT", `Cannot create "${path}": its ancestor "${parent || "/"}" is an array`);
    }
    if (meta !== undefined) break; // an explicit group: its own ancestors were checked when it was made
    if (options.allowMixedFormats !== true) {
      const v2 = await v2NodeAt(store, parent, options.signal);
      if (v2 !== undefined) throw mixedFormatsError({ path, kind, zarrFormat: 3 }, { path: parent, zarrFormat: 2, ...v2 });
    }
  }
  if (await exists(store, path, options)) {
    if (!options.overwrite) {
      throw new ZarrError("NODE_EXISTS", `A node already exists at "${path || "/"}" (pass overwrite: true to replace it)`, {
        key: metadataKey(path),
      });
    }
    await deleteNode(store, path, options);
  }
}

/** Writes explicit group documents for every missing ancestor of `path`. */
async function writeMissingParents(store: Store, path: string, signal?: AbortSignal): Promise<void> {
  const missing: string[] = [];
  for (let parent = parentPath(path); parent !== undefined; parent = parentPath(parent)) {
    const meta = await readNodeMetadata(store, parent, signal);
    if (meta !== undefined) break;
    missing.push(parent);
  }
  for (const parent of missing.reverse()) {
    await writeNodeMetadata(store, parent, { zarr_format: 3, node_type: "group", attributes: {} }, signal);
  }
}

/**
 * Creates a group at `path` (and explicit groups for missing ancestors). With
 * `zarrFormat: 2` the registry's Zarr v2 format writes `.zgroup` (and `.zattrs`) instead;
 * without one registered that is an `UNSUPPORTED` error.
 *
 * @example
 * ```ts
 * const root = await createGroup(store, "", { attributes: { title: "climate" } });
 * const sub = await createGroup(store, "a/b");  // also writes a/zarr.json
 * const old = await createGroup(store, "v2", { zarrFormat: 2, registry }); // registry holds v2Format
 * ```
 */
export async function createGroup(store: Store, path = "", options: CreateNodeOptions = {}): Promise<ZarrGroup> {
  requireWritable(store, `create group "${path}"`);
  if (options.attributes !== undefined && !isJsonObject(options.attributes)) {
    throw new ZarrError("INVALID_ARGUMENT", "attributes must be a JSON object");
  }
  const zarrFormat = requestedZarrFormat(options, path);
  if (zarrFormat !== 3) return createGroupThroughFormat(store, path, zarrFormat, options.registry ?? defaultRegistry, options);
  const p = normalizePath(path);
  await prepareNewNode(store, p, "group", options);
  await writeMissingParents(store, p, options.signal);
  const attributes = options.attributes === undefined ? {} : (jsonFromInput(options.attributes) as Attributes);
  const metadata: GroupMetadata = { zarr_format: 3, node_type: "group", attributes };
  await writeNodeMetadata(store, p, metadata, options.signal);
  return new ZarrGroup(store, p, metadata, options.registry ?? defaultRegistry, undefined);
}

function toExtension(e: ExtensionLike): ExtensionObject {
  if (typeof e === "string") return { name: e, configuration: {} };
  // Properties set to `undefined` (optional settings left unset) are not part of the metadata.
  const configuration = e.configuration === undefined ? {} : (jsonFromInput(e.configuration) as JsonObject);
  const out: ExtensionObject = { name: e.name, configuration };
  if (e.must_understand !== undefined) out.must_understand = e.must_understand;
  return out;
}

/**
 * Chooses a chunk shape of roughly `target` bytes (default 1 MiB) by halving the
 * largest dimensions, like zarr-python's `guess_chunks`.
 */
export function guessChunkShape(shape: readonly number[], itemSize: number, target = 1 << 20): number[] {
  const chunks = shape.map((n) => Math.max(1, n));
  const bytes = () => chunks.reduce((a, b) => a * b, 1) * Math.max(1, itemSize);
  let d = 0;
  while (bytes() > target && chunks.some((c) => c > 1)) {
    const i = d % chunks.length;
    if (chunks[i] > 1) chunks[i] = Math.ceil(chunks[i] / 2);
    d++;
  }
  return chunks;
}

/**
 * A codec chain as given, each codec completed by its entry's `withDefaults` (the `bytes`
 * codec's `endian` for multi-byte types, also inside sharding chains), so the written
 * metadata is complete. Codecs the registry does not know are left as they are: building
 * the pipeline reports them.
 */
async function completeChain(chain: JsonValue, multiByte: boolean, registry: Registry): Promise<JsonValue> {
  if (!Array.isArray(chain)) return chain;
  const context = { multiByte, completeChain: (c: JsonValue, m: boolean) => completeChain(c, m, registry) };
  const out: JsonValue[] = [];
  for (const item of chain) {
    const codec = toExtension(item as unknown as ExtensionLike);
    const entry = registry.has("codec", codec.name) ? await registry.codec(codec.name) : undefined;
    const configuration = entry?.withDefaults === undefined ? codec.configuration : await entry.withDefaults(codec.configuration, context);
    out.push({ ...codec, configuration } as unknown as JsonValue);
  }
  return out;
}

function defaultCodecs(dataTypeKind: string, byteSize: number | undefined, registry: Registry): ExtensionObject[] {
  let first: ExtensionObject;
  if (dataTypeKind === "optional") {
    // What zarrs writes: the mask bit-packed (when the registry has `packbits`), the present values as `bytes`.
    const mask = registry.has("codec", "packbits") ? "packbits" : "bytes";
    first = { name: "optional", configuration: { mask_codecs: [{ name: mask, configuration: {} }], data_codecs: [{ name: "bytes", configuration: {} }] } };
  } else if (byteSize !== undefined) first = { name: "bytes", configuration: { endian: "little" } };
  else if (dataTypeKind === "string") first = { name: "vlen-utf8", configuration: {} };
  else if (dataTypeKind === "bytes") first = { name: "vlen-bytes", configuration: {} };
  else throw new ZarrError("INVALID_ARGUMENT", `No default codecs for the variable-size data type kind "${dataTypeKind}": pass codecs`);
  const chain = [first];
  if (registry.has("codec", "zstd")) chain.push({ name: "zstd", configuration: { level: 0, checksum: false } });
  return chain;
}

/**
 * Creates an array at `path` (and explicit groups for missing ancestors). Every choice
 * made for the caller (chunk shape, codecs and their parameters) is written to the
 * metadata. With `zarrFormat: 2` the registry's Zarr v2 format (`v2Format` of
 * @zarr/v2-compat) writes `.zarray` (numcodecs `compressor` and `filters` instead of
 * `codecs`); without one registered that is an `UNSUPPORTED` error.
 *
 * @example
 * ```ts
 * const t2m = await createArray(store, "climate/t2m", {
 *   shape: [365, 721, 1440], chunkShape: [1, 721, 1440], dataType: "float32",
 *   fillValue: NaN, dimensionNames: ["time", "lat", "lon"],
 *   codecs: [{ name: "bytes", configuration: { endian: "little" } }],
 * });
 * const v2 = await createArray(store, "t2m_v2", {
 *   zarrFormat: 2, shape: [365, 721, 1440], chunkShape: [1, 721, 1440], dataType: "float32",
 *   compressor: { id: "zlib", level: 1 }, registry, // registry holds v2Format
 * });
 * ```
 */
export async function createArray<N extends string = string>(
  store: Store,
  path: string,
  options: CreateArrayOptions<N>,
): Promise<ZarrArray<N>> {
  requireWritable(store, `create array "${path}"`);
  // Either form of the key encoding (short or as in zarr.json), checked before anything is written.
  const chunkKeyEncoding = chunkKeyEncodingOption(options.chunkKeyEncoding);
  options = chunkKeyEncoding === undefined ? options : { ...options, chunkKeyEncoding };
  const registry = options.registry ?? defaultRegistry;
  const zarrFormat = requestedZarrFormat(options, path);
  // The array is resolved from the data type named in `options`: it is a ZarrArray<N>.
  if (zarrFormat !== 3) return (await createArrayThroughFormat(store, path, zarrFormat, registry, options)) as ZarrArray<N>;
  const p = normalizePath(path);
  const key = metadataKey(p);
  if (!Array.isArray(options.shape)) throw new ZarrError("INVALID_ARGUMENT", "shape must be an array of integers");
  const dtDef = toExtension(options.dataType);
  // Resolve the data type first: the defaults (chunk shape, codecs, fill value) depend on it.
  const dtEntry = await registry.dataType(dtDef.name, { path: ["data_type"] });
  const dataType = withMetadataKey(key, () => dtEntry.fromConfig(dtDef.name, dtDef.configuration, ["data_type"]));
  let fillJson: JsonValue;
  if (options.fillValue === undefined) fillJson = dataType.fillValueToJson(dataType.getItem(dataType.allocate(1), 0));
  else {
    const v = options.fillValue;
    let fromJson: JsonValue | undefined;
    if (!(v instanceof Uint8Array) && (typeof v !== "number" || Number.isFinite(v))) {
      try {
        fromJson = dataType.fillValueToJson(dataType.parseFillValue(v as JsonValue, ["fill_value"]));
      } catch {
        fromJson = undefined;
      }
    }
    if (fromJson !== undefined) fillJson = fromJson;
    else {
      try {
        fillJson = dataType.fillValueToJson(dataType.coerce(v));
      } catch (error) {
        throw asZarrError(error, "INVALID_ARGUMENT", `Invalid fill value (${describeJson(v)}) for data type ${dataType.name}`);
      }
    }
  }
  let chunkGrid: ExtensionObject;
  if (options.chunkGrid !== undefined) chunkGrid = toExtension(options.chunkGrid);
  else if (options.chunkShapes !== undefined) {
    chunkGrid = {
      name: "rectilinear",
      configuration: { kind: "inline", chunk_shapes: options.chunkShapes.map((s) => (typeof s === "number" ? s : [...s])) },
    };
  } else {
    const cs = options.chunkShape ?? guessChunkShape(options.shape, dataType.byteSize ?? 16);
    chunkGrid = { name: "regular", configuration: { chunk_shape: [...cs] } };
  }
  const kenc = chunkKeyEncoding ?? { name: "default" };
  // An optional type's default chain nests the inner type's chain: completed like a given one (its `endian`).
  const givenCodecs =
    options.codecs ?? (dataType.kind === "optional" ? defaultCodecs(dataType.kind, dataType.byteSize, registry) : undefined);
  const codecs =
    givenCodecs === undefined
      ? defaultCodecs(dataType.kind, dataType.byteSize, registry)
      : ((await completeChain(givenCodecs as unknown as JsonValue, dataType.componentSize > 1, registry)) as unknown as ExtensionObject[]);
  const doc: JsonObject = {
    zarr_format: 3,
    node_type: "array",
    shape: [...options.shape] as number[],
    data_type: dataType.toJSON() as JsonValue,
    chunk_grid: chunkGrid as unknown as JsonObject,
    chunk_key_encoding: {
      name: kenc.name,
      configuration: { separator: kenc.separator ?? (kenc.name === "v2" ? "." : "/") },
    },
    fill_value: fillJson,
    codecs: codecs as unknown as JsonValue[],
    attributes: options.attributes === undefined ? {} : jsonFromInput(options.attributes),
  };
  if (options.dimensionNames !== undefined) doc.dimension_names = [...options.dimensionNames];
  if (options.storageTransformers !== undefined) {
    if (!Array.isArray(options.storageTransformers)) throw new ZarrError("INVALID_ARGUMENT", "storageTransformers must be an array");
    doc.storage_transformers = options.storageTransformers.map((t) => toExtension(t) as unknown as JsonObject);
  }
  const { parseArrayMetadata } = await import("./metadata-documents.js");
  const parsed = parseArrayMetadata(doc, { key });
  // Resolving validates the whole document (grid vs shape, codec chain vs data type).
  const probe = await resolveArray(store, p, parsed, { registry, maxChunkBytes: options.maxChunkBytes, maxDecodeRatio: options.maxDecodeRatio });
  // Record every parameter the codecs chose (e.g. a typesize taken from the data type).
  const metadata: ArrayMetadata = { ...parsed, chunk_grid: probe.chunkGrid.toJSON(), codecs: probe.codecs.toJSON() };
  await prepareNewNode(store, p, "array", options);
  await writeMissingParents(store, p, options.signal);
  await writeNodeMetadata(store, p, metadata, options.signal);
  const array = await resolveArray(store, p, metadata, {
    registry,
    writeEmptyChunks: options.writeEmptyChunks,
    chunkCache: options.chunkCache,
    maxChunkBytes: options.maxChunkBytes,
    maxDecodeRatio: options.maxDecodeRatio,
  });
  // The data type was resolved from `options.dataType` and keeps its name: the array is a ZarrArray<N>.
  return array as ZarrArray<N>;
}

/**
 * Creates an array when `options.shape` is given, otherwise a group.
 *
 * @example
 * ```ts
 * await create(store, "g");                                         // a group
 * await create(store, "g/x", { shape: [10], dataType: "int32" });  // an array
 * ```
 */
export function create<N extends string = string>(store: Store, path: string, options: CreateArrayOptions<N>): Promise<ZarrArray<N>>;
export function create(store: Store, path?: string, options?: CreateNodeOptions): Promise<ZarrGroup>;
export function create(
  store: Store,
  path = "",
  options: CreateNodeOptions | CreateArrayOptions = {},
): Promise<ZarrArray | ZarrGroup> {
  if ("shape" in options && options.shape !== undefined) return createArray(store, path, options as CreateArrayOptions);
  return createGroup(store, path, options);
}
