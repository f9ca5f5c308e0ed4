/**
 * The hierarchy: open and create groups and arrays at any path, list children, walk the
 * tree, delete nodes, test existence, update attributes, consolidate metadata.
 */
import {
  type ArrayMetadata,
  type Attributes,
  asZarrError,
  type ExtensionObject,
  type GroupMetadata,
  isJsonObject,
  isListable,
  isWritable,
  type JsonObject,
  type JsonValue,
  MetadataError,
  type NodeMetadata,
  parseArrayMetadata,
  type Scalar,
  type Store,
  throwIfAborted,
  ZarrError,
} from "@zarr/spec";
import { invalidateChunkCaches } from "./chunk-cache.js";
import type { NodeFormat } from "./formats.js";
import { readNodeMetadata, writeNodeMetadata } from "./metadata-io.js";
import { type ArrayConfig, type NodeOptions, resolveArray, withMetadataKey, ZarrArray, ZarrGroup } from "./nodes.js";
import { joinPath, metadataKey, nodePrefix, normalizePath, parentPath, validateNewNodePath } from "./paths.js";
import { defaultRegistry, type Registry } from "./registry.js";

/** A node: an array or a group. */
export type ZarrNode = ZarrArray | ZarrGroup;

/** Options of `open`. */
export interface OpenOptions extends NodeOptions, Partial<ArrayConfig> {
  signal?: AbortSignal;
}

/** Consolidated entries below `rel`, re-keyed relative to it. */
function consolidatedBelow(map: ReadonlyMap<string, NodeMetadata>, rel: string): Map<string, NodeMetadata> {
  const prefix = `${rel}/`;
  const out = new Map<string, NodeMetadata>();
  for (const [k, v] of map) if (k.startsWith(prefix)) out.set(k.slice(prefix.length), v);
  return out;
}

/** Builds a node from metadata already in hand (no store access for groups). */
async function nodeFromMetadata(
  store: Store,
  path: string,
  metadata: NodeMetadata,
  options: OpenOptions,
  inherited?: ReadonlyMap<string, NodeMetadata>,
  format?: NodeFormat,
): Promise<ZarrNode> {
  const registry = options.registry ?? defaultRegistry;
  if (metadata.node_type === "array") {
    return resolveArray(store, path, metadata, { registry, writeEmptyChunks: options.writeEmptyChunks, format, chunkCache: options.chunkCache });
  }
  // The nearest consolidating ancestor's map is authoritative: zarr-python writes empty
  // consolidated_metadata into nested groups of a consolidated hierarchy.
  let consolidated: ReadonlyMap<string, NodeMetadata> | undefined = inherited;
  if (metadata.consolidated_metadata && (inherited === undefined || inherited.size === 0)) {
    consolidated = new Map(Object.entries(metadata.consolidated_metadata.metadata));
  }
  return new ZarrGroup(store, path, metadata, registry, consolidated, false, format?.zarrFormat ?? 3, format);
}

/**
 * Asks the registry's `"format"` entries (Zarr v2, the early v3 draft, ...), in order,
 * for the node at `path`; the first that has one answers.
 */
async function readFormatEntry(store: Store, path: string, registry: Registry, signal?: AbortSignal): Promise<NodeEntry | undefined> {
  for (const format of await registry.formats()) {
    throwIfAborted(signal);
    const entry = await format.read(store, path, { registry, signal });
    if (entry !== undefined) return entry;
  }
  return undefined;
}

async function hasKeysUnder(store: Store, prefix: string, signal?: AbortSignal): Promise<boolean> {
  if (!isListable(store)) return false;
  for await (const _ of store.listPrefix(prefix, { signal })) return true;
  return false;
}

/**
 * Opens the node at `path` (default: the root) of a store, or relative to a group. A
 * group opened from consolidated metadata answers for its descendants without reading
 * the store. A path with no `zarr.json` but with keys below it opens as an implicit group
 * (older writers relied on them; we always write explicit groups).
 *
 * @example
 * ```ts
 * const root = await open(store);              // the root group
 * const t2m = await open(root, "climate/t2m"); // uses the root's consolidated metadata if any
 * if (t2m.kind === "array") console.log(t2m.shape, t2m.dataType.name);
 * ```
 */
