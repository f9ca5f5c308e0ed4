/**
 * The read-only Zarr store over one snapshot of an Icechunk repository. Metadata keys
 * (`zarr.json`, `a/b/zarr.json`) come from the snapshot; a chunk key is resolved to its
 * array, coordinates, manifest and reference, and read from the manifest (inline), the
 * repository's `chunks/` (native) or an allowed virtual chunk container (virtual).
 */
import {
  addToDirListing,
  ByteLruCache,
  type ByteRange,
  checkReadIntoRanges,
  type DirListing,
  type ListableStore,
  type ListDirOptions,
  type ReadableStore,
  type ReadIntoRange,
  resolveByteRange,
  type Store,
  type StoreRequestOptions,
  throwIfAborted,
} from "@zarr/spec";
import { ArrayChunks } from "./array-chunks.js";
import { icechunkError } from "./errors.js";
import { type ChunkRef, Manifest, manifestKey } from "./manifest.js";
import type { Snapshot, SnapshotNode } from "./snapshot.js";
import { type VirtualChunkOptions, VirtualChunkReader } from "./virtual-chunks.js";

/** Options of an {@link IcechunkStore} (given to `openIcechunk` or `IcechunkRepository.store`). */
export interface IcechunkStoreOptions {
  /** Where virtual chunks may be read from; without it every virtual chunk fails with `UNSUPPORTED`. */
  virtualChunks?: VirtualChunkOptions;
  /** Decoded manifests kept in memory, in bytes (default 256 MiB). */
  manifestCacheBytes?: number;
  /** The largest decoded metadata file (snapshot, manifest) accepted (default 1 GiB). */
  maxMetadataBytes?: number;
}

/** Default of `IcechunkStoreOptions.maxMetadataBytes`. */
export const DEFAULT_MAX_METADATA_BYTES = 1024 * 1024 * 1024;

const METADATA = "zarr.json";

/** A chunk key resolved to its array and coordinates. */
interface ChunkAddress {
  array: ArrayChunks;
  coords: number[];
}

/**
 * A read-only, listable store over one snapshot of an Icechunk repository. Open it with
 * `openIcechunk` (or `IcechunkRepository.store`); it never writes.
 */
export class IcechunkStore implements ReadableStore, ListableStore {
  /** The repository's storage (its `chunks/`, `manifests/`, `snapshots/`...). */
  readonly storage: Store;
  /** The snapshot this store shows. */
  readonly snapshot: Snapshot;
  readonly #options: IcechunkStoreOptions;
  readonly #arrays = new Map<string, ArrayChunks>();
  readonly #manifests: ByteLruCache<string, Manifest>;
  readonly #loading = new Map<string, Promise<Manifest>>();
  readonly #virtual: VirtualChunkReader;

  constructor(storage: Store, snapshot: Snapshot, options: IcechunkStoreOptions = {}) {
    this.storage = storage;
    this.snapshot = snapshot;
    this.#options = options;
    this.#manifests = new ByteLruCache({ maxBytes: options.manifestCacheBytes ?? 256 * 1024 * 1024 });
    this.#virtual = new VirtualChunkReader(options.virtualChunks);
  }

  /** The snapshot's id (Crockford base 32). */
  get snapshotId(): string {
    return this.snapshot.id;
  }

  /**
   * Where chunk `key`'s bytes are (inline, native or virtual), without reading them;
   * `undefined` when the key names no stored chunk.
   *
   * @example
   * ```ts
   * await store.chunkRef("group1/big_chunks/c/0/0");
   * // { kind: "virtual", location: "s3://testbucket/can_read_old/chunk-1", offset: 0, length: 19, ... }
   * ```
   */
  async chunkRef(key: string, _options: StoreRequestOptions = {}): Promise<ChunkRef | undefined> {
    const address = this.#chunkAddress(key);
    return address === undefined ? undefined : address.array.find(address.coords);
  }

  /** A node's zarr.json, or a chunk's bytes (inline, native or virtual); `undefined` for a key the snapshot does not hold. */
  async get(key: string, options: StoreRequestOptions = {}): Promise<Uint8Array | undefined> {
    const node = this.#metadataNode(key);
    if (node !== undefined) return node.userData.slice();
    const address = this.#chunkAddress(key);
    if (address === undefined) return undefined;
    const ref = await address.array.find(address.coords);
    if (ref === undefined) return undefined;
    return this.#read(ref, key, undefined, options);
  }

  /** Part of a value: for a native chunk, a range of its chunk file. */
  async getRange(key: string, range: ByteRange, options: StoreRequestOptions = {}): Promise<Uint8Array | undefined> {
    const node = this.#metadataNode(key);
    if (node !== undefined) return sliceRange(node.userData, range).slice();
    const address = this.#chunkAddress(key);
    if (address === undefined) return undefined;
    const ref = await address.array.find(address.coords);
    if (ref === undefined) return undefined;
    return this.#read(ref, key, range, options);
  }

