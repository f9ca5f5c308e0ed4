/**
 * Converting Zarr v2 (and early-draft v3) hierarchies to Zarr v3.
 *
 * Each node's v3 `zarr.json` is the v3 model it was read through (see `v2ArrayToV3`):
 * the chunks stay byte for byte as they are wherever v3 can describe them, which for Zarr
 * v2 is always — the `v2` chunk key encoding keeps their keys, and every numcodecs codec has
 * a v3 name. In place, that is a metadata-only change; into another store, the chunk bytes
 * are copied unchanged. Chunks are rewritten (decoded and encoded again) only where v3 has
 * no equivalent:
 *
 * - early-draft arrays: their keys (`data/root/a/c0/1`) fit no v3 chunk key encoding, so
 *   every chunk moves to its v3 key (`a/c/0/1`); the bytes themselves are unchanged.
 * - with `variableLengthStrings`, fixed-length Unicode (`<U<n>`) becomes `string` +
 *   `vlen-utf8` (for readers without `fixed_length_utf32`, such as zarrita.js 0.7).
 *
 * Arrays written by xarray (they carry `_ARRAY_DIMENSIONS`) whose `fill_value` is not null
 * also get a `_FillValue` attribute, unless they have one: xarray takes a v2 array's
 * `fill_value` as its `_FillValue`, but for v3 it ignores `fill_value` and reads the
 * attribute, so without it converted packed data would no longer be masked. It is written as
 * xarray writes it for v3: floats as base64 of a little-endian float64, other types plainly.
 *
 * Object arrays (`|O` with json2/msgpack2) holding only strings become `string` arrays
 * (metadata only: the codec reads strings as they are); others keep the @zarr `object`
 * data type, which other v3 readers do not know.
 *
 * Arrays below the converted group that cannot be read (a pickle object array, a structured
 * type mixing byte orders, a codec the registry lacks) are skipped and reported in
 * `skipped`, as zarr-python would still open them; with `strict` the conversion fails
 * instead, before anything is written. In place, a skipped array stays as it was.
 */
import {
  type ArrayMetadata,
  type ChunkKeyEncoding,
  cStrides,
  type ExtensionObject,
  type GroupMetadata,
  isJsonObject,
  isListable,
  type JsonValue,
  isWritable,
  mapConcurrent,
  type NodeMetadata,
  type Store,
  shapeSize,
  throwIfAborted,
  asZarrError,
  ZarrError,
} from "@zarr/spec";
import {
  consolidateMetadata,
  DEFAULT_CONCURRENCY,
  DefaultKeyEncoding,
  defaultRegistry,
  get,
  normalizePath,
  open,
  type Registry,
  resolveArray,
  set,
  slice,
  type NodeEntry,
  V2KeyEncoding,
  walkEntries,
  writeNodeMetadata,
  type ZarrArray,
  ZarrGroup,
  type ZarrNode,
} from "@zarr/core";
import { draftDocumentKey, layoutOf } from "./draft-format.js";
import { ZARRAY, ZATTRS, ZGROUP, ZMETADATA } from "./metadata.js";
import { encodeBase64 } from "@zarr/core/extensions";
import { deleteKey, join, prefixOf, readJson } from "./store-io.js";

/** Options of {@link convert}. */
export interface ConvertOptions {
  /** Write the v3 hierarchy into this store (at `path`). Either this or `inPlace`. */
  target?: Store;
  /** Where in `target` the converted node goes (default: the root; ignored in place). */
  path?: string;
  /** Convert in the source store itself: v3 documents replace the v2 (or draft) ones. */
  inPlace?: boolean;
  /** Rewrite fixed-length Unicode arrays (`<U<n>`) as variable-length `string` arrays. */
  variableLengthStrings?: boolean;
  /** Write inline consolidated metadata into the converted root group (default: when the source had `.zmetadata`). */
  consolidate?: boolean;
  /** Where codecs are looked up for rewriting and for opening the result (default: the source node's registry). */
  registry?: Registry;
  /** Chunks copied or rewritten at once (default 16). */
  concurrency?: number;
  signal?: AbortSignal;
  /** Called after each chunk copied, moved or rewritten. */
  onProgress?: (progress: ConvertProgress) => void;
  /**
   * Fail (with the array's own error) on the first array below the node that cannot be read,
   * instead of skipping it. Default false.
   */
  strict?: boolean;
}