export async function open(location: Store | ZarrGroup, path = "", options: OpenOptions = {}): Promise<ZarrNode> {
  throwIfAborted(options.signal);
  if (location instanceof ZarrGroup) {
    const rel = normalizePath(path);
    const opts = { registry: location.registry, ...options };
    if (rel === "") return location;
    const full = joinPath(location.path, rel);
    const known = location.consolidated?.get(rel);
    if (known !== undefined) {
      return nodeFromMetadata(location.store, full, known, opts, consolidatedBelow(location.consolidated!, rel), location.format);
    }
    return open(location.store, full, opts);
  }
  const registry = options.registry ?? defaultRegistry;
  const entry = await openEntry(location, path, { registry, signal: options.signal });
  return entryToNodeAt(location, entry, { registry, ...options });
}

/**
 * The node at `path` as metadata, without resolving codecs (see {@link NodeEntry}): its
 * `zarr.json`, else what a registered format (Zarr v2, the early v3 draft) finds there,
 * else an implicit group when keys exist below it. Throws `NODE_NOT_FOUND` otherwise.
 *
 * @example
 * ```ts
 * const entry = await openEntry(store, "t2m");
 * console.log(entry.kind, entry.metadata.attributes); // works whatever codecs t2m uses
 * ```
 */
export async function openEntry(
  store: Store,
  path = "",
  options: { registry?: Registry; signal?: AbortSignal } = {},
): Promise<NodeEntry> {
  throwIfAborted(options.signal);
  const p = normalizePath(path);
  const registry = options.registry ?? defaultRegistry;
  const name = p.slice(p.lastIndexOf("/") + 1);
  let metadata: NodeMetadata | undefined;
  let invalid: MetadataError | undefined;
  try {
    metadata = await readNodeMetadata(store, p, options.signal);
  } catch (error) {
    // Another format may own this zarr.json (the early v3 draft's entry point); if none does, this error stands.
    if (!(error instanceof MetadataError)) throw error;
    invalid = error;
  }
  if (metadata !== undefined) return { path: p, name, kind: metadata.node_type, metadata, implicit: false };
  const entry = await readFormatEntry(store, p, registry, options.signal);
  if (entry !== undefined) return entry;
  if (invalid !== undefined) throw invalid;
  if (await hasKeysUnder(store, nodePrefix(p), options.signal)) {
    return { path: p, name, kind: "group", metadata: IMPLICIT_GROUP, implicit: true };
  }
  const listable = isListable(store) ? "" : " (the store cannot list keys, so implicit groups cannot be detected)";
  throw new ZarrError("NODE_NOT_FOUND", `No Zarr node at "${p || "/"}": "${metadataKey(p)}" does not exist${listable}`, {
    key: metadataKey(p),
  });
}

/** Opens the array at `path`; throws `NODE_NOT_FOUND` when there is none or it is a group. */
export async function openArray(location: Store | ZarrGroup, path = "", options: OpenOptions = {}): Promise<ZarrArray> {
  const node = await open(location, path, options);
  if (node.kind !== "array") throw new ZarrError("NODE_NOT_FOUND", `"${node.path || "/"}" is a group, not an array`);
  return node;
}

/** Opens the group at `path`; throws `NODE_NOT_FOUND` when there is none or it is an array. */
export async function openGroup(location: Store | ZarrGroup, path = "", options: OpenOptions = {}): Promise<ZarrGroup> {
  const node = await open(location, path, options);
  if (node.kind !== "group") throw new ZarrError("NODE_NOT_FOUND", `"${node.path || "/"}" is an array, not a group`);
  return node;
}

/**
 * True when a node (explicit, or an implicit group) exists at `path`.
 *
 * @example
 * ```ts
 * if (!(await exists(store, "t2m"))) await createArray(store, "t2m", { ... });
 * ```
 */
