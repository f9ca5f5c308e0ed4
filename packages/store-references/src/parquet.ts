/**
 * Parquet reference sets, as kerchunk's `LazyReferenceMapper` and VirtualiZarr write them:
 *
 *     refs.parq/.zmetadata            {"metadata": {".zgroup": {...}, "temp/.zarray": {...}, ...}, "record_size": N}
 *     refs.parq/temp/refs.0.parq      rows 0..N-1: chunks 0..N-1 of temp, in C order over its chunk grid
 *     refs.parq/temp/refs.1.parq      rows 0..N-1: chunks N..2N-1
 *
 * Each row has the columns `path` (the target, or null), `offset`, `size` (int64) and `raw`
 * (inline bytes, or null): inline bytes when `raw` is set; no reference (a missing chunk)
 * when neither is; the whole target when offset and size are both 0; else a byte range.
 * Files load when a key in them is first asked for, through hyparquet (from npm: a small,
 * dependency-free Parquet reader that reads by byte ranges), a few at a time in a cache.
 */
import { ByteLruCache, isJsonObject, type JsonObject, parseJsonBytes, type Store, ZarrError } from "@zarr/spec";
import type { Reference } from "./reference-table.js";
import type { ReferenceSource } from "./reference-store.js";

/** What a Parquet reference set needs to know of an array: its chunk grid and key separator. */
interface ArrayGrid {
  /** Chunks per dimension. */
  readonly counts: readonly number[];
  readonly separator: string;
}

const utf8 = new TextEncoder();

function invalid(where: string, problem: string, key?: string): never {
  throw new ZarrError("METADATA_INVALID", `Invalid Parquet reference set "${where}": ${problem}`, { key });
}

/**
 * A Parquet file of `store` as hyparquet's AsyncBuffer: byte ranges on demand, or (from a
 * store that cannot read ranges or sizes) the whole file, read once.
 */
async function asyncBufferOf(store: Store, key: string, signal?: AbortSignal) {
  if (store.getRange === undefined || store.getSize === undefined) return (await store.get(key, { signal }))?.slice().buffer;
  const size = await store.getSize(key, { signal });
  if (size === undefined) return undefined;
  const getRange = store.getRange.bind(store);
  return {
    byteLength: size,
    async slice(start: number, end?: number): Promise<ArrayBuffer> {
      const length = (end ?? size) - start;
      const bytes = await getRange(key, { offset: start, length }, { signal });
      if (bytes === undefined || bytes.length < length) throw new ZarrError("STORE_FAILED", `The Parquet file "${key}" ended early`, { key });
      return bytes.slice().buffer as ArrayBuffer;
    },
  };
}

/** zstd pages (kerchunk's default compression) through @zarr/codec-zstd, loaded with the first file. */
async function compressors() {
  const { zstdDecompress } = await import("@zarr/codec-zstd");
  return { ZSTD: (input: Uint8Array, outputLength: number) => zstdDecompress(input, outputLength) };
}

/**
 * Opens the Parquet reference set under `prefix` of `store` (the folder holding
 * `.zmetadata`) as a {@link ReferenceSource}.
 *
 * @example
 * ```ts
 * const source = await parquetReferenceSource(new FileSystemStore("/data"), "refs.parq");
 * const store = new ReferenceStore(source, { openTarget: (folder) => openStore(folder, { registry }) });
 * ```
 */
export async function parquetReferenceSource(store: Store, prefix: string, options: { signal?: AbortSignal; cachedFiles?: number } = {}): Promise<ReferenceSource> {
  const root = prefix.replace(/\/+$/, "");
  const metaKey = root === "" ? ".zmetadata" : `${root}/.zmetadata`;
  const bytes = await store.get(metaKey, { signal: options.signal });
  if (bytes === undefined) throw new ZarrError("NODE_NOT_FOUND", `No Parquet reference set at "${root}" (no .zmetadata)`, { key: metaKey });
  const doc = parseJsonBytes(bytes, metaKey);
  if (!isJsonObject(doc) || !isJsonObject(doc.metadata)) invalid(metaKey, 'expected {"metadata": {...}, "record_size": N}', metaKey);
  const recordSize = doc.record_size;
  if (typeof recordSize !== "number" || !Number.isSafeInteger(recordSize) || recordSize < 1) invalid(metaKey, "record_size must be a positive integer", metaKey);
  const metadata = new Map<string, Uint8Array>();
  for (const [key, value] of Object.entries(doc.metadata)) {
    metadata.set(key, utf8.encode(typeof value === "string" ? value : JSON.stringify(value)));
  }
  const grids = new Map<string, ArrayGrid>();
  for (const [key, value] of metadata) {
    if (!key.endsWith(".zarray") || (key !== ".zarray" && !key.endsWith("/.zarray"))) continue;
    const field = key.slice(0, -".zarray".length).replace(/\/$/, "");
    grids.set(field, gridOf(parseJsonBytes(value, key), key, metaKey));
  }
  const fileKey = (field: string, record: number) => `${root === "" ? "" : `${root}/`}${field === "" ? "" : `${field}/`}refs.${record}.parq`;
  // Decoded files, bounded by the number kept (each holds up to record_size references).
  const files = new ByteLruCache<string, Promise<(Reference | undefined)[] | undefined>>({ maxBytes: options.cachedFiles ?? 16, maxEntries: options.cachedFiles ?? 16 });
  const loadFile = (field: string, record: number, signal?: AbortSignal) => {
    const key = fileKey(field, record);
    let rows = files.get(key);
    if (rows === undefined) {
      rows = readRows(store, key, signal);
      rows.catch(() => files.delete(key));
      files.set(key, rows, 1);
    }
    return rows;
  };
  return {
    async lookup(key, signal) {
      const inline = metadata.get(key);
      if (inline !== undefined) return { kind: "inline", bytes: inline };
      const slash = key.lastIndexOf("/");
      const field = slash < 0 ? "" : key.slice(0, slash);
      const grid = grids.get(field);
      if (grid === undefined) return undefined;
      const linear = linearIndex(key.slice(slash + 1), grid);
      if (linear === undefined) return undefined;
      const rows = await loadFile(field, Math.floor(linear / recordSize), signal);
      return rows?.[linear % recordSize];
    },
    async *keys(signal) {
      yield* metadata.keys();
      for (const [field, grid] of grids) {
        const total = grid.counts.reduce((a, b) => a * b, 1);
        for (let record = 0; record * recordSize < total; record++) {
          const rows = await loadFile(field, record, signal);
          if (rows === undefined) continue;
          for (let r = 0; r < rows.length; r++) {
            if (rows[r] !== undefined) yield chunkKey(field, record * recordSize + r, grid);
          }
        }
      }
    },
  };
}

