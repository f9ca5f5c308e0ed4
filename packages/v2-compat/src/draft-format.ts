/**
 * The `zarr-v3-draft` format entry: hierarchies in the layout of the 2022 Zarr v3 drafts,
 * as GDAL 3.6 (`gdal_translate -of ZARR -co FORMAT=ZARR_V3`) and zarr-python 2.13's
 * experimental v3 API wrote them. A `zarr.json` entry point whose `zarr_format` is a URL
 * (`https://purl.org/zarr/spec/protocol/core/3.0`), node documents under `meta/`
 * (`meta/root/a/b.array.json`, `meta/root.group.json`; the later draft dropped the `root`
 * segment: `meta/a/b.array.json`, `meta/group.json`) and chunks under `data/`
 * (`data/root/a/b/c0/1`, with the grid's separator between indices).
 *
 * Array documents carry a NumPy `data_type` (`"<i4"`, `"bool"`, or
 * `{"extension", "type": ">U5", "fallback"}`), `chunk_grid {type: "regular",
 * chunk_shape, separator}`, `chunk_memory_layout` `"C"`/`"F"`, `fill_value` as in v2, a
 * `compressor {codec: URL, configuration}` (or a `codecs` list), and zarr-python 2.13
 * keeps its filters in `attributes.filters`. They are read through the same mapping as
 * Zarr v2 (so every dtype and numcodecs codec works). Nodes are read-only: convert the
 * hierarchy to Zarr v3 to change it.
 */
import {
  type ChunkKeyEncoding,
  describeJson,
  isJsonObject,
  isListable,
  type JsonObject,
  type JsonValue,
  MetadataError,
  type Store,
  asZarrError,
  ZarrError,
} from "@zarr/spec";
import type { FormatEntry, FormatGroup, FormatReadOptions, NodeEntry, NodeFormat, Registry } from "@zarr/core";
import { join, readJson } from "./store-io.js";
import { unreadableArrayError, v2ArrayMetadata, v2GroupToV3 } from "./v2-model.js";

/** Where a draft hierarchy keeps its documents and chunks. */
export interface DraftLayout {
  /** `"meta/root"` (GDAL, zarr-python 2.13) or `"meta"` (the final draft). */
  readonly meta: string;
  /** `"data/root"` or `"data"`. */
  readonly data: string;
  /** Suffix of node documents (`".json"`). */
  readonly suffix: string;
}

const ENTRY_POINT = "zarr.json";

/** Reads the draft entry point; `undefined` when the store has none (or a Zarr v3 `zarr.json`). */
async function readEntryPoint(store: Store, signal?: AbortSignal): Promise<{ suffix: string } | undefined> {
  let doc: JsonValue | undefined;
  try {
    doc = await readJson(store, ENTRY_POINT, signal);
  } catch (error) {
    if (error instanceof MetadataError) return undefined; // not JSON: not ours
    throw error;
  }
  if (!isJsonObject(doc) || typeof doc.zarr_format !== "string") return undefined;
  if (!/\/zarr\/spec\/(protocol\/)?core\/3\.\d+\/?$/.test(doc.zarr_format)) return undefined;
  const encoding = doc.metadata_encoding;
  const suffix =
    typeof doc.metadata_key_suffix === "string"
      ? doc.metadata_key_suffix
      : isJsonObject(encoding) && typeof encoding.metadata_key_suffix === "string"
        ? encoding.metadata_key_suffix
        : ".json";
  for (const [i, ext] of (Array.isArray(doc.extensions) ? doc.extensions : []).entries()) {
    if (isJsonObject(ext) && ext.must_understand === true) {
      throw new ZarrError("UNSUPPORTED", `The draft hierarchy needs the extension ${describeJson(ext.extension)} (at $.extensions[${i}] in "zarr.json")`, {
        key: ENTRY_POINT,
      });
    }
  }
  return { suffix };
}

