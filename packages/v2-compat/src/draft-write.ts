/**
 * Writing a hierarchy in the early Zarr v3 draft layout that GDAL 3.6 and zarr-python 2.13
 * read (`-co FORMAT=ZARR_V3`, `ZARR_V3_EXPERIMENTAL_API`): the `zarr.json` entry point,
 * `meta/root.group.json`, `meta/root/<path>.group.json` / `.array.json` documents and
 * chunks at `data/root/<path>/c<i>/<j>`, documents shaped as GDAL 3.6 writes them (NumPy
 * `data_type`, `chunk_grid {type, chunk_shape, separator}`, `chunk_memory_layout`, v2-style
 * `fill_value`, one `compressor {codec: URL, configuration}`).
 *
 * Every chunk is decoded from the source and encoded again: the draft has one compressor per
 * array and no codec chain, so a source chain seldom fits it as it is. The written
 * documents are read back through `draftFormat` before any chunk is written, so what is
 * written is exactly what this package (and so GDAL's layout) reads.
 */
import {
  type ArrayMetadata,
  isWritable,
  type JsonObject,
  type JsonValue,
  mapConcurrent,
  type Store,
  throwIfAborted,
  ZarrError,
} from "@zarr/spec";
import {
  DEFAULT_CONCURRENCY,
  defaultRegistry,
  get,
  normalizePath,
  type Registry,
  resolveArray,
  set,
  slice,
  type ZarrArray,
  type ZarrNode,
} from "@zarr/core";
import { hierarchyNodes, type SkippedArray, storedChunks } from "./convert.js";
import { draftDocumentKey, readDraftEntry } from "./draft-format.js";
import { dataTypeToDtype, parseDtype } from "./dtype.js";
import { v3FillToV2 } from "./fill-value.js";
import { writeJson } from "./store-io.js";

/** Options of {@link writeDraft}. */
export interface WriteDraftOptions {
  /** The store the draft hierarchy is written to (its entry point is this store's `zarr.json`). */
  target: Store;
  /** Where in the draft hierarchy the node goes (default: the root). */
  path?: string;
  /**
   * The compressor of every array, as a numcodecs configuration GDAL 3.6 reads: `{id:
   * "gzip", level}` (the default, level 5), `{id: "blosc", cname, clevel, shuffle, blocksize}`,
   * or `null` for none.
   */
  compressor?: (JsonObject & { id: "gzip" | "blosc" }) | null;
  /** Where codecs are looked up (default: the source node's registry). */
  registry?: Registry;
  /** Fail on the first array that cannot be read instead of skipping it (as `convert`'s `strict`). */
  strict?: boolean;
  /** Chunks rewritten at once (default 16). */
  concurrency?: number;
  signal?: AbortSignal;
  /** Called after each chunk written, with the chunks done and the total. */
  onProgress?: (progress: { done: number; total: number; path: string }) => void;
}

/** What {@link writeDraft} wrote. */
export interface WriteDraftResult {
  /** Paths (in the draft hierarchy) of the arrays written, with their chunk counts. */
  arrays: { path: string; chunks: number }[];
  /** Paths of the groups written. */
  groups: string[];
  /** Arrays of the source left out because they cannot be read (source paths), as in `convert`. */
  skipped: SkippedArray[];
}

const PROTOCOL = "https://purl.org/zarr/spec/protocol/core/3.0";
const LAYOUT = { meta: "meta/root", data: "data/root", suffix: ".json" } as const;

function codecUrl(id: string): string {
  return `https://purl.org/zarr/spec/codec/${id}/1.0`;
}

/** The draft array document for a source array (GDAL 3.6's field order). */
function arrayDocument(array: ZarrArray, compressor: JsonObject | null): JsonObject {
  const { metadata } = array;
  if (metadata.chunk_grid.name !== "regular") {
    throw new ZarrError("UNSUPPORTED", `"${array.path || "/"}" has a ${metadata.chunk_grid.name} chunk grid: the early v3 draft has only regular grids`);
  }
  const dtypeJson = dataTypeToDtype(metadata.data_type as unknown as JsonValue, "little");
  if (dtypeJson === "|O") {
    throw new ZarrError("UNSUPPORTED", `"${array.path || "/"}" holds variable-size values (${metadata.data_type.name}): not written in the early v3 draft layout`);
  }
  const dtype = parseDtype(dtypeJson, ["data_type"]);
  const doc: JsonObject = {
    shape: [...metadata.shape],
    data_type: dtypeJson,
    chunk_grid: { type: "regular", chunk_shape: metadata.chunk_grid.configuration.chunk_shape as JsonValue, separator: "/" },
  };
  if (compressor !== null) {
    const { id, ...configuration } = compressor;
    doc.compressor = { codec: codecUrl(id as string), configuration };
  }
  doc.fill_value = v3FillToV2(array.fillValue, array.dataType, dtype);
  doc.chunk_memory_layout = "C";
  doc.extensions = [];
  doc.attributes = dimensionAttributes(array);
  return doc;
}

/** The attributes, with the dimension names as xarray's `_ARRAY_DIMENSIONS` (which GDAL reads) unless already there. */
function dimensionAttributes(array: ZarrArray): JsonObject {
  const names = array.dimensionNames;
  const attributes: JsonObject = { ...array.attributes };
  if (names?.every((n) => typeof n === "string") && !("_ARRAY_DIMENSIONS" in attributes)) {
    attributes._ARRAY_DIMENSIONS = [...(names as string[])];
  }
  return attributes;
}