/** An array left out of a conversion because it cannot be read. */
export interface SkippedArray {
  /** Path of the array in the source store. */
  path: string;
  /** Why: the error resolving it, as `[CODE] message`. */
  reason: string;
}

/** Progress of a conversion, in chunks over the whole hierarchy. */
export interface ConvertProgress {
  done: number;
  total: number;
  /** The array being converted. */
  path: string;
}

/** What happened to one array's chunks. */
export interface ConvertedArray {
  /** Path of the array in the target. */
  path: string;
  /** `kept` (in place, untouched), `copied` (bytes copied unchanged), `moved` (in place, to new keys), `rewritten` (decoded and encoded again). */
  chunks: "kept" | "copied" | "moved" | "rewritten";
  /** Chunks copied, moved or rewritten. */
  count: number;
  /** Why the data type changed, when it did. */
  note?: string;
}

/** The result of {@link convert}. */
export interface ConvertResult {
  /** The converted node, opened as Zarr v3. */
  node: ZarrNode;
  arrays: ConvertedArray[];
  /** Paths of the groups written. */
  groups: string[];
  /** Arrays not converted because they cannot be read (see `ConvertOptions.strict`), in walk order. */
  skipped: SkippedArray[];
}

/** How one array converts: its v3 metadata, what happens to its chunks, and the chunks. */
export interface ArrayPlan {
  source: ZarrArray;
  targetPath: string;
  metadata: ArrayMetadata;
  mode: ConvertedArray["chunks"];
  note?: string;
  /** Source chunks: grid coordinates and store keys. */
  chunks: { coords: number[]; key: string }[];
}

/** True for the nodes `convert` converts: Zarr v2 and early-draft v3. */
export function isConvertible(node: ZarrNode): boolean {
  return node.zarrFormat === 2 || node.format?.name === "zarr-v3-draft";
}

/** The chunk key encoding of converted v3 metadata. */
export function v3KeyEncoding(metadata: ArrayMetadata): ChunkKeyEncoding {
  const sep = metadata.chunk_key_encoding.configuration.separator === "." ? "." : "/";
  return metadata.chunk_key_encoding.name === "v2" ? new V2KeyEncoding(sep) : new DefaultKeyEncoding(sep);
}

/** Every stored chunk of `array` (by listing when the store can, else by probing each grid position). */
export async function storedChunks(array: ZarrArray, signal?: AbortSignal): Promise<{ coords: number[]; key: string }[]> {
  const out: { coords: number[]; key: string }[] = [];
  const prefix = array.chunkKey(array.shape.map(() => 0)).slice(0, -array.chunkKeyEncoding.encode(array.shape.map(() => 0)).length);
  const { store } = array;
  if (isListable(store)) {
    for await (const key of store.listPrefix(prefix, { signal })) {
      const coords = array.chunkKeyEncoding.decode(key.slice(prefix.length), array.ndim);
      if (coords?.every((c, d) => c < array.chunkGrid.gridShape[d])) out.push({ coords, key });
    }
    return out.sort((a, b) => (a.key < b.key ? -1 : 1));
  }
  const grid = array.chunkGrid.gridShape;
  const total = shapeSize(grid);
  const strides = cStrides(grid as number[]);
  for (let i = 0; i < total; i++) {
    throwIfAborted(signal);
    const coords = grid.map((n, d) => Math.floor(i / strides[d]) % n);
    const key = array.chunkKey(coords);
    const size = store.getSize ? await store.getSize(key, { signal }) : (await store.get(key, { signal }))?.length;
    if (size !== undefined) out.push({ coords, key });
  }
  return out;
}