const ROOT_LAYOUT = (suffix: string): DraftLayout => ({ meta: "meta/root", data: "data/root", suffix });
const PLAIN_LAYOUT = (suffix: string): DraftLayout => ({ meta: "meta", data: "data", suffix });

/** Key of a node document: `meta/root/a/b.array.json`, `meta/root.group.json`, `meta/array.json`. */
export function draftDocumentKey(layout: DraftLayout, path: string, kind: "array" | "group"): string {
  if (path === "") return layout.meta === "meta" ? `meta/${kind}${layout.suffix}` : `${layout.meta}.${kind}${layout.suffix}`;
  return `${layout.meta}/${path}.${kind}${layout.suffix}`;
}

/** Prefix of a node's chunks: `data/root/a/b/`. */
export function draftChunkPrefix(layout: DraftLayout, path: string): string {
  return path === "" ? `${layout.data}/` : `${layout.data}/${path}/`;
}

/**
 * The draft's chunk keys: `c` followed by the indices joined by the grid's separator
 * (`c0/1`, `c2.3`). 0-d arrays use `c0`, as zarr-python 2.13 wrote them (the draft text
 * says `c`; both are read back as the single chunk).
 */
export class DraftKeyEncoding implements ChunkKeyEncoding {
  readonly name = "v3-draft";
  constructor(readonly separator: "/" | ".") {}
  encode(coords: readonly number[]): string {
    return coords.length === 0 ? "c0" : `c${coords.join(this.separator)}`;
  }
  decode(key: string, ndim: number): number[] | undefined {
    if (!key.startsWith("c")) return undefined;
    if (ndim === 0) return key === "c0" || key === "c" ? [] : undefined;
    const parts = key.slice(1).split(this.separator);
    if (parts.length !== ndim || !parts.every((p) => /^(0|[1-9]\d*)$/.test(p))) return undefined;
    return parts.map(Number);
  }
  toJSON() {
    return { name: "v3-draft", configuration: { separator: this.separator } };
  }
}

const formats = new Map<string, NodeFormat>();

/** The node format (hooks) of a draft layout: read-only, chunks under `data/`. */
export function draftNodeFormat(layout: DraftLayout): NodeFormat {
  const id = `${layout.meta}|${layout.suffix}`;
  let format = formats.get(id);
  if (format === undefined) {
    format = {
      name: "zarr-v3-draft",
      zarrFormat: 3,
      metadataKey: (path, kind) => draftDocumentKey(layout, path, kind),
      chunkPrefix: (path) => draftChunkPrefix(layout, path),
      chunkKeyEncoding: (metadata) => {
        const sep = metadata.chunk_key_encoding.configuration.separator;
        return new DraftKeyEncoding(sep === "." ? "." : "/");
      },
      listChildren: (group, options) => listDraftChildren(group, layout, options.signal),
      unreadable: unreadableArrayError,
    };
    formats.set(id, format);
  }
  return format;
}

/** The layout a group node was read with (`undefined` for nodes of other formats). */
export function layoutOf(format: NodeFormat | undefined): DraftLayout | undefined {
  if (format === undefined || format.name !== "zarr-v3-draft") return undefined;
  for (const [id, f] of formats) {
    if (f === format) {
      const [meta, suffix] = id.split("|");
      return meta === "meta/root" ? ROOT_LAYOUT(suffix) : PLAIN_LAYOUT(suffix);
    }
  }
  return undefined;
}

/** A numcodecs id from a draft codec URL (`https://purl.org/zarr/spec/codec/gzip/1.0` → `gzip`). */
function codecIdOf(url: string): string {
  const parts = url.replace(/\/+$/, "").split("/");
  const last = parts[parts.length - 1];
  return /^\d+(\.\d+)*$/.test(last) && parts.length > 1 ? parts[parts.length - 2] : last;
}