function relative(root: ZarrNode, node: ZarrNode): string {
  return root.path === "" ? node.path : node.path.slice(root.path.length + 1);
}

/**
 * Writes `node` (a group with everything below it, or one array), from any format this
 * library reads, into `options.target` in the early Zarr v3 draft layout, so that GDAL 3.6
 * and zarr-python 2.13 read it. Every chunk stored in the source is decoded and encoded
 * with the draft's single compressor (gzip level 5 unless `options.compressor` says
 * otherwise); arrays of variable-size values and non-regular grids are `UNSUPPORTED`.
 * Arrays that cannot be read at all are skipped and listed in `skipped` (or, with
 * `strict`, fail), as in `convert`.
 * The target must not hold a Zarr v2 or v3 hierarchy (`INVALID_ARGUMENT`).
 *
 * @example
 * ```ts
 * const { arrays } = await writeDraft(await open(store, "", { registry }), { target: new FileSystemStore("out.zarr") });
 * // gdalinfo 'ZARR:"out.zarr":/t2m'
 * ```
 */
export async function writeDraft(node: ZarrNode, options: WriteDraftOptions): Promise<WriteDraftResult> {
  const { target, signal } = options;
  throwIfAborted(signal);
  if (!isWritable(target)) throw new ZarrError("STORE_READ_ONLY", "Cannot write the draft hierarchy: the target store is not writable");
  const registry = options.registry ?? node.registry ?? defaultRegistry;
  const base = normalizePath(options.path ?? "");
  const compressor = options.compressor === undefined ? { id: "gzip", level: 5 } : options.compressor;
  if (compressor !== null && compressor.id !== "gzip" && compressor.id !== "blosc") {
    throw new ZarrError("INVALID_ARGUMENT", `The draft compressor must be gzip or blosc (what GDAL 3.6 reads), got ${JSON.stringify(compressor.id)}`);
  }
  const existing = await target.get("zarr.json", { signal });
  if (existing !== undefined && !new TextDecoder().decode(existing).includes(PROTOCOL)) {
    throw new ZarrError("INVALID_ARGUMENT", 'The target holds a Zarr v3 hierarchy ("zarr.json"): write the early-draft layout into another store', { key: "zarr.json" });
  }
  if ((await target.get(".zgroup", { signal })) !== undefined) {
    throw new ZarrError("INVALID_ARGUMENT", 'The target holds a Zarr v2 hierarchy (".zgroup"): write the early-draft layout into another store', { key: ".zgroup" });
  }
  const { nodes, skipped } = await hierarchyNodes(node, options.strict ?? false, signal);
  const where = (n: ZarrNode) => {
    const rel = relative(node, n);
    return base === "" ? rel : rel === "" ? base : `${base}/${rel}`;
  };

  // Documents first (arrays are validated before any of them is written), the entry point last.
  const docs = nodes.map((n) => ({ n, path: where(n), doc: n.kind === "array" ? arrayDocument(n, compressor) : { extensions: [], attributes: n.attributes } }));
  if (node.kind === "array" && base === "") throw new ZarrError("INVALID_ARGUMENT", "An array cannot be the root of an early-draft hierarchy: pass a path");
  for (const { n, path, doc } of docs) await writeJson(target, draftDocumentKey(LAYOUT, path, n.kind), doc, signal);
  if (node.kind === "array" || base !== "") await writeJson(target, draftDocumentKey(LAYOUT, "", "group"), { extensions: [], attributes: {} }, signal);
  await writeJson(target, "zarr.json", { zarr_format: PROTOCOL, metadata_encoding: PROTOCOL, metadata_key_suffix: ".json", extensions: [] }, signal);

  const plans: { source: ZarrArray; path: string; chunks: { coords: number[]; key: string }[] }[] = [];
  for (const { n, path } of docs) if (n.kind === "array") plans.push({ source: n, path, chunks: await storedChunks(n, signal) });
  const total = plans.reduce((sum, p) => sum + p.chunks.length, 0);
  let done = 0;
  const arrays: WriteDraftResult["arrays"] = [];
  for (const plan of plans) {
    const entry = await readDraftEntry(target, plan.path, { registry, signal });
    if (entry === undefined || entry.kind !== "array") throw new ZarrError("NODE_NOT_FOUND", `The draft array "${plan.path}" did not read back`);
    const dst = await resolveArray(target, plan.path, entry.metadata as ArrayMetadata, { registry, format: entry.format, writeEmptyChunks: true });
    const { source } = plan;
    await mapConcurrent(
      plan.chunks,
      options.concurrency ?? DEFAULT_CONCURRENCY,
      async ({ coords }) => {
        const region = coords.map((c, d) => {
          const dim = source.chunkGrid.dims[d];
          const start = dim.start(c);
          return slice(start, Math.min(start + dim.size(c), source.shape[d]));
        });
        const values = await get(source, region, { signal });
        await set(dst, region, { data: values.data, shape: values.shape }, { signal });
        options.onProgress?.({ done: ++done, total, path: plan.path });
      },
      { signal },
    );
    arrays.push({ path: plan.path, chunks: plan.chunks.length });
  }
  return { arrays, groups: docs.filter((d) => d.n.kind === "group").map((d) => d.path), skipped };
}
