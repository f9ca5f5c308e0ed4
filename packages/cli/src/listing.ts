/**
 * Finding nodes and listing children from their metadata alone, through @zarr/core's
 * `openEntry`/`listChildren`: nothing is resolved through the registry, so `tree` and
 * `info` work when some array uses a codec this CLI lacks, and registered formats (Zarr
 * v2, the early v3 draft) are found too.
 */
import { listChildren as coreListChildren, groupFromEntry, type NodeEntry, type NodeFormat, openEntry, type ZarrGroup } from "@zarr/core";
import type { NodeMetadata, Store } from "@zarr/spec";
import { cliRegistry } from "./registry.js";

/** A node as found in the hierarchy. */
export interface ListedNode {
  /** Last path segment (`""` for the root). */
  name: string;
  /** Full path in the store (`""` for the root). */
  path: string;
  kind: "array" | "group";
  /** The node's document (in the Zarr v3 model); `undefined` for an implicit group. */
  metadata: NodeMetadata | undefined;
  /** The format the node is stored in. */
  zarrFormat: 2 | 3;
  /** The storage format the node was read through, when it is not Zarr v3 (resolves its arrays, names their documents). */
  format?: NodeFormat;
  /** The group itself, for listing its children. */
  group?: ZarrGroup;
}

/** The store prefix of a node's keys (`""` for the root). */
export function nodePrefix(path: string): string {
  return path === "" ? "" : `${path}/`;
}

function listed(entry: NodeEntry, group?: ZarrGroup): ListedNode {
  return {
    name: entry.name,
    path: entry.path,
    kind: entry.kind,
    metadata: entry.implicit ? undefined : entry.metadata,
    zarrFormat: entry.format?.zarrFormat ?? 3,
    format: entry.format,
    group,
  };
}

/**
 * The node at `path` (its document, a registered format's, or an implicit group).
 * Throws `NODE_NOT_FOUND` when there is none.
 *
 * @example
 * ```ts
 * const node = await findNode(store, "climate/t2m");
 * ```
 */
export async function findNode(store: Store, path: string): Promise<ListedNode> {
  const registry = cliRegistry();
  const entry = await openEntry(store, path, { registry });
  // From the entry: reading the node's documents again would double every request over HTTP.
  const group = entry.kind === "group" ? await groupFromEntry(store, entry, { registry }) : undefined;
  return listed(entry, group);
}

/** The children of a group node, sorted by name. */
export async function listChildren(_store: Store, node: ListedNode): Promise<ListedNode[]> {
  const parent = node.group;
  if (node.kind !== "group" || parent === undefined) return [];
  const out: ListedNode[] = [];
  for (const entry of await coreListChildren(parent)) {
    // The listing already read each child group's documents (or has them consolidated).
    const group = entry.kind === "group" ? await groupFromEntry(parent.store, entry, { registry: parent.registry }) : undefined;
    out.push(listed(entry, group));
  }
  return out;
}
