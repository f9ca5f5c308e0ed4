/**
 * What `zarr info` reports about a node, as one JSON-ready object: built from the
 * metadata document plus a listing of the node's stored keys. Codecs are resolved only
 * to say whether the array is readable with this CLI's registry; an array using a codec
 * or data type the registry lacks is still described, an invalid document is an error.
 * Registered compressors at the end of the chain count as readable without being loaded.
 */
import { type Registry, resolveArray } from "@zarr/core";
import {
  type ArrayMetadata,
  asZarrError,
  type ChunkGrid,
  type ChunkKeyEncoding,
  isJsonObject,
  isListable,
  type JsonObject,
  type JsonValue,
  keepAttributesUnparsed,
  MetadataError,
  mapConcurrent,
  type NodeMetadata,
  type Store,
  unparsedAttributes,
  ZarrError,
} from "@zarr/spec";
import { catalogCodec } from "./codec-catalog.js";
import { type ListedNode, listChildren, nodePrefix } from "./listing.js";

/** Sizes of the keys below a node. */
interface StoredKeys {
  keys: string[];
  bytes: number;
}

const SIZE_CONCURRENCY = 16;

/**
 * Every key under the prefixes, plus the `extra` keys that exist, and the sum of their sizes
 * (`getSize` when the store has it, else `get`).
 */
async function storedKeys(store: Store, prefixes: readonly string[], extra: readonly string[] = []): Promise<StoredKeys | undefined> {
  // Plain HTTP cannot list: the node is still described, its stored size is unknown (null).
  if (!isListable(store)) return undefined;
  const found = new Set<string>();
  for (const prefix of prefixes) {
    try {
      for await (const key of store.listPrefix(prefix)) found.add(key);
    } catch (error) {
      throw asZarrError(error, "STORE_FAILED", `Could not list "${prefix}"`, prefix);
    }
  }
  const keys = [...found];
  for (const key of extra) if (!found.has(key)) keys.push(key); // absent ones count 0 bytes and are dropped below
  const sizes = await mapConcurrent(keys, SIZE_CONCURRENCY, async (key) => {
    try {
      if (store.getSize) return (await store.getSize(key)) ?? 0;
      return (await store.get(key))?.length ?? 0;
    } catch (error) {
      throw asZarrError(error, "STORE_FAILED", `Could not read the size of "${key}"`, key);
    }
  });
  const present = keys.filter((key, i) => found.has(key) || sizes[i] > 0);
  present.sort();
  return { keys: present, bytes: sizes.reduce((a, b) => a + b, 0) };
}

/**
 * Where a node's keys are: the prefixes to list and single keys outside them. A Zarr v3 or
 * v2 node keeps everything under `path/`; the early v3 draft keeps chunks under
 * `data/root/path/` and documents under `meta/root/` (a group's descendants' under
 * `meta/root/path/`); a draft root is the whole store.
 */
function keyLocations(node: ListedNode): { prefixes: string[]; extra: string[] } {
  const format = node.format;
  if (format?.chunkPrefix === undefined || node.path === "") return { prefixes: [nodePrefix(node.path)], extra: [] };
  const documentKey = format.metadataKey(node.path, node.kind);
  const prefixes = [format.chunkPrefix(node.path)];
  if (node.kind === "group") prefixes.push(`${documentKey.slice(0, documentKey.lastIndexOf(".group"))}/`);
  return { prefixes, extra: [documentKey] };
}

/** The storage format's name, for nodes not stored as Zarr v3 (`zarr-v2`, `zarr-v3-draft`): `{ format }`, else nothing. */
function formatField(node: ListedNode): JsonObject {
  return node.format === undefined ? {} : { format: node.format.name };
}

/** How `describeNode` counts what is stored when the store cannot list keys. */
export interface DescribeOptions {
  /**
   * Count an array's stored chunks one key at a time (`getSize`: HEAD or a one-byte range
   * request over HTTP), `PROBE_CONCURRENCY` at once, when the store cannot list them.
   */
  probeChunks?: boolean;
  /** Called as probing goes: keys asked so far, of `total`. */
  onProbeProgress?: (done: number, total: number) => void;
}

/** Requests in flight at once while probing chunk keys. */
export const PROBE_CONCURRENCY = 16;

/** The size of `key`, or undefined when it is missing. */
async function sizeOf(store: Store, key: string): Promise<number | undefined> {
  try {
    if (store.getSize) return await store.getSize(key);
    return (await store.get(key))?.length;
  } catch (error) {
    throw asZarrError(error, "STORE_FAILED", `Could not read the size of "${key}"`, key);
  }
}