/** True when every stored element of an object array is a string. */
async function holdsOnlyStrings(array: ZarrArray, chunks: { coords: number[]; key: string }[], signal?: AbortSignal): Promise<boolean> {
  let only = true;
  await mapConcurrent(
    chunks,
    DEFAULT_CONCURRENCY,
    async ({ coords, key }) => {
      if (!only) return;
      const bytes = await array.store.get(key, { signal });
      if (bytes === undefined) return;
      const chunk = await array.codecs.decode(bytes, array.chunkSpec(coords), { key, signal });
      const n = shapeSize(chunk.shape);
      const data = chunk.data as unknown[];
      for (let i = 0; i < n && only; i++) if (typeof data[i] !== "string") only = false;
    },
    { signal },
  );
  return only;
}

/**
 * The `_FillValue` attribute xarray would read from the converted array, for a v2 array
 * written by xarray whose `fill_value` is not null and which has no such attribute yet (see
 * the module docs); undefined otherwise.
 */
export async function xarrayFillValueAttribute(array: ZarrArray, signal?: AbortSignal): Promise<JsonValue | undefined> {
  if (array.zarrFormat !== 2 || !Array.isArray(array.attributes._ARRAY_DIMENSIONS) || "_FillValue" in array.attributes) return undefined;
  // The v3 model turns a null fill_value into the type's zero: only the .zarray tells them apart.
  const zarray = await readJson(array.store, join(array.path, ZARRAY), signal);
  if (!isJsonObject(zarray) || zarray.fill_value === null || zarray.fill_value === undefined) return undefined;
  const fill = array.fillValue;
  switch (array.dataType.kind) {
    case "float": {
      const bytes = new Uint8Array(8);
      new DataView(bytes.buffer).setFloat64(0, Number(fill), true);
      return encodeBase64(bytes);
    }
    case "int":
    case "uint":
      return typeof fill === "bigint" && !Number.isSafeInteger(Number(fill)) ? String(fill) : Number(fill);
    case "bool":
      return Boolean(fill);
    case "string":
      return String(fill);
    default:
      return undefined;
  }
}

/** The v3 metadata for a v2/draft array, with the data type changes described in the module docs. */
export async function planArray(array: ZarrArray, targetPath: string, sameLocation: boolean, options: ConvertOptions): Promise<ArrayPlan> {
  let metadata: ArrayMetadata = { ...array.metadata };
  const fillAttribute = await xarrayFillValueAttribute(array, options.signal);
  if (fillAttribute !== undefined) metadata = { ...metadata, attributes: { ...metadata.attributes, _FillValue: fillAttribute } };
  const chunks = await storedChunks(array, options.signal);
  const draft = array.format?.name === "zarr-v3-draft";
  let mode: ConvertedArray["chunks"] = draft ? (sameLocation ? "moved" : "copied") : sameLocation ? "kept" : "copied";
  let note: string | undefined;
  const { dataType } = array;
  if (dataType.kind === "object") {
    if (await holdsOnlyStrings(array, chunks, options.signal)) {
      const fill = array.fillValue;
      metadata = { ...metadata, data_type: { name: "string", configuration: {} }, fill_value: typeof fill === "string" ? fill : fill === null ? "" : String(fill) };
      note = "an object array holding only strings: data type string";
    } else {
      note = "an object array holding values other than strings: kept as the @zarr data type \"object\" (other Zarr v3 readers do not know it)";
    }
  } else if (options.variableLengthStrings && dataType.name === "fixed_length_utf32") {
    const codecs: ExtensionObject[] = [];
    let serialized = false;
    for (const c of metadata.codecs) {
      if (c.name === "bytes") {
        codecs.push({ name: "vlen-utf8", configuration: {} });
        serialized = true;
      } else if (!serialized) codecs.push(c);
      else if (c.name === "blosc") codecs.push({ ...c, configuration: { ...c.configuration, typesize: 1 } });
      else codecs.push(c);
    }
    metadata = { ...metadata, data_type: { name: "string", configuration: {} }, codecs, fill_value: array.fillValue as string };
    mode = "rewritten";
    note = "fixed-length Unicode rewritten as variable-length strings";
  }
  return { source: array, targetPath, metadata, mode, note, chunks };
}