/** The chunk grid of a Zarr v2 `.zarray`. */
function gridOf(zarray: unknown, key: string, where: string): ArrayGrid {
  if (!isJsonObject(zarray)) invalid(where, "an array's metadata is not an object", key);
  const { shape, chunks, dimension_separator } = zarray as JsonObject;
  if (!Array.isArray(shape) || !Array.isArray(chunks) || shape.length !== chunks.length) invalid(where, "an array's shape and chunks disagree", key);
  const counts = shape.map((n, d) => {
    const c = chunks[d];
    if (typeof n !== "number" || typeof c !== "number" || c < 1) invalid(where, `bad shape or chunks in dimension ${d}`, key);
    return Math.ceil(n / c);
  });
  return { counts, separator: dimension_separator === "/" ? "/" : "." };
}

/** The C-order index of a chunk key's coordinates, or undefined when it is not one of the grid's. */
function linearIndex(name: string, grid: ArrayGrid): number | undefined {
  if (grid.counts.length === 0) return name === "0" ? 0 : undefined;
  const parts = name.split(grid.separator);
  if (parts.length !== grid.counts.length) return undefined;
  let linear = 0;
  for (let d = 0; d < parts.length; d++) {
    if (!/^\d+$/.test(parts[d])) return undefined;
    const c = Number(parts[d]);
    if (c >= grid.counts[d]) return undefined;
    linear = linear * grid.counts[d] + c;
  }
  return linear;
}

/** The key of the chunk at C-order index `linear`. */
function chunkKey(field: string, linear: number, grid: ArrayGrid): string {
  const coords = new Array<number>(grid.counts.length);
  for (let d = grid.counts.length - 1; d >= 0; d--) {
    coords[d] = linear % grid.counts[d];
    linear = Math.floor(linear / grid.counts[d]);
  }
  const name = grid.counts.length === 0 ? "0" : coords.join(grid.separator);
  return field === "" ? name : `${field}/${name}`;
}

/** The references of one Parquet file (undefined when the file is missing: none of its chunks are stored). */
async function readRows(store: Store, key: string, signal?: AbortSignal): Promise<(Reference | undefined)[] | undefined> {
  const file = await asyncBufferOf(store, key, signal);
  if (file === undefined) return undefined;
  const { parquetReadObjects } = await import("hyparquet");
  let rows: Record<string, unknown>[];
  try {
    rows = await parquetReadObjects({ file, columns: ["path", "offset", "size", "raw"], utf8: false, compressors: await compressors() });
  } catch (error) {
    if (error instanceof ZarrError) throw error;
    throw new ZarrError("METADATA_INVALID", `Cannot read the Parquet reference file "${key}": ${(error as Error).message}`, { key, cause: error });
  }
  return rows.map((row, r) => referenceOfRow(row, key, r));
}

const decoder = new TextDecoder();

function referenceOfRow(row: Record<string, unknown>, file: string, r: number): Reference | undefined {
  const { raw, path, offset, size } = row;
  if (raw instanceof Uint8Array) return { kind: "inline", bytes: raw };
  const url = path instanceof Uint8Array ? decoder.decode(path) : path;
  if (url === null || url === undefined || url === "") return undefined;
  if (typeof url !== "string") invalid(file, `row ${r}: path is not text`, file);
  const int = (v: unknown, what: string) => {
    const n = typeof v === "bigint" ? Number(v) : v;
    if (typeof n !== "number" || !Number.isSafeInteger(n) || n < 0) invalid(file, `row ${r}: ${what} must be a non-negative integer, got ${String(v)}`, file);
    return n;
  };
  const o = int(offset, "offset");
  const s = int(size, "size");
  return o === 0 && s === 0 ? { kind: "whole", url } : { kind: "range", url, offset: o, length: s };
}
