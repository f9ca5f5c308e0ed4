/**
 * Changing the hierarchy: deleting nodes, replacing or merging attributes, and
 * consolidating metadata.
 */
import {
  type ArrayMetadata,
  asZarrError,
  type Attributes,
  type GroupMetadata,
  isJsonObject,
  isListable,
  isWritable,
  type JsonValue,
  type NodeMetadata,
  type Store,
  ZarrError,
} from "@zarr/spec";
import { invalidateChunkCaches } from "./chunk-cache.js";
import { walkEntries } from "./listing.js";
import { writeNodeMetadata } from "./metadata-io.js";
import type { NodeOptions } from "./node-options.js";
import { ZarrArray, ZarrGroup, type ZarrNode } from "./nodes.js";
import { entryToNodeAt, openGroup } from "./open.js";
import { metadataKey, nodePrefix, normalizePath } from "./paths.js";
import { defaultRegistry } from "./registry.js";

/** Throws `STORE_READ_ONLY` unless `store` can be written (`what` names the attempted change). */
export function requireWritable(store: Store, what: string): asserts store is Store & Required<Pick<Store, "set" | "delete">> {
  if (!isWritable(store)) throw new ZarrError("STORE_READ_ONLY", `Cannot ${what}: the store is not writable`);
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
    const { store, path, registry, dataType, fillValue, chunkGrid, chunkKeyEncoding, codecs, config, zarrFormat, format } = a;
    const resolved = { store, path, registry, dataType, fillValue, chunkGrid, chunkKeyEncoding, codecs, config, zarrFormat, format };
    return new ZarrArray({ ...resolved, metadata: metadata as ArrayMetadata }) as N;
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
    const entry = await group.format.consolidate(group, options);
    return (await entryToNodeAt(store, { ...entry, format: entry.format ?? group.format }, { registry })) as ZarrGroup;
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
