/**
 * An in-memory snapshot of a hierarchy's metadata (attributes, shapes, dimension names),
 * which validation and georeferencing work on. It is loaded once from a store (through
 * consolidated metadata when present), or built from a metadata dump.
 */
import {
  MemoryStore,
  type NodeEntry,
  normalizePath,
  open,
  type Registry,
  readNodeMetadata,
  walkEntries,
  ZarrArray,
  ZarrGroup,
} from "@zarr/core";
import {
  isJsonObject,
  type JsonObject,
  type JsonValue,
  jsonToBytes,
  type NodeMetadata,
  parseNodeMetadata,
  type Store,
  ZarrError,
} from "@zarr/spec";
import { readMultiscales } from "./attributes.js";

/** One node of a {@link GeoHierarchy}. */
export interface GeoNode {
  /** Path relative to the hierarchy's root (`""` for the root). */
  path: string;
  /** Last path segment. */
  name: string;
  kind: "array" | "group";
  /** Zarr format of the node (2 for nodes read through a v2 reader). */
  zarrFormat: 2 | 3;
  attributes: JsonObject;
  /** Arrays: the shape. */
  shape?: readonly number[];
  /** Arrays: one name (or null) per dimension, from `dimension_names` or xarray's `_ARRAY_DIMENSIONS`. */
  dimensionNames?: readonly (string | null)[];
  /** Where the dimension names came from. */
  dimensionNamesFrom?: "dimension_names" | "_ARRAY_DIMENSIONS";
  /** Arrays: the data type name (`uint16`, `fixed_length_utf32`, ...). */
  dataType?: string;
  /** Arrays: the chunk shape of a regular grid (the outer, shard shape when sharded). */
  chunkShape?: readonly number[];
}

/** Joins two relative paths. */
export function joinRelative(a: string, b: string): string {
  if (a === "") return b;
  if (b === "") return a;
  return `${a}/${b}`;
}

/** The parent path of a relative path (`undefined` for the root). */
export function parentOf(path: string): string | undefined {
  if (path === "") return undefined;
  const i = path.lastIndexOf("/");
  return i < 0 ? "" : path.slice(0, i);
}

/**
 * The metadata of a hierarchy, by path. Paths are relative to the loaded root;
 * {@link GeoHierarchy.storePath} turns them back into store paths.
 */
export class GeoHierarchy {
  private readonly nodes = new Map<string, GeoNode>();
  private readonly kids = new Map<string, string[]>();

  constructor(
    nodes: Iterable<GeoNode>,
    /** Store path of the root (`""`: the store's root). */
    readonly basePath = "",
    /** The store the metadata came from, when reading data is possible. */
    readonly store?: Store,
    /** False when the store could not be listed: only nodes reachable from metadata were found. */
    readonly complete = true,
    /** True when the metadata came from consolidated metadata (which writers must then refresh). */
    readonly consolidated = false,
    /**
     * The registry the hierarchy was opened with: helpers given this hierarchy resolve
     * codecs through it unless told otherwise (as the opened group's own reads do).
     */
    readonly registry?: Registry,
  ) {
    for (const n of nodes) this.nodes.set(n.path, n);
    for (const path of this.nodes.keys()) {
      const parent = parentOf(path);
      if (parent === undefined) continue;
      let list = this.kids.get(parent);
      if (list === undefined) this.kids.set(parent, (list = []));
      list.push(path);
    }
    for (const list of this.kids.values()) list.sort();
  }

  /** The node at `path`, if any. */
  node(path: string): GeoNode | undefined {
    return this.nodes.get(path);
  }

  /** The root node. */
  get root(): GeoNode | undefined {
    return this.nodes.get("");
  }

  /** Every node, parents before children. */
  all(): GeoNode[] {
    return [...this.nodes.values()].sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
  }

  /** Direct children of the node at `path`, sorted by name. */
  children(path: string): GeoNode[] {
    return (this.kids.get(path) ?? []).map((p) => this.nodes.get(p) as GeoNode);
  }

  /** The parent group of the node at `path`. */
  parent(path: string): GeoNode | undefined {
    const p = parentOf(path);
    return p === undefined ? undefined : this.nodes.get(p);
  }

  /** The store path of a hierarchy path. */
  storePath(path: string): string {
    return joinRelative(this.basePath, path);
  }
}