/**
 * What a store that cannot list holds of an array: each chunk key of the grid asked for
 * its size (through the array's storage transformers, `chunkStore`), plus the node's
 * metadata documents. At most `PROBE_CONCURRENCY` requests run
 * at once, and the keys are made one at a time from a counter, so a grid of millions of
 * chunks never becomes a list in memory.
 */
async function probedKeys(
  store: Store,
  chunkStore: Store,
  prefix: string,
  metadataKeys: readonly string[],
  grid: ChunkGrid,
  keys: ChunkKeyEncoding,
  onProgress?: (done: number, total: number) => void,
): Promise<{ bytes: number; keys: number; chunks: number }> {
  const shape = grid.gridShape;
  const total = shape.reduce((a, b) => a * b, 1);
  let next = 0;
  let done = 0;
  let bytes = 0;
  let chunks = 0;
  const coordsOf = (index: number): number[] => {
    const coords = new Array<number>(shape.length);
    for (let d = shape.length - 1; d >= 0; d--) {
      coords[d] = index % shape[d];
      index = Math.floor(index / shape[d]);
    }
    return coords;
  };
  const worker = async () => {
    while (next < total) {
      const key = prefix + keys.encode(coordsOf(next++));
      const size = await sizeOf(chunkStore, key);
      if (size !== undefined) {
        chunks++;
        bytes += size;
      }
      onProgress?.(++done, total);
    }
  };
  await Promise.all(Array.from({ length: Math.min(PROBE_CONCURRENCY, total) }, worker));
  let metadataFound = 0;
  for (const key of metadataKeys) {
    const size = await sizeOf(store, key);
    if (size !== undefined) {
      metadataFound++;
      bytes += size;
    }
  }
  return { bytes, keys: chunks + metadataFound, chunks };
}

/** The metadata documents of a node: `zarr.json`, or v2's `.zarray`/`.zgroup` and `.zattrs`. */
function metadataDocuments(node: ListedNode, kind: "array" | "group"): string[] {
  const prefix = nodePrefix(node.path);
  if (node.zarrFormat === 2) return [`${prefix}${kind === "array" ? ".zarray" : ".zgroup"}`, `${prefix}.zattrs`];
  return [`${prefix}zarr.json`];
}

/** Re-throws a key-less MetadataError with the document's key. */
function inDocument<T>(key: string, fn: () => T): T {
  try {
    return fn();
  } catch (error) {
    if (error instanceof MetadataError && error.key === undefined) {
      throw new MetadataError(error.path, error.problem, { key, cause: error });
    }
    throw error;
  }
}

function metadataKeyOf(path: string): string {
  return `${nodePrefix(path)}zarr.json`;
}

/**
 * The chain without its trailing compressors and checksums (bytes→bytes codecs of the
 * catalog the registry has), or undefined when there are none to leave out or one sits
 * elsewhere in the chain. Their packages load on first use; leaving them out lets `info`
 * check the rest of the chain without loading any.
 */
function withoutTrailingCompressors(meta: ArrayMetadata, registry: Registry): ArrayMetadata | undefined {
  const deferred = (c: ArrayMetadata["codecs"][number]) =>
    catalogCodec(c.name)?.kind === "bytes_to_bytes" && registry.has("codec", c.name);
  let end = meta.codecs.length;
  while (end > 0 && deferred(meta.codecs[end - 1])) end--;
  if (end === meta.codecs.length || end === 0 || meta.codecs.slice(0, end).some(deferred)) return undefined;
  // A view of `meta` with the shorter chain, not a copy: copying would read (parse) attributes kept unparsed.
  return Object.create(meta, { codecs: { value: meta.codecs.slice(0, end) } }) as ArrayMetadata;
}

/**
 * Gives the description `out` the node's attributes: kept unparsed when its document kept
 * them (a big one: `info` then prints them from their text, never parsing them), else as
 * they are. `out.attributes` stays where the description has it.
 */
function shareAttributes(out: JsonObject, meta: NodeMetadata | undefined): JsonObject {
  const text = meta === undefined ? undefined : unparsedAttributes(meta);
  if (text !== undefined) keepAttributesUnparsed(out, text);
  else out.attributes = meta?.attributes ?? {};
  return out;
}

/**
 * Resolves the array as `get` would, except that registered trailing compressors are
 * taken as readable without loading them (their configuration is checked when chunks are
 * read). Anything that fails that way is resolved again with the whole chain, so errors
 * are exactly core's.
 */
