/**
 * The `zarr-v2` format entry: `open`, `children`, `walk` and friends of @zarr/core read
 * Zarr v2 nodes through it when a path has no `zarr.json`, and writes to v2 nodes
 * (attributes, resize, consolidation) go back to `.zattrs`, `.zarray` and `.zmetadata`.
 *
 * Reading a path asks for its `.zmetadata`, `.zarray`, `.zgroup` and `.zattrs` at once
 * (one round trip); a `.zmetadata` there is used first, so the whole hierarchy below a
 * consolidated group is known without reading anything else. Group members are, as the v2
 * spec says, the direct children that have a `.zarray` or a `.zgroup`.
 */

import {
  defaultRegistry,
  type FormatArray,
  type FormatGroup,
  type FormatNode,
  type FormatWriteOptions,
  type NodeEntry,
  type NodeFormat,
  type Registry,
  ZarrGroup,
} from "@zarr/core";
import { isDescendantPath } from "@zarr/core/extensions";
import {
  type ArrayMetadata,
  type Attributes,
  asZarrError,
  type GroupMetadata,
  isJsonObject,
  isListable,
  type JsonObject,
  type JsonValue,
  keepAttributesUnparsed,
  MetadataError,
  mapConcurrent,
  type NodeMetadata,
  parseJsonBytes,
  type Store,
  ZarrError,
} from "@zarr/spec";
import {
  type ConsolidatedMetadataV2,
  parseAttributesV2,
  parseConsolidatedV2,
  parseGroupMetadataV2,
  ZARRAY,
  ZATTRS,
  ZGROUP,
  ZMETADATA,
} from "./metadata.js";
import { join, prefixOf, readBytes, readJson, writeJson } from "./store-io.js";
import { unreadableArrayError, v2ArrayMetadata, v2GroupToV3 } from "./v2-model.js";
import { zattrsDocument } from "./zattrs.js";

/** Reads at most this many child documents at once when listing a group. */
const LIST_CONCURRENCY = 16;

function nameOf(path: string): string {
  return path.slice(path.lastIndexOf("/") + 1);
}

/** The raw documents of one v2 node (any may be missing). */
interface RawNode {
  zarray?: JsonValue;
  zgroup?: JsonValue;
  /** The `.zattrs`; of a big one kept as `zattrsText`, only what the v3 model reads (see zattrs.ts). */
  zattrs?: JsonValue;
  /** The text of a big `.zattrs`, kept unparsed. */
  zattrsText?: string;
  zmetadata?: JsonValue;
}

/**
 * The documents of the v2 node at `path`, its `.zmetadata` too when `withConsolidated`.
 * With `keepAttributes` a big `.zattrs` is kept as text (an entry's metadata parses it
 * when its attributes are read); without, it is parsed whole.
 */
async function readRaw(store: Store, path: string, withConsolidated: boolean, signal?: AbortSignal, keepAttributes = false): Promise<RawNode> {
  const p = prefixOf(path);
  const readAttributes = async () => {
    const bytes = await readBytes(store, p + ZATTRS, signal);
    if (bytes === undefined) return undefined;
    return keepAttributes ? zattrsDocument(bytes, p + ZATTRS) : { value: parseJsonBytes(bytes, p + ZATTRS) };
  };
  const [zarray, zgroup, zattrs, zmetadata] = await Promise.all([
    readJson(store, p + ZARRAY, signal),
    readJson(store, p + ZGROUP, signal),
    readAttributes(),
    withConsolidated ? readJson(store, p + ZMETADATA, signal) : undefined,
  ]);
  return { zarray, zgroup, zattrs: zattrs?.value, zattrsText: zattrs?.text, zmetadata };
}

/** `metadata` with the attributes of `raw`'s big `.zattrs` kept unparsed, when it has one. */
function keepingAttributes<M extends NodeMetadata>(metadata: M, raw: RawNode, key: string): M {
  if (raw.zattrsText !== undefined) keepAttributesUnparsed(metadata, raw.zattrsText, key);
  return metadata;
}

/** The v3 model of every node a `.zmetadata` lists, by path relative to its group. */
async function consolidatedModel(doc: ConsolidatedMetadataV2, key: string, registry: Registry): Promise<Map<string, NodeMetadata>> {
  const byNode = new Map<string, { zarray?: JsonObject; zgroup?: JsonObject; zattrs?: JsonObject }>();
  for (const [k, v] of Object.entries(doc.metadata)) {
    const slash = k.lastIndexOf("/");
    const rel = slash < 0 ? "" : k.slice(0, slash);
    const file = k.slice(slash + 1);
    if (rel === "" || (file !== ZARRAY && file !== ZGROUP && file !== ZATTRS)) continue;
    if (!isDescendantPath(rel)) {
      console.warn(`zarr: skipping the consolidated metadata entry ${JSON.stringify(k)} in "${key}": not a relative node path`);
      continue;
    }
    const node = byNode.get(rel) ?? {};
    if (file === ZARRAY) node.zarray = v;
    else if (file === ZGROUP) node.zgroup = v;
    else node.zattrs = v;
    byNode.set(rel, node);
  }
  const out = new Map<string, NodeMetadata>();
  for (const rel of [...byNode.keys()].sort()) {
    const node = byNode.get(rel) as { zarray?: JsonObject; zgroup?: JsonObject; zattrs?: JsonObject };
    const docKey = `${key} (${rel}/${node.zarray !== undefined ? ZARRAY : ZGROUP})`;
    const attributes = parseAttributesV2(node.zattrs, { key: `${key} (${rel}/${ZATTRS})` });
    if (node.zarray !== undefined) out.set(rel, await v2ArrayMetadata(node.zarray, attributes, docKey, registry));
    else if (node.zgroup !== undefined) {
      parseGroupMetadataV2(node.zgroup, { key: docKey });
      out.set(rel, v2GroupToV3(attributes));
    }
  }
  return out;
}