/** Builds a {@link GeoNode} from a Zarr v3 metadata document. */
export function geoNodeFromMetadata(path: string, metadata: NodeMetadata, zarrFormat: 2 | 3 = 3): GeoNode {
  const name = path.slice(path.lastIndexOf("/") + 1);
  const attributes = metadata.attributes ?? {};
  if (metadata.node_type === "group") return { path, name, kind: "group", zarrFormat, attributes };
  const node: GeoNode = {
    path,
    name,
    kind: "array",
    zarrFormat,
    attributes,
    shape: metadata.shape,
    dataType: metadata.data_type.name,
  };
  const cs = metadata.chunk_grid.configuration.chunk_shape;
  if (metadata.chunk_grid.name === "regular" && Array.isArray(cs)) node.chunkShape = cs as number[];
  if (metadata.dimension_names !== undefined) {
    node.dimensionNames = metadata.dimension_names;
    node.dimensionNamesFrom = "dimension_names";
  } else {
    const xr = attributes._ARRAY_DIMENSIONS;
    if (Array.isArray(xr) && xr.length === metadata.shape.length && xr.every((d) => typeof d === "string")) {
      node.dimensionNames = xr as string[];
      node.dimensionNamesFrom = "_ARRAY_DIMENSIONS";
    }
  }
  return node;
}

/** Options of {@link loadHierarchy}. */
export interface LoadHierarchyOptions {
  /** Path of the root to load (default: the store's root). */
  path?: string;
  signal?: AbortSignal;
  /**
   * Where storage formats are looked up: with Zarr v2 registered (`@zarr/all`, or
   * `v2Format` from `@zarr/v2-compat`), v2 hierarchies load too (xarray's
   * `_ARRAY_DIMENSIONS` become dimension names, GDAL's `_CRS` is read as a legacy CRS).
   */
  registry?: Registry;
  /**
   * Lists a group's descendants. Default: @zarr/core's `walkEntries` (consolidated
   * metadata first, else store listing). A Zarr v2 reader can plug in here.
   */
  walk?: (group: ZarrGroup, options: { signal?: AbortSignal }) => AsyncIterable<NodeEntry>;
}

function nodeOf(entry: ZarrGroup | ZarrArray): { metadata: NodeMetadata; zarrFormat: 2 | 3 } {
  return { metadata: entry.metadata, zarrFormat: entry.zarrFormat };
}

/**
 * Loads the metadata of the hierarchy below `source` (a store, or an opened group or
 * array). A store that can neither list nor serve consolidated metadata (plain HTTP)
 * is explored through what the metadata names (multiscales assets); the result is then
 * marked incomplete.
 *
 * The hierarchy keeps the registry it was opened with (`options.registry`, else an opened
 * node's own, else @zarr/core's `defaultRegistry`, as `open` does), and the helpers given
 * the hierarchy (`readBbox`, `buildPyramid`) read data through it.
 *
 * @example
 * ```ts
 * const h = await loadHierarchy(new FileSystemStore("scene.zarr"));
 * for (const n of h.all()) console.log(n.path, n.kind);
 * ```
 */
export async function loadHierarchy(source: Store | ZarrGroup | ZarrArray, options: LoadHierarchyOptions = {}): Promise<GeoHierarchy> {
  if (source instanceof ZarrArray) {
    const { metadata, zarrFormat } = nodeOf(source);
    return new GeoHierarchy([geoNodeFromMetadata("", metadata, zarrFormat)], source.path, source.store, true, false, options.registry ?? source.registry);
  }
  let root: ZarrGroup;
  if (source instanceof ZarrGroup) root = source;
  else {
    const path = normalizePath(options.path ?? "");
    // `open`'s registry: the one given, else @zarr/core's defaultRegistry (which @zarr/all fills).
    const node = await open(source, path, { signal: options.signal, registry: options.registry });
    if (node.kind === "array") return new GeoHierarchy([geoNodeFromMetadata("", node.metadata, node.zarrFormat)], path, source, true, false, node.registry);
    root = node;
  }
  const base = root.path;
  const nodes: GeoNode[] = [geoNodeFromMetadata("", root.metadata, root.zarrFormat)];
  const walk = options.walk ?? walkEntries;
  try {
    for await (const entry of walk(root, { signal: options.signal })) {
      const rel = base === "" ? entry.path : entry.path.slice(base.length + 1);
      // Entries read through another storage format (Zarr v2) say which.
      const format = (entry as { format?: { zarrFormat?: 2 | 3 } }).format;
      nodes.push(geoNodeFromMetadata(rel, entry.metadata, format?.zarrFormat ?? 3));
    }
  } catch (error) {
    if (!(error instanceof ZarrError && error.code === "UNSUPPORTED")) throw error;
    return discover(root, options.signal, options.registry ?? root.registry);
  }
  return new GeoHierarchy(nodes, base, root.store, true, root.consolidated !== undefined, options.registry ?? root.registry);
}