function codecFromDraft(def: JsonValue, key: string, path: (string | number)[]): JsonObject {
  if (!isJsonObject(def)) throw new MetadataError(path, `expected a codec {"codec", "configuration"}, got ${describeJson(def)}`, { key });
  const url = def.codec ?? def.type ?? def.extension;
  if (typeof url !== "string") throw new MetadataError([...path, "codec"], "expected the codec's URL", { key });
  const id = codecIdOf(url);
  const config = isJsonObject(def.configuration) ? def.configuration : {};
  return { id, ...config };
}

/** The array document as the equivalent `.zarray` (same dtype, fill value and codecs). */
function asZarray(doc: JsonObject, key: string): { zarray: JsonObject; attributes: JsonObject } {
  const grid = doc.chunk_grid;
  if (!isJsonObject(grid)) throw new MetadataError(["chunk_grid"], `expected an object, got ${describeJson(grid)}`, { key });
  if ((grid.type ?? grid.name) !== "regular") {
    throw new ZarrError("UNSUPPORTED", `Only the regular chunk grid is supported (in "${key}")`, { key });
  }
  let dtype = doc.data_type;
  if (isJsonObject(dtype)) dtype = dtype.type as JsonValue;
  let attributes: JsonObject = isJsonObject(doc.attributes) ? doc.attributes : {};
  const filters: JsonObject[] = [];
  const attrFilters = attributes.filters;
  if (Array.isArray(attrFilters) && attrFilters.every((f) => isJsonObject(f) && typeof f.id === "string")) {
    // zarr-python 2.13 keeps the filters among the attributes (the draft had no field for them)
    filters.push(...(attrFilters as JsonObject[]));
    const { filters: _f, ...rest } = attributes;
    attributes = rest;
  }
  const compressors: JsonObject[] = [];
  if (doc.compressor !== undefined && doc.compressor !== null) compressors.push(codecFromDraft(doc.compressor, key, ["compressor"]));
  if (Array.isArray(doc.codecs)) {
    for (const [i, c] of doc.codecs.entries()) compressors.push(codecFromDraft(c, key, ["codecs", i]));
  }
  const compressor = compressors.pop() ?? null;
  filters.push(...compressors);
  const layout = doc.chunk_memory_layout ?? "C";
  const zarray: JsonObject = {
    zarr_format: 2,
    shape: doc.shape ?? null,
    chunks: grid.chunk_shape ?? null,
    dtype: dtype ?? null,
    compressor,
    fill_value: doc.fill_value ?? null,
    order: layout,
    filters: filters.length > 0 ? filters : null,
    dimension_separator: grid.separator === "." ? "." : "/",
  };
  return { zarray, attributes };
}

async function readDocs(store: Store, layout: DraftLayout, path: string, signal?: AbortSignal) {
  const arrayKey = draftDocumentKey(layout, path, "array");
  const groupKey = draftDocumentKey(layout, path, "group");
  const [array, group] = await Promise.all([readJson(store, arrayKey, signal), readJson(store, groupKey, signal)]);
  return { array, group, arrayKey, groupKey };
}

async function hasChildren(store: Store, layout: DraftLayout, path: string, signal?: AbortSignal): Promise<boolean> {
  if (!isListable(store)) return false;
  const prefix = path === "" ? `${layout.meta}/` : `${layout.meta}/${path}/`;
  for await (const _ of store.listPrefix(prefix, { signal })) return true;
  return false;
}

async function entryFor(
  store: Store,
  layout: DraftLayout,
  path: string,
  registry: Registry,
  signal?: AbortSignal,
  knownImplicit = false,
): Promise<NodeEntry | undefined> {
  const format = draftNodeFormat(layout);
  const base = { path, name: path.slice(path.lastIndexOf("/") + 1), format };
  const { array, group, arrayKey, groupKey } = await readDocs(store, layout, path, signal);
  if (array !== undefined) {
    if (!isJsonObject(array)) throw new MetadataError([], `expected a JSON object, got ${describeJson(array)}`, { key: arrayKey });
    const { zarray, attributes } = asZarray(array, arrayKey);
    const metadata = await v2ArrayMetadata(zarray, attributes, arrayKey, registry);
    // Chunk keys are "c" + indices joined by the separator: in the v3 model that is the default encoding.
    const sep = zarray.dimension_separator as string;
    metadata.chunk_key_encoding = { name: "default", configuration: { separator: sep } };
    return { ...base, kind: "array", metadata, implicit: false };
  }
  if (group !== undefined) {
    if (!isJsonObject(group)) throw new MetadataError([], `expected a JSON object, got ${describeJson(group)}`, { key: groupKey });
    const attributes = isJsonObject(group.attributes) ? group.attributes : {};
    return { ...base, kind: "group", metadata: v2GroupToV3(attributes), implicit: false };
  }
  if (knownImplicit || path === "" || (await hasChildren(store, layout, path, signal))) {
    return { ...base, kind: "group", metadata: v2GroupToV3({}), implicit: true };
  }
  return undefined;
}