/** The regions of the chunk at `coords`, clipped to the array. */
function chunkRegion(array: ZarrArray, coords: readonly number[]) {
  return coords.map((c, d) => {
    const dim = array.chunkGrid.dims[d];
    const start = dim.start(c);
    return slice(start, Math.min(start + dim.size(c), array.shape[d]));
  });
}

/**
 * Copies the chunk at `key` of `source` to `dst` of `target` unchanged (`found: false` when
 * the source no longer has it). With `resume`, a `dst` that holds as many bytes as the
 * source chunk is left alone (stores write atomically: a chunk there is whole).
 */
export async function copyChunk(
  source: Store,
  key: string,
  target: Store,
  dst: string,
  options: { resume: boolean; signal?: AbortSignal },
): Promise<{ found: boolean; skipped: boolean; bytes: number }> {
  const { signal } = options;
  let bytes: Uint8Array | undefined;
  try {
    bytes = await source.get(key, { signal });
  } catch (error) {
    throw asZarrError(error, "STORE_FAILED", `Could not read "${key}"`, key);
  }
  if (bytes === undefined) return { found: false, skipped: false, bytes: 0 };
  try {
    if (options.resume) {
      const have = target.getSize ? await target.getSize(dst, { signal }) : (await target.get(dst, { signal }))?.length;
      if (have === bytes.length) return { found: true, skipped: true, bytes: 0 };
    }
    throwIfAborted(signal);
    await (target as Required<Pick<Store, "set">>).set(dst, bytes, { signal });
  } catch (error) {
    throw asZarrError(error, "STORE_FAILED", `Could not write "${dst}"`, dst);
  }
  return { found: true, skipped: false, bytes: bytes.length };
}

/** True when two chunks' element arrays hold the same values (`===`, NaN equal to NaN). */
function sameValues(a: ArrayLike<unknown>, b: ArrayLike<unknown>): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i] && !(Number.isNaN(a[i]) && Number.isNaN(b[i]))) return false;
  return true;
}

/**
 * Decodes the chunk at `coords` of `source` and writes its values to the same chunk of
 * `dst` (same grid, other codecs or data type). With `resume`, a chunk `dst` already holds
 * is read back and kept when it decodes to the source's values.
 */
export async function rewriteChunk(
  source: ZarrArray,
  dst: ZarrArray,
  coords: readonly number[],
  options: { resume: boolean; signal?: AbortSignal },
): Promise<{ skipped: boolean }> {
  const { signal } = options;
  const region = chunkRegion(source, coords);
  const values = await get(source, region, { signal });
  if (options.resume) {
    const key = dst.chunkKey(coords as number[]);
    const there = dst.store.getSize ? await dst.store.getSize(key, { signal }) : (await dst.store.get(key, { signal }))?.length;
    if (there !== undefined && sameValues((await get(dst, region, { signal })).data as ArrayLike<unknown>, values.data as ArrayLike<unknown>)) {
      return { skipped: true };
    }
  }
  throwIfAborted(signal);
  await set(dst, region, { data: values.data, shape: values.shape }, { signal });
  return { skipped: false };
}

function requireWritable(store: Store): void {
  if (!isWritable(store)) throw new ZarrError("STORE_READ_ONLY", "Cannot convert: the target store is not writable");
}

/**
 * Converts a Zarr v2 node (or a node of an early-draft v3 hierarchy), with everything
 * below it when it is a group, to Zarr v3: into `options.target` (at `options.path`), or
 * in place with `inPlace: true`. See the module description for what is copied, moved and
 * rewritten. Attributes pass through (xarray-written arrays gain a `_FillValue` attribute,
 * see the module docs); `_ARRAY_DIMENSIONS` also becomes `dimension_names`. Honours `signal` and reports progress per chunk.
 *
 * @example
 * ```ts
 * const v2 = await open(store, "", { registry });          // a v2 group
 * const { node, arrays } = await convert(v2, { inPlace: true, onProgress: (p) => console.log(p.done, p.total) });
 * node.zarrFormat; // 3
 * ```
 */