/** Explores a store that cannot list: the root, then every multiscales asset (and the groups on the way). */
async function discover(root: ZarrGroup, signal: AbortSignal | undefined, registry: Registry): Promise<GeoHierarchy> {
  const nodes = new Map<string, GeoNode>([["", geoNodeFromMetadata("", root.metadata, root.zarrFormat)]]);
  const queue = [""];
  while (queue.length > 0) {
    const path = queue.shift() as string;
    const node = nodes.get(path) as GeoNode;
    if (node.kind !== "group") continue;
    const ms = readMultiscales(node.attributes).value;
    const targets = new Set<string>();
    for (const level of ms?.layout ?? []) {
      const parts = level.asset.split("/");
      for (let i = 1; i <= parts.length; i++) targets.add(parts.slice(0, i).join("/"));
    }
    for (const rel of targets) {
      const full = joinRelative(path, rel);
      if (nodes.has(full)) continue;
      const meta = await readNodeMetadata(root.store, joinRelative(root.path, full), signal);
      if (meta === undefined) continue;
      nodes.set(full, geoNodeFromMetadata(full, meta));
      queue.push(full);
    }
  }
  return new GeoHierarchy(nodes.values(), root.path, root.store, false, false, registry);
}

/** A whole-hierarchy metadata dump: each node's fields plus `members` (children by name). */
export interface HierarchyDump {
  attributes?: JsonObject;
  members?: Record<string, HierarchyDump>;
  [field: string]: JsonValue | Record<string, HierarchyDump> | undefined;
}

function* dumpDocuments(dump: JsonValue, path: string): Generator<[string, JsonObject]> {
  if (!isJsonObject(dump)) throw new ZarrError("INVALID_ARGUMENT", `The dump of "${path || "/"}" is not an object`);
  const { members, ...doc } = dump;
  if (doc.zarr_format === undefined) doc.zarr_format = 3;
  if (doc.node_type === undefined) doc.node_type = members !== undefined ? "group" : "array";
  if (doc.attributes === undefined) doc.attributes = {};
  yield [path, doc];
  if (members === undefined || members === null) return;
  if (!isJsonObject(members)) throw new ZarrError("INVALID_ARGUMENT", `"members" of "${path || "/"}" is not an object`);
  for (const [name, child] of Object.entries(members)) yield* dumpDocuments(child, joinRelative(path, name));
}

/**
 * A metadata-only store from a hierarchy dump (`{attributes, members, ...array fields}`
 * per node, as the EOPF converter's dumps hold): one `zarr.json` per node, no chunks.
 * Every document is validated as Zarr v3 metadata.
 *
 * @example
 * ```ts
 * const store = await storeFromDump(JSON.parse(readFileSync("S2A_MSIL2A_….json", "utf8")));
 * const report = await validate(store);
 * ```
 */
export async function storeFromDump<S extends Store>(dump: JsonValue, store?: S): Promise<S> {
  const target = (store ?? new MemoryStore()) as S;
  if (typeof target.set !== "function") throw new ZarrError("STORE_READ_ONLY", "storeFromDump needs a writable store");
  for (const [path, doc] of dumpDocuments(dump, "")) {
    const key = path === "" ? "zarr.json" : `${path}/zarr.json`;
    parseNodeMetadata(doc, { key });
    await target.set(key, jsonToBytes(doc));
  }
  return target;
}

/** A {@link GeoHierarchy} straight from a dump, without a store. */
export function hierarchyFromDump(dump: JsonValue): GeoHierarchy {
  const nodes: GeoNode[] = [];
  for (const [path, doc] of dumpDocuments(dump, "")) {
    const key = path === "" ? "zarr.json" : `${path}/zarr.json`;
    nodes.push(geoNodeFromMetadata(path, parseNodeMetadata(doc, { key })));
  }
  return new GeoHierarchy(nodes);
}
