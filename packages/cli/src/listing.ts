/**
 * Listing a group's children from their metadata documents alone. Unlike core's
 * `children()`, nothing is resolved through the registry, so a tree or an info of a
 * group still works when some array below it uses a codec this CLI does not have.
 */
import { readNodeMetadata } from "@zarr/core";
import { asZarrError, isListable, type NodeMetadata, type Store, ZarrError } from "@zarr/spec";

/** A node as found in the hierarchy: its metadata, or none for an implicit group. */
export interface ListedNode {
  /** Last path segment (`""` for the root). */
  name: string;
  /** Full path in the store (`""` for the root). */
  path: string;
  kind: "array" | "group";
  /** The node's document; `undefined` for an implicit group. */
  metadata: NodeMetadata | undefined;
  /** Descendants' documents relative to this node, when consolidated metadata covers them. */
  consolidated: ReadonlyMap<string, NodeMetadata> | undefined;
}

/** `a/b` + `c` → `a/b/c`. */
export function joinPath(parent: string, child: string): string {
  return parent === "" ? child : `${parent}/${child}`;
}

/** The store prefix of a node's keys (`""` for the root). */
export function nodePrefix(path: string): string {
  return path === "" ? "" : `${path}/`;
}

/** A node from its metadata, keeping consolidated metadata it carries or inherits. */
export function listedNode(
  path: string,
  metadata: NodeMetadata | undefined,
  inherited: ReadonlyMap<string, NodeMetadata> | undefined,
): ListedNode {
  let consolidated = inherited;
  if (metadata?.node_type === "group" && metadata.consolidated_metadata) {
    // Inside a consolidated parent, zarr-python gives nested groups an empty
    // consolidated_metadata of their own: the parent's flattened view has their descendants.
    const own = Object.entries(metadata.consolidated_metadata.metadata);
    consolidated = new Map([...own, ...(inherited ?? [])]);
  }
  return {
    name: path.slice(path.lastIndexOf("/") + 1),
    path,
    kind: metadata?.node_type === "array" ? "array" : "group",
    metadata,
    consolidated: metadata?.node_type === "array" ? undefined : consolidated,
  };
}

function below(map: ReadonlyMap<string, NodeMetadata>, rel: string): Map<string, NodeMetadata> {
  const prefix = `${rel}/`;
  const out = new Map<string, NodeMetadata>();
  for (const [k, v] of map) if (k.startsWith(prefix)) out.set(k.slice(prefix.length), v);
  return out;
}

async function hasKeysUnder(store: Store, prefix: string): Promise<boolean> {
  if (!isListable(store)) return false;
  for await (const _ of store.listPrefix(prefix)) return true;
  return false;
}

/** The children of a group, sorted by name. */
export async function listChildren(store: Store, group: ListedNode): Promise<ListedNode[]> {
  if (group.kind !== "group") return [];
  if (group.consolidated !== undefined) {
    const names = [...new Set([...group.consolidated.keys()].map((k) => k.split("/")[0]))].sort();
    return names.map((name) =>
      listedNode(joinPath(group.path, name), group.consolidated?.get(name), below(group.consolidated!, name)),
    );
  }
  if (!isListable(store)) {
    throw new ZarrError("UNSUPPORTED", `Cannot list the children of "${group.path || "/"}": the store cannot list keys`);
  }
  const prefix = nodePrefix(group.path);
  let prefixes: string[];
  try {
    prefixes = (await store.listDir(prefix)).prefixes;
  } catch (error) {
    throw asZarrError(error, "STORE_FAILED", `Could not list "${prefix}"`, prefix);
  }
  const out: ListedNode[] = [];
  for (const name of [...prefixes].sort()) {
    const path = joinPath(group.path, name);
    const metadata = await readNodeMetadata(store, path);
    if (metadata !== undefined || (await hasKeysUnder(store, nodePrefix(path)))) {
      out.push(listedNode(path, metadata, undefined));
    }
  }
  return out;
}

/**
 * The node at `path`: its own document, or an implicit group when keys exist below it.
 * Throws `NODE_NOT_FOUND` when there is neither.
 */
export async function findNode(store: Store, path: string): Promise<ListedNode> {
  const metadata = await readNodeMetadata(store, path);
  if (metadata !== undefined) return listedNode(path, metadata, undefined);
  if (await hasKeysUnder(store, nodePrefix(path))) return listedNode(path, undefined, undefined);
  const key = path === "" ? "zarr.json" : `${path}/zarr.json`;
  throw new ZarrError("NODE_NOT_FOUND", `No Zarr node at "${path || "/"}": "${key}" does not exist`, { key });
}