/** Describes the v2 node at `path` from its raw documents; `undefined` when it is none. */
async function entryFromRaw(path: string, raw: RawNode, registry: Registry): Promise<NodeEntry | undefined> {
  const p = prefixOf(path);
  const base = { path, name: nameOf(path), implicit: false, format: v2NodeFormat };
  if (raw.zarray !== undefined) {
    const attributes = parseAttributesV2(raw.zattrs, { key: p + ZATTRS });
    const metadata = await v2ArrayMetadata(raw.zarray, attributes, p + ZARRAY, registry);
    return { ...base, kind: "array", metadata: keepingAttributes(metadata, raw, p + ZATTRS) };
  }
  if (raw.zmetadata !== undefined) {
    const key = p + ZMETADATA;
    const doc = parseConsolidatedV2(raw.zmetadata, { key });
    const own = doc.metadata[ZGROUP];
    if (own !== undefined) {
      parseGroupMetadataV2(own, { key: `${key} (${ZGROUP})` });
      const attributes = parseAttributesV2(doc.metadata[ZATTRS], { key: `${key} (${ZATTRS})` });
      return { ...base, kind: "group", metadata: v2GroupToV3(attributes), consolidated: await consolidatedModel(doc, key, registry) };
    }
  }
  if (raw.zgroup !== undefined) {
    parseGroupMetadataV2(raw.zgroup, { key: p + ZGROUP });
    const metadata = v2GroupToV3(parseAttributesV2(raw.zattrs, { key: p + ZATTRS }));
    return { ...base, kind: "group", metadata: keepingAttributes(metadata, raw, p + ZATTRS) };
  }
  return undefined;
}

/**
 * Reads the Zarr v2 node at `path` (consolidated metadata first, when `consolidated`).
 * `undefined` when there is no v2 node there.
 */
export async function readV2Entry(
  store: Store,
  path: string,
  options: { registry: Registry; signal?: AbortSignal; consolidated?: boolean },
): Promise<NodeEntry | undefined> {
  const raw = await readRaw(store, path, options.consolidated ?? true, options.signal, true);
  return entryFromRaw(path, raw, options.registry);
}

async function listV2Children(group: FormatGroup, options: FormatWriteOptions): Promise<NodeEntry[]> {
  const { store } = group;
  const prefix = prefixOf(group.path);
  if (!isListable(store)) {
    throw new ZarrError(
      "UNSUPPORTED",
      `Cannot list the children of the Zarr v2 group "${group.path || "/"}": the store cannot list keys and the group has no .zmetadata`,
    );
  }
  let names: string[];
  try {
    // A member needs a .zarray or a .zgroup, read below: the store need not check for keys.
    names = (await store.listDir(prefix, { signal: options.signal, uncheckedPrefixes: true })).prefixes.slice().sort();
  } catch (error) {
    throw asZarrError(error, "STORE_FAILED", `Could not list "${prefix}"`, prefix);
  }
  const entries = await mapConcurrent(
    names,
    LIST_CONCURRENCY,
    async (name) => {
      const path = join(group.path, name);
      return entryFromRaw(path, await readRaw(store, path, false, options.signal, true), group.registry);
    },
    { signal: options.signal },
  );
  return entries.filter((e): e is NodeEntry => e !== undefined);
}

async function writeV2Attributes(node: FormatNode, attributes: Attributes, options: FormatWriteOptions): Promise<void> {
  await writeJson(node.store, prefixOf(node.path) + ZATTRS, attributes, options.signal);
}

async function writeV2ArrayShape(array: FormatArray, metadata: ArrayMetadata, options: FormatWriteOptions): Promise<void> {
  const key = prefixOf(array.path) + ZARRAY;
  const doc = await readJson(array.store, key, options.signal);
  if (!isJsonObject(doc)) throw new MetadataError([], "the .zarray document is missing or not an object", { key });
  await writeJson(array.store, key, { ...doc, shape: [...metadata.shape] }, options.signal);
}

/**
 * Every `.zgroup`, `.zarray` and `.zattrs` of the v2 hierarchy at `path` (found by listing,
 * never from an older `.zmetadata`), keyed relative to it as `.zmetadata` holds them.
 */