async function resolveForInfo(store: Store, node: ListedNode, meta: ArrayMetadata, registry: Registry) {
  const short = withoutTrailingCompressors(meta, registry);
  if (short !== undefined) {
    try {
      return await resolveArray(store, node.path, short, { registry, format: node.format });
    } catch {
      // Fall through: the whole chain gives the error.
    }
  }
  return resolveArray(store, node.path, meta, { registry, format: node.format });
}

/** What `info` needs of an array's layout (see `resolveLayout`). */
interface ArrayLayout {
  grid: ChunkGrid;
  keys: ChunkKeyEncoding;
  problem: string | undefined;
  /** Where the chunks are listed: the store behind the array's storage transformers (the store itself without any, or when they do not resolve). */
  chunkStore: Store;
  /** Storage transformers skipped as unregistered with `"must_understand": false`; `undefined` when the array did not resolve. */
  ignoredTransformers: readonly string[] | undefined;
}

/** The array's grid and key encoding, and whether its whole chain resolves. */
async function resolveLayout(store: Store, node: ListedNode, meta: ArrayMetadata, registry: Registry): Promise<ArrayLayout> {
  try {
    const array = await resolveForInfo(store, node, meta, registry);
    return {
      grid: array.chunkGrid,
      keys: array.chunkKeyEncoding,
      problem: undefined,
      chunkStore: array.chunkStore,
      ignoredTransformers: array.ignoredStorageTransformers,
    };
  } catch (error) {
    // A missing extension (codec, data type) still leaves a describable array; a broken
    // document does not.
    if (!(error instanceof ZarrError) || (error.code !== "CODEC_UNKNOWN" && error.code !== "UNSUPPORTED")) throw error;
    const problem = `[${error.code}] ${error.message}`;
    const key = node.format?.metadataKey(node.path, "array") ?? metadataKeyOf(node.path);
    const gridEntry = await registry.chunkGrid(meta.chunk_grid.name, { key, path: ["chunk_grid"] });
    const grid = inDocument(key, () => gridEntry.fromConfig(meta.chunk_grid.configuration, meta.shape, ["chunk_grid"]));
    const own = node.format?.chunkKeyEncoding?.(meta);
    if (own !== undefined) return { grid, keys: own, problem, chunkStore: store, ignoredTransformers: undefined };
    const kenc = meta.chunk_key_encoding;
    const kencEntry = await registry.chunkKeyEncoding(kenc.name, { key, path: ["chunk_key_encoding"] });
    const keys = inDocument(key, () => kencEntry.fromConfig(kenc.configuration, ["chunk_key_encoding"]));
    return { grid, keys, problem, chunkStore: store, ignoredTransformers: undefined };
  }
}

/**
 * The fill value as the node's own document states it. Core models a Zarr v2 array in v3
 * terms (`fill_value: null` becomes the data type's zero), but `info` shows what is stored,
 * so a v2 array's `.zarray` is read for it.
 */
async function storedFillValue(store: Store, node: ListedNode, meta: ArrayMetadata): Promise<JsonValue> {
  if (node.zarrFormat !== 2) return meta.fill_value;
  const bytes = await store.get(`${nodePrefix(node.path)}.zarray`);
  if (bytes === undefined) return meta.fill_value;
  try {
    const doc = JSON.parse(new TextDecoder().decode(bytes)) as JsonObject;
    return Object.hasOwn(doc, "fill_value") ? (doc.fill_value as JsonValue) : meta.fill_value;
  } catch {
    return meta.fill_value; // core parsed it already; a document it accepted but JSON.parse does not (NaN literals) keeps core's value
  }
}

/**
 * The chunk key encoding a format imposes (the early v3 draft's `c0/1` keys), as JSON; the
 * metadata's v3 model of it would name keys the store does not hold.
 */
function ownKeyEncoding(node: ListedNode, keys: ChunkKeyEncoding): JsonObject | undefined {
  if (node.format?.chunkKeyEncoding === undefined) return undefined;
  const json = (keys as ChunkKeyEncoding & { toJSON?: () => JsonValue }).toJSON?.();
  return isJsonObject(json) ? json : undefined;
}