export async function convert(node: ZarrNode, options: ConvertOptions = {}): Promise<ConvertResult> {
  const { signal } = options;
  throwIfAborted(signal);
  if (!isConvertible(node)) {
    throw new ZarrError("INVALID_ARGUMENT", `"${node.path || "/"}" is not a Zarr v2 or early-draft node (nothing to convert)`);
  }
  if (options.inPlace && options.target !== undefined && options.target !== node.store) {
    throw new ZarrError("INVALID_ARGUMENT", "Pass either target or inPlace, not both");
  }
  if (!options.inPlace && options.target === undefined) throw new ZarrError("INVALID_ARGUMENT", "Pass a target store, or inPlace: true");
  const target = options.inPlace ? node.store : (options.target as Store);
  requireWritable(target);
  const registry = options.registry ?? node.registry ?? defaultRegistry;
  const basePath = options.inPlace ? node.path : normalizePath(options.path ?? "");
  const sameLocation = target === node.store && basePath === node.path;
  const rel = (p: string) => (node.path === "" ? p : p.slice(node.path.length + 1));
  const where = (p: string) => join(basePath, rel(p));

  // Everything is read and planned first: for a draft hierarchy in place, the entry point is replaced last.
  const { nodes, skipped } = await hierarchyNodes(node, options.strict ?? false, signal);
  const plans: ArrayPlan[] = [];
  for (const n of nodes) if (n.kind === "array") plans.push(await planArray(n, where(n.path), sameLocation, options));
  for (const plan of plans) {
    if (plan.mode === "rewritten" && sameLocation && plan.source.zarrFormat === 2) {
      throw new ZarrError(
        "INVALID_ARGUMENT",
        `Converting "${plan.source.path || "/"}" rewrites its chunks, which in place would overwrite them under the old metadata: convert into another store`,
      );
    }
  }

  const total = plans.reduce((sum, p) => sum + (p.mode === "kept" ? 0 : p.chunks.length), 0);
  let done = 0;
  const concurrency = options.concurrency ?? DEFAULT_CONCURRENCY;
  const movedKeys: string[] = [];
  const results: ConvertedArray[] = [];
  for (const plan of plans) {
    throwIfAborted(signal);
    const { source, metadata, targetPath } = plan;
    const encoding = v3KeyEncoding(metadata);
    const targetPrefix = prefixOf(targetPath);
    if (plan.mode === "copied" || plan.mode === "moved") {
      await mapConcurrent(
        plan.chunks,
        concurrency,
        async ({ coords, key }) => {
          const dst = targetPrefix + encoding.encode(coords);
          if (dst !== key || target !== source.store) {
            const copied = await copyChunk(source.store, key, target, dst, { resume: false, signal });
            if (copied.found && plan.mode === "moved" && dst !== key) movedKeys.push(key);
          }
          options.onProgress?.({ done: ++done, total, path: targetPath });
        },
        { signal },
      );
    } else if (plan.mode === "rewritten") {
      const dst = await resolveArray(target, targetPath, metadata, { registry, writeEmptyChunks: true });
      await mapConcurrent(
        plan.chunks,
        concurrency,
        async ({ coords, key }) => {
          if (sameLocation) movedKeys.push(key);
          await rewriteChunk(source, dst, coords, { resume: false, signal });
          options.onProgress?.({ done: ++done, total, path: targetPath });
        },
        { signal },
      );
    }
    if (targetPath !== basePath || !sameLocation) await writeNodeMetadata(target, targetPath, metadata, signal);
    results.push({ path: targetPath, chunks: plan.mode, count: plan.mode === "kept" ? 0 : plan.chunks.length, ...(plan.note ? { note: plan.note } : {}) });
  }

  const groups: string[] = [];
  for (const n of nodes) {
    if (n.kind !== "group") continue;
    const path = where(n.path);
    groups.push(path);
    if (path === basePath && sameLocation) continue; // written last
    await writeNodeMetadata(target, path, { zarr_format: 3, node_type: "group", attributes: n.attributes }, signal);
  }

  const root = nodes[0];
  if (sameLocation) {
    // In place: the converted node's own document, then the old documents go. A draft's
    // entry point is the root's zarr.json, so there the old documents go first.
    const own: NodeMetadata =
      root.kind === "array"
        ? (plans[0].metadata as ArrayMetadata)
        : ({ zarr_format: 3, node_type: "group", attributes: root.attributes } satisfies GroupMetadata);
    const draft = layoutOf(root.format) !== undefined;
    if (draft) await removeOldDocuments(nodes, movedKeys, signal);
    await writeNodeMetadata(target, basePath, own, signal);
    if (!draft) await removeOldDocuments(nodes, movedKeys, signal);
  }
  const consolidate = options.consolidate ?? (root.kind === "group" && (root as ZarrGroup).consolidated !== undefined);
  if (consolidate && root.kind === "group") await consolidateMetadata(target, basePath, { registry, signal });
  const converted = await open(target, basePath, { registry, signal });
  return { node: converted, arrays: results, groups, skipped };
}