  /**
   * Scatter read (see `ReadableStore.readInto`): a native chunk is read straight from its
   * chunk file into the targets (through the storage's own `readInto` when it has one), so
   * an uncompressed chunk costs no intermediate buffer. Resolves the chunk's size.
   */
  async readInto(key: string, ranges: readonly ReadIntoRange[], options: StoreRequestOptions = {}): Promise<number | undefined> {
    checkReadIntoRanges(key, ranges);
    const address = this.#chunkAddress(key);
    const ref = address === undefined ? undefined : await address.array.find(address.coords);
    if (ref === undefined) {
      const bytes = this.#metadataNode(key)?.userData;
      if (bytes !== undefined) scatter(bytes, ranges);
      return bytes?.length;
    }
    if (ref.kind === "native" && typeof this.storage.readInto === "function") {
      const object = `chunks/${ref.chunkId}`;
      const shifted = ranges.map((r) => ({ offset: ref.offset + r.offset, target: r.target }));
      const size = await this.storage.readInto(object, shifted, options);
      if (size === undefined) throw icechunkError("NODE_NOT_FOUND", key, `the chunk file ${object} is missing`);
      if (size < ref.offset + ref.length) {
        throw icechunkError("CODEC_FAILED", key, `the chunk reference reads bytes ${ref.offset}..${ref.offset + ref.length} of ${object}, past the end of the file`);
      }
      return ref.length;
    }
    const bytes = await this.#read(ref, key, undefined, options);
    scatter(bytes, ranges);
    return bytes.length;
  }

  /** A value's size from the snapshot or the chunk's reference, without reading it. */
  async getSize(key: string, _options: StoreRequestOptions = {}): Promise<number | undefined> {
    const node = this.#metadataNode(key);
    if (node !== undefined) return node.userData.length;
    const address = this.#chunkAddress(key);
    if (address === undefined) return undefined;
    const ref = await address.array.find(address.coords);
    if (ref === undefined) return undefined;
    return ref.kind === "inline" ? ref.bytes.length : ref.length;
  }