/** The description of an array node. */
async function describeArray(
  store: Store,
  node: ListedNode,
  meta: ArrayMetadata,
  registry: Registry,
  options: DescribeOptions,
): Promise<JsonObject> {
  const { grid, keys, problem, chunkStore, ignoredTransformers } = await resolveLayout(store, node, meta, registry);
  const prefix = node.format?.chunkPrefix?.(node.path) ?? nodePrefix(node.path);
  const { prefixes, extra } = keyLocations(node);
  // Through the array's storage transformers, which may keep its chunks under other keys.
  const stored = await storedKeys(chunkStore, prefixes, extra);
  const ndim = meta.shape.length;
  let chunksStored = 0;
  for (const key of stored?.keys ?? []) {
    if (!key.startsWith(prefix)) continue; // the node's own document (early v3 draft)
    const coords = keys.decode(key.slice(prefix.length), ndim);
    if (coords?.every((c, d) => c < grid.gridShape[d])) chunksStored++;
  }
  const probed =
    stored === undefined && options.probeChunks
      ? await probedKeys(store, chunkStore, prefix, extra.length > 0 ? extra : metadataDocuments(node, "array"), grid, keys, options.onProbeProgress)
      : undefined;
  const regular = meta.chunk_grid.name === "regular" ? meta.chunk_grid.configuration.chunk_shape : undefined;
  const out: JsonObject = {
    path: `/${node.path}`,
    node_type: "array",
    zarr_format: node.zarrFormat,
    ...formatField(node),
    shape: meta.shape,
    data_type: { name: meta.data_type.name, configuration: meta.data_type.configuration },
    chunk_grid: { name: meta.chunk_grid.name, configuration: meta.chunk_grid.configuration },
    chunk_shape: regular ?? null,
    grid_shape: [...grid.gridShape],
    chunk_key_encoding: ownKeyEncoding(node, keys) ?? { name: meta.chunk_key_encoding.name, configuration: meta.chunk_key_encoding.configuration },
    fill_value: await storedFillValue(store, node, meta),
    codecs: meta.codecs as unknown as JsonValue[],
    dimension_names: meta.dimension_names ?? null,
    attributes: {}, // shareAttributes below
    stored_bytes: stored?.bytes ?? probed?.bytes ?? null,
    stored_keys: stored?.keys.length ?? probed?.keys ?? null,
    chunks_stored: stored !== undefined ? chunksStored : (probed?.chunks ?? null),
    chunks_total: grid.gridShape.reduce((a, b) => a * b, 1),
    readable: problem === undefined,
  };
  // Said only when it happened: a listing needs no note.
  if (probed !== undefined) out.stored_counted_by = "probing each chunk key";
  if (meta.storage_transformers.length > 0) out.storage_transformers = describeTransformers(meta, ignoredTransformers);
  if (problem !== undefined) out.problem = problem;
  return shareAttributes(out, meta);
}

/**
 * The array's storage transformers as its metadata names them, each with `applied`: true
 * when chunk reads and writes go through it, false when it was skipped (not registered,
 * with `"must_understand": false`) or the array does not resolve.
 */
function describeTransformers(meta: ArrayMetadata, ignored: readonly string[] | undefined): JsonValue[] {
  const skipped = [...(ignored ?? [])];
  return meta.storage_transformers.map((t) => {
    const at = skipped.indexOf(t.name);
    if (at >= 0) skipped.splice(at, 1);
    const applied = ignored !== undefined && at < 0;
    return { ...(t as unknown as JsonObject), applied };
  });
}

/** The description of a group node. */
async function describeGroup(store: Store, node: ListedNode): Promise<JsonObject> {
  const meta = node.metadata?.node_type === "group" ? node.metadata : undefined;
  const children = await listChildren(store, node);
  const { prefixes, extra } = keyLocations(node);
  const stored = await storedKeys(store, prefixes, extra);
  const out: JsonObject = {
    path: `/${node.path}`,
    node_type: "group",
    zarr_format: node.zarrFormat,
    ...formatField(node),
    implicit: meta === undefined,
    // v3 inline consolidated metadata, or a v2 hierarchy read through its .zmetadata.
    consolidated: meta?.consolidated_metadata != null || (node.zarrFormat === 2 && node.group?.consolidated !== undefined),
    attributes: {}, // shareAttributes below
    children: children.map((c) => {
      const child: JsonObject = { name: c.name, node_type: c.kind };
      if (c.metadata === undefined) child.implicit = true;
      return child;
    }),
    stored_bytes: stored?.bytes ?? null,
    stored_keys: stored?.keys.length ?? null,
  };
  return shareAttributes(out, meta);
}

/**
 * Describes the node `node` (found with `findNode`) for `zarr info`. When the store
 * cannot list keys, the stored size is unknown (`null`) unless `options.probeChunks` asks
 * for each chunk key of an array (`zarr info --stored`).
 *
 * @example
 * ```ts
 * const info = await describeNode(store, await findNode(store, "t2m"), cliRegistry());
 * ```
 */
export function describeNode(store: Store, node: ListedNode, registry: Registry, options: DescribeOptions = {}): Promise<JsonObject> {
  if (node.metadata?.node_type === "array") return describeArray(store, node, node.metadata, registry, options);
  return describeGroup(store, node);
}