/** Which of the two layouts the hierarchy uses (the root variant unless only the other has documents). */
async function detectLayout(store: Store, suffix: string, signal?: AbortSignal): Promise<DraftLayout> {
  const root = ROOT_LAYOUT(suffix);
  if (!isListable(store)) {
    const plain = PLAIN_LAYOUT(suffix);
    const { array, group } = await readDocs(store, plain, "", signal);
    return array !== undefined || group !== undefined ? plain : root;
  }
  let plainSeen = false;
  for await (const key of store.listPrefix("meta/", { signal })) {
    if (key.startsWith("meta/root/") || key.startsWith("meta/root.")) return root;
    plainSeen = true;
  }
  return plainSeen ? PLAIN_LAYOUT(suffix) : root;
}

/** Reads the draft-layout node at `path`; `undefined` when the store is not a draft hierarchy or has no node there. */
export async function readDraftEntry(store: Store, path: string, options: FormatReadOptions): Promise<NodeEntry | undefined> {
  const entryPoint = await readEntryPoint(store, options.signal);
  if (entryPoint === undefined) return undefined;
  const layout = await detectLayout(store, entryPoint.suffix, options.signal);
  return entryFor(store, layout, path, options.registry, options.signal);
}

async function listDraftChildren(group: FormatGroup, layout: DraftLayout, signal?: AbortSignal): Promise<NodeEntry[]> {
  const { store } = group;
  const prefix = group.path === "" ? `${layout.meta}/` : `${layout.meta}/${group.path}/`;
  if (!isListable(store)) {
    throw new ZarrError("UNSUPPORTED", `Cannot list the children of "${group.path || "/"}": the store cannot list keys`);
  }
  let listing: Awaited<ReturnType<typeof store.listDir>>;
  try {
    listing = await store.listDir(prefix, { signal });
  } catch (error) {
    throw asZarrError(error, "STORE_FAILED", `Could not list "${prefix}"`, prefix);
  }
  const names = new Set<string>();
  const implicit = new Set<string>();
  for (const k of listing.keys) {
    for (const kind of [".array", ".group"]) {
      const end = `${kind}${layout.suffix}`;
      if (k.endsWith(end) && k.length > end.length) names.add(k.slice(0, -end.length));
    }
  }
  for (const p of listing.prefixes) {
    names.add(p);
    implicit.add(p);
  }
  const out: NodeEntry[] = [];
  for (const name of [...names].sort()) {
    const entry = await entryFor(store, layout, join(group.path, name), group.registry, signal, implicit.has(name));
    if (entry !== undefined) out.push(entry);
  }
  return out;
}

/**
 * The `zarr-v3-draft` format entry (register it, or use @zarr/all, and `open` reads
 * hierarchies GDAL 3.6 and zarr-python 2.13 wrote in the early v3 layout).
 *
 * @example
 * ```ts
 * const registry = createRegistry([...codecs, draftFormat]);
 * const band = await openArray(store, "band1", { registry }); // meta/root/band1.array.json
 * ```
 */
export const draftFormat: FormatEntry = {
  type: "format",
  name: "zarr-v3-draft",
  package: "@zarr/v2-compat",
  read: readDraftEntry,
};