  /** The bytes of chunk reference `ref` of `key` (a part of them with `range`). */
  async #read(ref: ChunkRef, key: string, range: ByteRange | undefined, options: StoreRequestOptions): Promise<Uint8Array> {
    throwIfAborted(options.signal);
    if (ref.kind === "inline") return (range === undefined ? ref.bytes : sliceRange(ref.bytes, range)).slice();
    if (ref.kind === "virtual") {
      const bytes = await this.#virtual.read(ref, key, options);
      return range === undefined ? bytes : sliceRange(bytes, range);
    }
    const { offset, length } = ref;
    const inner = innerRange(offset, length, range);
    const object = `chunks/${ref.chunkId}`;
    const bytes =
      typeof this.storage.getRange === "function"
        ? await this.storage.getRange(object, inner, options)
        : (await this.storage.get(object, options))?.subarray(inner.offset, inner.offset + inner.length);
    if (bytes === undefined) throw icechunkError("NODE_NOT_FOUND", key, `the chunk file ${object} is missing`);
    if (bytes.length !== inner.length) {
      throw icechunkError("CODEC_FAILED", key, `the chunk reference reads bytes ${offset}..${offset + length} of ${object}, past the end of the file`);
    }
    return bytes;
  }

  /** The node whose zarr.json `key` is, if any. */
  #metadataNode(key: string): SnapshotNode | undefined {
    if (key === METADATA) return this.snapshot.nodes.get("");
    if (!key.endsWith(`/${METADATA}`)) return undefined;
    return this.snapshot.nodes.get(key.slice(0, -METADATA.length - 1));
  }

  /** The array and coordinates chunk key `key` names, or `undefined` when it names none. */
  #chunkAddress(key: string): ChunkAddress | undefined {
    // The array is the closest ancestor path that is an array node (the root, "", last).
    for (let slash = key.lastIndexOf("/"); ; slash = key.lastIndexOf("/", slash - 1)) {
      const node = this.snapshot.nodes.get(slash < 0 ? "" : key.slice(0, slash));
      if (node !== undefined) {
        if (node.kind !== "array") return undefined;
        const array = this.#arrayChunks(node);
        const coords = array.layout.keys.parse(key.slice(slash + 1));
        return coords !== undefined && array.inGrid(coords) ? { array, coords } : undefined;
      }
      if (slash < 0) return undefined;
    }
  }

  #arrayChunks(node: SnapshotNode): ArrayChunks {
    let array = this.#arrays.get(node.path);
    if (array === undefined) {
      array = new ArrayChunks(node, (id) => this.#manifest(id));
      this.#arrays.set(node.path, array);
    }
    return array;
  }

  /** Manifest `id`, from the cache or read once however many chunks ask for it at the same time. */
  #manifest(id: string): Promise<Manifest> {
    const cached = this.#manifests.get(id);
    if (cached !== undefined) return Promise.resolve(cached);
    let loading = this.#loading.get(id);
    if (loading === undefined) {
      const key = manifestKey(id);
      loading = this.storage
        .get(key)
        .then((bytes) => {
          if (bytes === undefined) throw icechunkError("NODE_NOT_FOUND", key, `the manifest file is missing (snapshot ${this.snapshot.id} points to it)`);
          const manifest = new Manifest(bytes, key, this.#options.maxMetadataBytes ?? DEFAULT_MAX_METADATA_BYTES);
          this.#manifests.set(id, manifest, manifest.byteLength);
          return manifest;
        })
        .finally(() => this.#loading.delete(id));
      this.#loading.set(id, loading);
    }
    return loading;
  }

  /** Every key: each node's zarr.json and every stored chunk (reads every manifest). */
  async *list(options: StoreRequestOptions = {}): AsyncGenerator<string> {
    yield* this.listPrefix("", options);
  }

  /** Every key starting with `prefix` (reads the manifests of the arrays under it). */
  async *listPrefix(prefix: string, options: StoreRequestOptions = {}): AsyncGenerator<string> {
    for (const [path, node] of this.snapshot.nodes) {
      throwIfAborted(options.signal);
      const base = path === "" ? "" : `${path}/`;
      const metadataKey = base + METADATA;
      if (metadataKey.startsWith(prefix)) yield metadataKey;
      if (node.kind !== "array" || !(base.startsWith(prefix) || prefix.startsWith(base))) continue;
      const array = this.#arrayChunks(node);
      for await (const coords of array.coordinates()) {
        const key = base + array.layout.keys.format(coords);
        if (key.startsWith(prefix)) yield key;
      }
    }
  }

  /**
   * One level under `prefix`: child nodes from the snapshot; below an array, its chunk keys
   * from its manifests (an array's `c/` folder is listed from the snapshot alone).
   */
  async listDir(prefix: string, options: ListDirOptions = {}): Promise<DirListing> {
    const path = prefix.endsWith("/") ? prefix.slice(0, -1) : prefix;
    const keys = new Set<string>();
    const prefixes = new Set<string>();
    const node = this.snapshot.nodes.get(path);
    if (node !== undefined) keys.add(METADATA);
    // Child nodes: paths one segment below `path`.
    const base = path === "" ? "" : `${path}/`;
    for (const childPath of this.snapshot.nodes.keys()) {
      if (childPath !== "" && childPath.startsWith(base)) prefixes.add(childPath.slice(base.length).split("/")[0]);
    }
    // Chunk keys of the array at or above `path`.
    const owner = this.#owningArray(path);
    if (owner !== undefined) {
      const array = this.#arrayChunks(owner.node);
      const folder = array.layout.keys.folder;
      if (owner.rest === "" && folder !== undefined) {
        // Every chunk key is under one folder: no manifest needs reading to list it.
        if (options.uncheckedPrefixes === true || (owner.node.array?.manifests.length ?? 0) > 0) prefixes.add(folder);
      } else {
        const within = owner.rest === "" ? "" : `${owner.rest}/`;
        for await (const coords of array.coordinates()) {
          throwIfAborted(options.signal);
          const suffix = array.layout.keys.format(coords);
          if (!suffix.startsWith(within)) continue;
          addToDirListing(suffix.slice(within.length), keys, prefixes);
        }
      }
    }
    return { keys: [...keys].sort(), prefixes: [...prefixes].sort() };
  }

  /** The array node at `path` or above it, and the rest of `path` below it. */
  #owningArray(path: string): { node: SnapshotNode; rest: string } | undefined {
    let at = path;
    for (;;) {
      const node = this.snapshot.nodes.get(at);
      if (node !== undefined) return node.kind === "array" ? { node, rest: path.slice(at.length).replace(/^\//, "") } : undefined;
      if (at === "") return undefined;
      const slash = at.lastIndexOf("/");
      at = slash < 0 ? "" : at.slice(0, slash);
    }
  }
}

/** Copies the parts of `bytes` that `ranges` ask for into their targets (what fits). */
function scatter(bytes: Uint8Array, ranges: readonly ReadIntoRange[]): void {
  for (const { offset, target } of ranges) target.set(bytes.subarray(offset, offset + target.length).subarray(0, target.length));
}

/** The part of `bytes` that `range` asks for, clamped at the end like HTTP. */
function sliceRange(bytes: Uint8Array, range: ByteRange): Uint8Array {
  const [start, end] = resolveByteRange(range, bytes.length);
  return bytes.subarray(start, end);
}

/** The byte range of the chunk file that `range` of a chunk stored at `[offset, offset + length)` covers. */
function innerRange(offset: number, length: number, range: ByteRange | undefined): { offset: number; length: number } {
  if (range === undefined) return { offset, length };
  const [start, end] = resolveByteRange(range, length);
  return { offset: offset + start, length: end - start };
}
