/**
 * Listing the hierarchy: a group's children (as metadata or as nodes) and depth-first
 * walks below a group.
 */
import { asZarrError, type GroupMetadata, isListable, type NodeMetadata, throwIfAborted, ZarrError } from "@zarr/spec";
import { isDescendantPath } from "./consolidated-keys.js";
import { readFormatEntry } from "./formats.js";
import { isIncompleteWrite } from "./incomplete-write.js";
import { hasKeysUnder } from "./keys-under.js";
import { readNodeMetadata } from "./metadata-io.js";
import type { NodeEntry } from "./node-format.js";
import { ZarrGroup, type ZarrNode } from "./nodes.js";
import { consolidatedBelow, entryToNodeAt, IMPLICIT_GROUP, type OpenOptions } from "./open.js";
import { joinPath, nodePrefix } from "./paths.js";

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
    // Formats build these maps from documents: keep only names a child can have.
    for (const rel of group.consolidated.keys()) if (isDescendantPath(rel)) names.add(rel.split("/")[0]);
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
    // Every child is checked below (metadata, another format, keys under it): the store need not.
    listing = await store.listDir(nodePrefix(group.path), { signal: options.signal, uncheckedPrefixes: true });
  } catch (error) {
    throw asZarrError(error, "STORE_FAILED", `Could not list "${nodePrefix(group.path)}"`, nodePrefix(group.path));
  }
  const out: NodeEntry[] = [];
  for (const name of [...listing.prefixes].sort()) {
    if (name.includes("/") || !isDescendantPath(name)) continue; // a store yielding "" or ".." names no child
    const path = joinPath(group.path, name);
    const meta = await readNodeMetadata(store, path, options.signal);
    if (meta !== undefined) {
      out.push({ path, name, kind: meta.node_type, metadata: meta, implicit: false });
      continue;
    }
    const other = await readFormatEntry(store, path, group.registry, options.signal);
    if (other !== undefined) out.push({ ...other, path, name });
    else if (await isIncompleteWrite(store, path, options.signal)) {
      // An interrupted write is no node (opening it says so): neither an array nor a group.
    } else if (await hasKeysUnder(store, nodePrefix(path), options.signal)) {
      out.push({ path, name, kind: "group", metadata: IMPLICIT_GROUP, implicit: true });
    }
  }
  return out;
}

async function entryToNode(group: ZarrGroup, entry: NodeEntry, options: OpenOptions): Promise<ZarrNode> {
  return entryToNodeAt(group.store, entry, { registry: group.registry, ...options });
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