export async function collectV2Documents(store: Store, path: string, signal?: AbortSignal): Promise<Record<string, JsonObject>> {
  const docs: Record<string, JsonObject> = {};
  const visit = async (nodePath: string, raw: RawNode): Promise<void> => {
    const rel = path === "" ? nodePath : nodePath.slice(path.length + 1);
    const at = (file: string) => (rel === "" ? file : `${rel}/${file}`);
    const put = (file: string, v: JsonValue | undefined) => {
      if (v === undefined) return;
      if (!isJsonObject(v)) throw new MetadataError([], "expected a JSON object", { key: prefixOf(nodePath) + file });
      docs[at(file)] = v;
    };
    if (raw.zarray !== undefined) {
      put(ZARRAY, raw.zarray);
      put(ZATTRS, raw.zattrs);
      return;
    }
    if (raw.zgroup === undefined) return;
    put(ZGROUP, raw.zgroup);
    put(ZATTRS, raw.zattrs);
    if (!isListable(store)) throw new ZarrError("UNSUPPORTED", "Consolidating metadata needs a store that can list keys");
    const names = (await store.listDir(prefixOf(nodePath), { signal, uncheckedPrefixes: true })).prefixes.slice().sort();
    const children = await mapConcurrent(names, LIST_CONCURRENCY, (n) => readRaw(store, join(nodePath, n), false, signal), { signal });
    for (let i = 0; i < names.length; i++) await visit(join(nodePath, names[i]), children[i]);
  };
  const root = await readRaw(store, path, false, signal);
  if (root.zgroup === undefined) throw new ZarrError("NODE_NOT_FOUND", `No Zarr v2 group at "${path || "/"}" (no ${prefixOf(path)}${ZGROUP})`);
  await visit(path, root);
  return docs;
}

/**
 * Writes `.zmetadata` for the Zarr v2 group at `path`: every `.zgroup`, `.zarray` and
 * `.zattrs` below it in one document (zarr-python's `consolidate_metadata`), so opening the
 * hierarchy costs one read. Returns the group, opened from the new document.
 *
 * @example
 * ```ts
 * await consolidateMetadataV2(store);
 * ```
 */
export async function consolidateMetadataV2(
  store: Store,
  path = "",
  options: { registry?: Registry; signal?: AbortSignal } = {},
): Promise<ZarrGroup> {
  const registry = options.registry ?? defaultRegistry;
  return groupFromEntry(store, await consolidateV2(store, normalizeV2Path(path), registry, options.signal), registry);
}

/** Writes `.zmetadata` for the v2 group at `path` (normalised) and reads the group back from it. */
async function consolidateV2(store: Store, path: string, registry: Registry, signal?: AbortSignal): Promise<NodeEntry> {
  const metadata = await collectV2Documents(store, path, signal);
  await writeJson(store, prefixOf(path) + ZMETADATA, { metadata, zarr_consolidated_format: 1 }, signal);
  const entry = await readV2Entry(store, path, { registry, signal });
  if (entry === undefined || entry.kind !== "group") throw new ZarrError("NODE_NOT_FOUND", `No Zarr v2 group at "${path || "/"}"`);
  return entry;
}

/** A group node for a v2 group entry. */
export function groupFromEntry(store: Store, entry: NodeEntry, registry: Registry): ZarrGroup {
  return new ZarrGroup(store, entry.path, entry.metadata as GroupMetadata, registry, entry.consolidated, false, 2, v2NodeFormat);
}

/**
 * Zarr v2's path rules: backslashes become `/`, leading, trailing and repeated `/` are
 * dropped; a `.` or `..` segment is an `INVALID_ARGUMENT` error.
 *
 * @example
 * ```ts
 * normalizeV2Path("\\foo//bar/"); // "foo/bar"
 * ```
 */
export function normalizeV2Path(path: string | undefined): string {
  if (path === undefined) return "";
  if (typeof path !== "string") throw new ZarrError("INVALID_ARGUMENT", `A node path must be a string, got ${typeof path}`);
  const out = path.replace(/\\/g, "/").replace(/\/+/g, "/").replace(/^\//, "").replace(/\/$/, "");
  for (const segment of out.split("/")) {
    if (segment === "." || segment === "..") {
      throw new ZarrError("INVALID_ARGUMENT", `Invalid node path ${JSON.stringify(path)}: segment ${JSON.stringify(segment)}`);
    }
  }
  return out;
}

/** How Zarr v2 nodes are laid out and written (the hooks of `NodeFormat`). */
export const v2NodeFormat: NodeFormat = {
  name: "zarr-v2",
  zarrFormat: 2,
  // zarr-python 2 writes every chunk (write_empty_chunks=True), and with "fill_value": null
  // a missing chunk would read as undefined memory there.
  writeEmptyChunks: true,
  metadataKey: (path, kind) => prefixOf(path) + (kind === "array" ? ZARRAY : ZGROUP),
  listChildren: listV2Children,
  writeAttributes: writeV2Attributes,
  writeArrayMetadata: writeV2ArrayShape,
  consolidate: (group, options) => consolidateV2(group.store, group.path, group.registry, options.signal),
  unreadable: unreadableArrayError,
};