export async function exists(store: Store, path = "", options: { signal?: AbortSignal } = {}): Promise<boolean> {
  const p = normalizePath(path);
  const key = metadataKey(p);
  try {
    const present = store.getSize ? (await store.getSize(key, options)) !== undefined : (await store.get(key, options)) !== undefined;
    if (present) return true;
  } catch (error) {
    throw asZarrError(error, "STORE_FAILED", `Could not read "${key}"`, key);
  }
  return hasKeysUnder(store, nodePrefix(p), options.signal);
}

function requireWritable(store: Store, what: string): asserts store is Store & Required<Pick<Store, "set" | "delete">> {
  if (!isWritable(store)) throw new ZarrError("STORE_READ_ONLY", `Cannot ${what}: the store is not writable`);
}

/** Options shared by `createGroup` and `createArray`. */
export interface CreateNodeOptions extends NodeOptions {
  /** User attributes. */
  attributes?: Attributes;
  /** Replace a node already at the path (deleting everything below it). Default false: `NODE_EXISTS`. */
  overwrite?: boolean;
  signal?: AbortSignal;
}

/** Makes sure a node can be created at `path`: parents are groups (or absent), nothing is there unless overwriting. */
async function prepareNewNode(store: Store, path: string, options: CreateNodeOptions): Promise<void> {
  validateNewNodePath(path);
  for (let parent = parentPath(path); parent !== undefined; parent = parentPath(parent)) {
    const meta = await readNodeMetadata(store, parent, options.signal);
    if (meta?.node_type === "array") {
      throw new ZarrError("INVALID_ARGUMENT", `Cannot create "${path}": its ancestor "${parent || "/"}" is an array`);
    }
    if (meta !== undefined) break; // an explicit group: its own ancestors were checked when it was made
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
 * Creates a group at `path` (and explicit groups for missing ancestors).
 *
 * @example
 * ```ts
 * const root = await createGroup(store, "", { attributes: { title: "climate" } });
 * const sub = await createGroup(store, "a/b");  // also writes a/zarr.json
 * ```
 */
export async function createGroup(store: Store, path = "", options: CreateNodeOptions = {}): Promise<ZarrGroup> {
  requireWritable(store, `create group "${path}"`);
  const p = normalizePath(path);
  if (options.attributes !== undefined && !isJsonObject(options.attributes)) {
    throw new ZarrError("INVALID_ARGUMENT", "attributes must be a JSON object");
  }
  await prepareNewNode(store, p, options);
  await writeMissingParents(store, p, options.signal);
  const metadata: GroupMetadata = { zarr_format: 3, node_type: "group", attributes: options.attributes ?? {} };
  await writeNodeMetadata(store, p, metadata, options.signal);
  return new ZarrGroup(store, p, metadata, options.registry ?? defaultRegistry, undefined);
}

/** An extension definition in options: a name, or `{name, configuration}`. */
export type ExtensionLike = string | { name: string; configuration?: JsonObject; must_understand?: boolean };

/** Options of `createArray`. */
export interface CreateArrayOptions extends CreateNodeOptions, Partial<ArrayConfig> {
  shape: readonly number[];
  /** `"float32"`, `"string"`, `{name: "numpy.datetime64", configuration: {unit: "s", scale_factor: 1}}`, ... */
  dataType: ExtensionLike;
  /** Regular chunk shape (default: chosen from the array's size, about 1 MiB per chunk). */
  chunkShape?: readonly number[];
  /** Rectilinear grid: per dimension a chunk size or a list of chunk edge lengths. */
  chunkShapes?: ReadonlyArray<number | readonly number[]>;
  /** Any chunk grid as metadata (overrides `chunkShape`/`chunkShapes`). */
  chunkGrid?: ExtensionLike;
  /** Key encoding: `{name: "default", separator: "/"}` (default) or `{name: "v2", separator: "."}`. */
  chunkKeyEncoding?: { name: "default" | "v2"; separator?: "/" | "." };
  /** Fill value, as a JavaScript value (`NaN`, `0n`, `"x"`) or its metadata form (`"NaN"`, `"0x7fc00001"`). Default: the type's zero. */
  fillValue?: Scalar | JsonValue;
  /** The codec chain (default: `bytes` (or `vlen-*` for variable-size types) then `zstd` when the registry has it). */
  codecs?: readonly ExtensionLike[];
  dimensionNames?: readonly (string | null)[];
}

function toExtension(e: ExtensionLike): ExtensionObject {
  if (typeof e === "string") return { name: e, configuration: {} };
  const out: ExtensionObject = { name: e.name, configuration: e.configuration ?? {} };
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
 * Fills in the `bytes` codec's `endian` ("little") when the caller left it out for a
 * multi-byte type, also inside sharding chains, so the written metadata is complete.
 */
function withDefaultEndian(codec: ExtensionObject, multiByte: boolean): ExtensionObject {
  if (codec.name === "bytes" && multiByte && codec.configuration.endian === undefined) {
    return { ...codec, configuration: { ...codec.configuration, endian: "little" } };
  }
  if (codec.name === "sharding_indexed") {
    const config = { ...codec.configuration };
    if (Array.isArray(config.codecs)) {
      config.codecs = config.codecs.map((c) => withDefaultEndian(toExtension(c as ExtensionLike), multiByte) as unknown as JsonObject);
    }
    if (Array.isArray(config.index_codecs)) {
      config.index_codecs = config.index_codecs.map((c) => withDefaultEndian(toExtension(c as ExtensionLike), true) as unknown as JsonObject);
    }
    return { ...codec, configuration: config };
  }
  return codec;
}

function defaultCodecs(dataTypeKind: string, byteSize: number | undefined, registry: Registry): ExtensionObject[] {
  let first: ExtensionObject;
  if (byteSize !== undefined) first = { name: "bytes", configuration: { endian: "little" } };
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
 * metadata.
 *
 * @example
 * ```ts
 * const t2m = await createArray(store, "climate/t2m", {
 *   shape: [365, 721, 1440], chunkShape: [1, 721, 1440], dataType: "float32",
 *   fillValue: NaN, dimensionNames: ["time", "lat", "lon"],
 *   codecs: [{ name: "bytes", configuration: { endian: "little" } }],
 * });
 * ```
 */
export async function createArray(store: Store, path: string, options: CreateArrayOptions): Promise<ZarrArray> {
  requireWritable(store, `create array "${path}"`);
  const p = normalizePath(path);
  const registry = options.registry ?? defaultRegistry;
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
        throw asZarrError(error, "INVALID_ARGUMENT", `Invalid fill value ${String(v)} for data type ${dataType.name}`);
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
  const kenc = options.chunkKeyEncoding ?? { name: "default" };
  const codecs = options.codecs?.map((c) => withDefaultEndian(toExtension(c), dataType.componentSize > 1)) ??
    defaultCodecs(dataType.kind, dataType.byteSize, registry);
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
    attributes: options.attributes ?? {},
  };
  if (options.dimensionNames !== undefined) doc.dimension_names = [...options.dimensionNames];
  const parsed = parseArrayMetadata(doc, { key });
  // Resolving validates the whole document (grid vs shape, codec chain vs data type).
  const probe = await resolveArray(store, p, parsed, { registry });
  // Record every parameter the codecs chose (e.g. a typesize taken from the data type).
  const metadata: ArrayMetadata = { ...parsed, chunk_grid: probe.chunkGrid.toJSON(), codecs: probe.codecs.toJSON() };
  await prepareNewNode(store, p, options);
  await writeMissingParents(store, p, options.signal);
  await writeNodeMetadata(store, p, metadata, options.signal);
  return resolveArray(store, p, metadata, { registry, writeEmptyChunks: options.writeEmptyChunks, chunkCache: options.chunkCache });
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
export function create(store: Store, path: string, options: CreateArrayOptions): Promise<ZarrArray>;
export function create(store: Store, path?: string, options?: CreateNodeOptions): Promise<ZarrGroup>;
export function create(
  store: Store,
  path = "",
  options: CreateNodeOptions | CreateArrayOptions = {},
): Promise<ZarrArray | ZarrGroup> {
  if ("shape" in options && options.shape !== undefined) return createArray(store, path, options as CreateArrayOptions);
  return createGroup(store, path, options);
}

/** A node found while listing: its path and metadata, codecs not resolved. */
export interface NodeEntry {
  path: string;
  name: string;
  kind: "array" | "group";
  metadata: NodeMetadata;
  /** A group without a `zarr.json` that exists because it has children. */
  implicit: boolean;
  /** Consolidated metadata of the descendants, when the listing came from it. */
  consolidated?: ReadonlyMap<string, NodeMetadata>;
  /** The storage format the node was read from, when it is not Zarr v3 (see `NodeFormat`). */
  format?: NodeFormat;
}

const IMPLICIT_GROUP: GroupMetadata = { zarr_format: 3, node_type: "group", attributes: {} };

/**
 * The children of a group as metadata, sorted by name, without resolving any codec (so a
 * listing works even when an array uses a codec the registry lacks): from consolidated
 * metadata when the group has it, otherwise by listing the store (`UNSUPPORTED` when it
 * cannot list).
 *
 * @example
 * ```ts
 * for (const e of await listChildren(root)) console.log(e.kind, e.path, e.metadata.attributes);
 * ```
 */
export async function listChildren(group: ZarrGroup, options: { signal?: AbortSignal } = {}): Promise<NodeEntry[]> {
  if (group.consolidated !== undefined) {
    const names = new Set<string>();
    for (const rel of group.consolidated.keys()) names.add(rel.split("/")[0]);
    return [...names].sort().map((name) => {
      const meta = group.consolidated?.get(name);
      return {
        path: joinPath(group.path, name),
        name,
        kind: meta?.node_type ?? "group",
        metadata: meta ?? IMPLICIT_GROUP,
        implicit: meta === undefined,
        consolidated: consolidatedBelow(group.consolidated as ReadonlyMap<string, NodeMetadata>, name),
        ...(group.format === undefined ? {} : { format: group.format }),
      };
    });
  }
  if (group.format?.listChildren !== undefined) return group.format.listChildren(group, options);
  const { store } = group;
  if (!isListable(store)) {
    throw new ZarrError(
      "UNSUPPORTED",
      `Cannot list the children of "${group.path || "/"}": the store cannot list keys and the group has no consolidated metadata`,
    );
  }
  let listing: Awaited<ReturnType<typeof store.listDir>>;
  try {
    listing = await store.listDir(nodePrefix(group.path), { signal: options.signal });
  } catch (error) {
    throw asZarrError(error, "STORE_FAILED", `Could not list "${nodePrefix(group.path)}"`, nodePrefix(group.path));
  }
  const out: NodeEntry[] = [];
  for (const name of [...listing.prefixes].sort()) {
    const path = joinPath(group.path, name);
    const meta = await readNodeMetadata(store, path, options.signal);
    if (meta !== undefined) {
      out.push({ path, name, kind: meta.node_type, metadata: meta, implicit: false });
      continue;
    }
    const other = await readFormatEntry(store, path, group.registry, options.signal);
    if (other !== undefined) out.push({ ...other, path, name });
    else if (await hasKeysUnder(store, nodePrefix(path), options.signal)) {
      out.push({ path, name, kind: "group", metadata: IMPLICIT_GROUP, implicit: true });
    }
  }
  return out;
}

async function entryToNode(group: ZarrGroup, entry: NodeEntry, options: OpenOptions): Promise<ZarrNode> {
  return entryToNodeAt(group.store, entry, { registry: group.registry, ...options });
}

function entryToNodeAt(store: Store, entry: NodeEntry, options: OpenOptions): Promise<ZarrNode> | ZarrNode {
  const registry = options.registry ?? defaultRegistry;
  if (entry.implicit) {
    const zarrFormat = entry.format?.zarrFormat ?? 3;
    return new ZarrGroup(store, entry.path, IMPLICIT_GROUP, registry, entry.consolidated, true, zarrFormat, entry.format);
  }
  return nodeFromMetadata(store, entry.path, entry.metadata, { ...options, registry }, entry.consolidated, entry.format);
}

/**
 * The children of a group as nodes, sorted by name (see {@link listChildren}; arrays are
 * resolved, so an unknown codec fails with `CODEC_UNKNOWN`).
 *
 * @example
 * ```ts
 * for (const child of await children(root)) console.log(child.kind, child.path);
 * ```
 */
export async function children(group: ZarrGroup, options: OpenOptions = {}): Promise<ZarrNode[]> {
  const out: ZarrNode[] = [];
  for (const entry of await listChildren(group, options)) out.push(await entryToNode(group, entry, options));
  return out;
}

/**
 * Walks the hierarchy below `group` depth-first (parents before children), yielding
 * every descendant's metadata without resolving codecs.
 *
 * @example
 * ```ts
 * for await (const e of walkEntries(root)) console.log(e.path, e.kind);
 * ```
 */
export async function* walkEntries(group: ZarrGroup, options: { signal?: AbortSignal } = {}): AsyncGenerator<NodeEntry> {
  for (const entry of await listChildren(group, options)) {
    throwIfAborted(options.signal);
    yield entry;
    if (entry.kind === "group") {
      const child = new ZarrGroup(
        group.store,
        entry.path,
        entry.metadata as GroupMetadata,
        group.registry,
        entry.consolidated,
        entry.implicit,
        entry.format?.zarrFormat ?? 3,
        entry.format,
      );
      yield* walkEntries(child, options);
    }
  }
}

/**
 * Walks the hierarchy below `group` depth-first (parents before children), yielding
 * every descendant node.
 *
 * @example
 * ```ts
 * for await (const node of walk(root)) console.log(node.path);
 * ```
 */
export async function* walk(group: ZarrGroup, options: OpenOptions = {}): AsyncGenerator<ZarrNode> {
  for await (const entry of walkEntries(group, options)) yield entryToNode(group, entry, options);
}

/**
 * Deletes the node at `path` and everything below it (the root: the whole store).
 *
 * @example
 * ```ts
 * await deleteNode(store, "climate/t2m");
 * ```
 */
export async function deleteNode(store: Store, path: string, options: { signal?: AbortSignal } = {}): Promise<void> {
  requireWritable(store, `delete "${path}"`);
  const p = normalizePath(path);
  const prefix = nodePrefix(p);
  try {
    if (store.deletePrefix) await store.deletePrefix(prefix, options);
    else if (isListable(store)) {
      const keys: string[] = [];
      for await (const k of store.listPrefix(prefix, options)) keys.push(k);
      for (const k of keys) await store.delete(k, options);
    } else {
      throw new ZarrError("UNSUPPORTED", `Cannot delete "${p || "/"}": the store can neither delete prefixes nor list keys`);
    }
    if (p !== "") await store.delete(metadataKey(p), options);
  } catch (error) {
    throw asZarrError(error, "STORE_FAILED", `Could not delete "${p || "/"}"`, prefix);
  } finally {
    invalidateChunkCaches(store, prefix, { prefix: true });
  }
}

/**
 * Replaces a node's attributes, writing its `zarr.json`; returns the updated node.
 *
 * @example
 * ```ts
 * const updated = await setAttributes(arr, { units: "K" });
 * ```
 */
export async function setAttributes<N extends ZarrNode>(node: N, attributes: Attributes, options: { signal?: AbortSignal } = {}): Promise<N> {
  if (!isJsonObject(attributes)) throw new ZarrError("INVALID_ARGUMENT", "attributes must be a JSON object");
  const { format } = node;
  if (format !== undefined) {
    // A node of another format (Zarr v2, ...) writes its attributes into its own documents.
    if (format.writeAttributes === undefined) {
      throw new ZarrError("UNSUPPORTED", `Writing attributes of "${node.path || "/"}" (format ${format.name}) is not supported`);
    }
    await format.writeAttributes(node, attributes, options);
  } else if (node.zarrFormat !== 3) {
    throw new ZarrError("UNSUPPORTED", `Writing attributes of a Zarr v${node.zarrFormat} node needs @zarr/v2-compat`);
  }
  const metadata = { ...node.metadata, attributes };
  if (format === undefined) await writeNodeMetadata(node.store, node.path, metadata, options.signal);
  if (node.kind === "array") {
    const a = node as ZarrArray;
    return new ZarrArray(a.store, a.path, metadata as ArrayMetadata, a.registry, a.dataType, a.fillValue, a.chunkGrid, a.chunkKeyEncoding, a.codecs, a.config, a.zarrFormat, a.format) as N;
  }
  const g = node as ZarrGroup;
  return new ZarrGroup(g.store, g.path, metadata as GroupMetadata, g.registry, g.consolidated, false, g.zarrFormat, g.format) as N;
}

/**
 * Merges `patch` into a node's attributes (top-level keys; `undefined` values delete)
 * and writes them; returns the updated node.
 *
 * @example
 * ```ts
 * const updated = await updateAttributes(arr, { long_name: "2 m temperature" });
 * ```
 */
export async function updateAttributes<N extends ZarrNode>(
  node: N,
  patch: Record<string, JsonValue | undefined>,
  options: { signal?: AbortSignal } = {},
): Promise<N> {
  const next: Attributes = { ...node.attributes };
  for (const [k, v] of Object.entries(patch)) {
    if (v === undefined) delete next[k];
    else next[k] = v;
  }
  return setAttributes(node, next, options);
}

/**
 * Writes inline consolidated metadata (every descendant's `zarr.json`, keyed by path
 * relative to the group) into the group at `path`, so opening the hierarchy costs one
 * read. Returns the group. Re-run it after changing the hierarchy.
 *
 * @example
 * ```ts
 * await consolidateMetadata(store);
 * const root = await openGroup(store); // children(root) reads nothing more
 * ```
 */
export async function consolidateMetadata(
  store: Store,
  path = "",
  options: NodeOptions & { signal?: AbortSignal } = {},
): Promise<ZarrGroup> {
  const p = normalizePath(path);
  const registry = options.registry ?? defaultRegistry;
  const group = await openGroup(store, p, { registry, signal: options.signal });
  if (group.format !== undefined) {
    // A group of another format (Zarr v2: .zmetadata) consolidates in its own way.
    if (group.format.consolidate === undefined) {
      throw new ZarrError("UNSUPPORTED", `Consolidating metadata of "${p || "/"}" (format ${group.format.name}) is not supported`);
    }
    return group.format.consolidate(group, options);
  }
  // Walk the store itself, not older consolidated metadata.
  const fresh = new ZarrGroup(store, p, group.metadata, registry, undefined, group.implicit);
  const metadata: Record<string, NodeMetadata> = {};
  for await (const node of walkEntries(fresh, { signal: options.signal })) {
    const rel = p === "" ? node.path : node.path.slice(p.length + 1);
    if (node.implicit) continue;
    const m = node.metadata;
    metadata[rel] = m.node_type === "group" ? { ...m, consolidated_metadata: undefined } : m;
    if (m.node_type === "group") delete (metadata[rel] as GroupMetadata).consolidated_metadata;
  }
  const groupMeta: GroupMetadata = {
    zarr_format: 3,
    node_type: "group",
    attributes: group.attributes,
    consolidated_metadata: { kind: "inline", must_understand: false, metadata },
  };
  await writeNodeMetadata(store, p, groupMeta, options.signal);
  return new ZarrGroup(store, p, groupMeta, registry, new Map(Object.entries(metadata)));
}

