/**
 * Opening nodes: `open` (and its array/group variants), the metadata-only `openEntry`
 * and `exists`, and turning a listed entry into a node.
 */
import {
  MetadataError,
  type NodeMetadata,
  type Store,
  throwIfAborted,
  ZarrError,
} from "@zarr/spec";
import { sameDataTypeName } from "./data-type-map.js";
import { readNodeMetadata } from "./metadata-io.js";
import type { NodeEntry, NodeFormat } from "./node-format.js";
import type { ArrayConfig, NodeOptions } from "./node-options.js";
import { resolveArray, type ZarrArray, ZarrGroup, type ZarrNode } from "./nodes.js";
import { joinPath, metadataKey, nodePrefix, normalizePath } from "./paths.js";
import { defaultRegistry, type Registry } from "./registry.js";
// Through the lazy modules' import point, so that it lands in the up-front chunk (see up-front.ts).
import { IMPLICIT_GROUP, readFailed } from "./up-front.js";

/** Options of `open`. */
export interface OpenOptions extends NodeOptions, Partial<ArrayConfig> {
  signal?: AbortSignal;
}

/** Consolidated entries below `rel`, re-keyed relative to it. */
export function consolidatedBelow(map: ReadonlyMap<string, NodeMetadata>, rel: string): Map<string, NodeMetadata> {
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
    // An array whose extensions the registry lacks still opens (and lists): its data fails when used.
    // OpenOptions' array settings (writeEmptyChunks, chunkCache, the memory bounds) pass as they are.
    return resolveArray(store, path, metadata, { ...options, registry, format, deferUnreadable: true });
  }
  // The nearest consolidating ancestor's map is authoritative: zarr-python writes empty
  // consolidated_metadata into nested groups of a consolidated hierarchy.
  let consolidated: ReadonlyMap<string, NodeMetadata> | undefined = inherited;
  if (metadata.consolidated_metadata && (inherited === undefined || inherited.size === 0)) {
    // Loaded only for consolidated groups: most opens never need it (bundle size).
    const { validConsolidatedEntries } = await import("./consolidated-keys.js");
    consolidated = validConsolidatedEntries(Object.entries(metadata.consolidated_metadata.metadata), metadataKey(path));
  }
  return new ZarrGroup(store, path, metadata, registry, consolidated, false, format?.zarrFormat ?? 3, format);
}

// Re-exported for the modules that list nodes (listing.ts).
export { IMPLICIT_GROUP };

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
  // Other formats are asked only about paths without a valid zarr.json (loaded then: bundle size).
  const entry = await (await import("./formats.js")).readFormatEntry(store, p, registry, options.signal);
  if (entry !== undefined) return entry;
  if (invalid !== undefined) throw invalid;
  // Only on the way to "not found" (loaded then: the common paths never need it).
  const { entryWithoutMetadata } = await import("./node-not-found.js");
  return entryWithoutMetadata(store, p, options.signal);
}

/** Options of `openArray`. */
export interface OpenArrayOptions<N extends string = string> extends OpenOptions {
  /**
   * The data type the array must have (`"float32"`, `"string"`, …; an alias such as
   * `"datetime64"` matches its full name). Checked when the array opens (an array of
   * another data type is an `INVALID_ARGUMENT` error), and the returned array is typed by
   * it: `get` then returns a `Float32Array` for `"float32"` (see `DataTypeMap`).
   */
  dataType?: N;
}

/**
 * Opens the array at `path`; throws `NODE_NOT_FOUND` when there is none or it is a group.
 * With `options.dataType` it also checks the array's data type and returns an array typed
 * by it.
 *
 * @example
 * ```ts
 * const t2m = await openArray(store, "t2m", { dataType: "float32" }); // ZarrArray<"float32">
 * const { data } = await get(t2m); // data: Float32Array, no cast
 * ```
 */
export function openArray<N extends string>(
  location: Store | ZarrGroup,
  path: string,
  options: OpenArrayOptions<N> & { dataType: N },
): Promise<ZarrArray<N>>;
// Without `dataType` the array is not narrowed (a separate signature: N must not be inferred from the caller's expected type).
export function openArray(location: Store | ZarrGroup, path?: string, options?: OpenArrayOptions): Promise<ZarrArray>;
export async function openArray<N extends string = string>(
  location: Store | ZarrGroup,
  path = "",
  options: OpenArrayOptions<N> = {},
): Promise<ZarrArray<N>> {
  const node = await open(location, path, options);
  if (node.kind !== "array") throw new ZarrError("NODE_NOT_FOUND", `"${node.path || "/"}" is a group, not an array`);
  const wanted = options.dataType;
  // Without `dataType`, N is its default `string`: every array is a ZarrArray<string>.
  if (wanted === undefined) return node as ZarrArray<N>;
  if (!sameDataTypeName(node.dataType.name, wanted)) {
    throw new ZarrError(
      "INVALID_ARGUMENT",
      `"${node.path || "/"}" has data type ${node.dataType.name}, not ${wanted} (options.dataType)`,
      { key: node.format?.metadataKey(node.path, "array") ?? metadataKey(node.path) },
    );
  }
  return node as ZarrArray<N>;
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
    throw readFailed(error, key);
  }
  return (await import("./keys-under.js")).hasKeysUnder(store, nodePrefix(p), options.signal);
}

/**
 * The group a group entry (from {@link openEntry} or `listChildren`) describes, built from
 * the entry without reading the store again (its consolidated metadata included);
 * `INVALID_ARGUMENT` for an array entry. Tools that list a hierarchy from entries (so that
 * an array with an unknown codec still lists) descend into groups with it.
 *
 * @example
 * ```ts
 * const entry = await openEntry(store, "climate");
 * if (entry.kind === "group") for (const e of await listChildren(await groupFromEntry(store, entry))) console.log(e.path);
 * ```
 */
export async function groupFromEntry(store: Store, entry: NodeEntry, options: OpenOptions = {}): Promise<ZarrGroup> {
  if (entry.kind !== "group") throw new ZarrError("INVALID_ARGUMENT", `"${entry.path || "/"}" is an array, not a group`);
  return (await entryToNodeAt(store, entry, options)) as ZarrGroup;
}

/** The node a listed (or opened) entry describes; arrays are resolved. */
export function entryToNodeAt(store: Store, entry: NodeEntry, options: OpenOptions): Promise<ZarrNode> | ZarrNode {
  const registry = options.registry ?? defaultRegistry;
  if (entry.implicit) {
    const zarrFormat = entry.format?.zarrFormat ?? 3;
    return new ZarrGroup(store, entry.path, IMPLICIT_GROUP, registry, entry.consolidated, true, zarrFormat, entry.format);
  }
  return nodeFromMetadata(store, entry.path, entry.metadata, { ...options, registry }, entry.consolidated, entry.format);
}