/**
 * `node` and every node below it, with the arrays that cannot be read (their codecs or
 * data type cannot be resolved) set aside as skipped, or failing the call when `strict`.
 */
export async function hierarchyNodes(
  node: ZarrNode,
  strict: boolean,
  signal?: AbortSignal,
): Promise<{ nodes: ZarrNode[]; skipped: SkippedArray[] }> {
  const nodes: ZarrNode[] = [node];
  const skipped: SkippedArray[] = [];
  if (node.kind === "group") {
    for await (const entry of walkEntries(node, { signal })) {
      const n = await nodeOf(node, entry, strict);
      if (n instanceof ZarrError) skipped.push({ path: entry.path, reason: `[${n.code}] ${n.message}` });
      else nodes.push(n);
    }
  }
  return { nodes, skipped };
}

/**
 * The node a walked entry describes, or, for an array that cannot be read (its codecs or
 * data type cannot be resolved), the error saying why (thrown instead when `strict`).
 */
export async function nodeOf(root: ZarrGroup, entry: NodeEntry, strict: boolean): Promise<ZarrNode | ZarrError> {
  const { store, registry } = root;
  if (entry.kind === "group") {
    const zarrFormat = entry.format?.zarrFormat ?? 3;
    return new ZarrGroup(store, entry.path, entry.metadata as GroupMetadata, registry, entry.consolidated, entry.implicit, zarrFormat, entry.format);
  }
  try {
    return await resolveArray(store, entry.path, entry.metadata as ArrayMetadata, { registry, format: entry.format });
  } catch (error) {
    const unreadable = error instanceof ZarrError && (error.code === "UNSUPPORTED" || error.code === "CODEC_UNKNOWN");
    if (strict || !unreadable) throw error;
    return error;
  }
}

/** In place: deletes the v2 documents (or the draft's documents and moved chunks) once everything is written. */
async function removeOldDocuments(nodes: ZarrNode[], movedKeys: string[], signal?: AbortSignal): Promise<void> {
  const store = nodes[0].store;
  const keys = [...movedKeys];
  for (const n of nodes) {
    const layout = layoutOf(n.format);
    if (layout !== undefined) {
      if (!(n.kind === "group" && n.implicit)) keys.push(draftDocumentKey(layout, n.path, n.kind));
      continue;
    }
    const p = prefixOf(n.path);
    if (n.kind === "array") keys.push(p + ZARRAY, p + ZATTRS);
    else keys.push(p + ZGROUP, p + ZATTRS, p + ZMETADATA);
  }
  await mapConcurrent(keys, DEFAULT_CONCURRENCY, (k) => deleteKey(store, k, signal), { signal });
}

/** The Zarr v3 metadata a v2 or draft node converts to (without converting anything). */
export async function v3MetadataOf(node: ZarrNode, options: { signal?: AbortSignal } = {}): Promise<NodeMetadata> {
  if (node.kind === "group") return { zarr_format: 3, node_type: "group", attributes: node.attributes };
  return (await planArray(node, node.path, true, { signal: options.signal })).metadata;
}
