/**
 * Manifest files (`manifests/<id>`): chunk references of one or more arrays, sorted by
 * node id and then by chunk coordinates, so one reference is found by two binary
 * searches in the flatbuffer without decoding the rest.
 */

import { icechunkError } from "./errors.js";
import { FileType, openFile } from "./file-header.js";
import { FlatBuffer, type Table, type TableVector } from "./flatbuffer.js";
import { encodeObjectId } from "./object-id.js";

/** A chunk whose bytes are stored in the manifest itself. */
export interface InlineChunkRef {
  kind: "inline";
  bytes: Uint8Array;
}

/** A chunk stored in the repository's `chunks/` folder (`length` bytes at `offset` of the file). */
export interface NativeChunkRef {
  kind: "native";
  /** Chunk file id (Crockford base 32). */
  chunkId: string;
  offset: number;
  length: number;
}

/** A chunk inside an object outside the repository (a NetCDF file on S3, say). */
export interface VirtualChunkRef {
  kind: "virtual";
  /** Absolute URL of the object. */
  location: string;
  offset: number;
  length: number;
  /** The object's ETag when the reference was written, if recorded. */
  etag: string | undefined;
  /** The object's last modification time (seconds since the epoch) when the reference was written, if recorded. */
  lastModified: number | undefined;
}

/** Where one chunk's bytes are. */
export type ChunkRef = InlineChunkRef | NativeChunkRef | VirtualChunkRef;

/** The store key of manifest `id`. */
export function manifestKey(id: string): string {
  return `manifests/${id}`;
}

/** A decoded manifest: chunk references looked up on demand. */
export class Manifest {
  readonly #fb: FlatBuffer;
  readonly #arrays: TableVector;
  readonly #compression: number;

  constructor(bytes: Uint8Array, object: string, maxBytes: number) {
    const { payload } = openFile(bytes, object, FileType.Manifest, maxBytes);
    this.#fb = new FlatBuffer(payload, object);
    const root = this.#fb.root("the manifest");
    root.requiredStruct(0, 12, "id");
    this.#arrays = root.requiredTables(1, "arrays");
    this.#compression = root.u8(3, "compression_algorithm", 1);
  }

  /** Bytes of the decoded manifest (what a cache of manifests is charged). */
  get byteLength(): number {
    return this.#fb.bytes.length;
  }

  /** The chunk references of the array with node id `nodeId`, or `undefined` when it has none here. */
  #refsOf(nodeId: Uint8Array): TableVector | undefined {
    let lo = 0;
    let hi = this.#arrays.length - 1;
    while (lo <= hi) {
      const mid = (lo + hi) >>> 1;
      const array = this.#arrays.at(mid);
      const at = array.requiredStruct(0, 8, "node_id");
      const order = compareBytes(this.#fb.bytes, at, nodeId);
      if (order === 0) return array.requiredTables(1, "refs");
      if (order < 0) lo = mid + 1;
      else hi = mid - 1;
    }
    return undefined;
  }

  /** The reference of chunk `coords` of array `nodeId`, or `undefined` when the manifest has none. */
  find(nodeId: Uint8Array, coords: readonly number[]): ChunkRef | undefined {
    const refs = this.#refsOf(nodeId);
    if (refs === undefined) return undefined;
    let lo = 0;
    let hi = refs.length - 1;
    while (lo <= hi) {
      const mid = (lo + hi) >>> 1;
      const ref = refs.at(mid);
      const order = this.#compareIndex(ref, coords);
      if (order === 0) return this.#parseRef(ref);
      if (order < 0) lo = mid + 1;
      else hi = mid - 1;
    }
    return undefined;
  }

  /** Every chunk coordinate of array `nodeId` in this manifest, in order. */
  *coordinates(nodeId: Uint8Array): Generator<number[]> {
    const refs = this.#refsOf(nodeId);
    if (refs === undefined) return;
    for (let i = 0; i < refs.length; i++) {
      const index = refs.at(i).requiredVector(0, 4, "index");
      const coords: number[] = [];
      for (let d = 0; d < index.length; d++) coords.push(this.#fb.view.getUint32(index.start + 4 * d, true));
      yield coords;
    }
  }

  #compareIndex(ref: Table, coords: readonly number[]): number {
    const index = ref.requiredVector(0, 4, "index");
    const n = Math.min(index.length, coords.length);
    for (let d = 0; d < n; d++) {
      const c = this.#fb.view.getUint32(index.start + 4 * d, true);
      if (c !== coords[d]) return c < coords[d] ? -1 : 1;
    }
    return index.length - coords.length;
  }

  #parseRef(ref: Table): ChunkRef {
    const inline = ref.bytes(1, "inline");
    if (inline !== undefined) return { kind: "inline", bytes: inline };
    const offset = ref.u64(2, "offset");
    const length = ref.u64(3, "length");
    const idAt = ref.struct(4, 12, "chunk_id");
    if (idAt !== 0) return { kind: "native", chunkId: encodeObjectId(this.#fb.bytes.subarray(idAt, idAt + 12)), offset, length };
    const location = ref.string(5, "location") ?? this.#compressedLocation(ref);
    const lastModified = ref.u32(7, "checksum_last_modified");
    return { kind: "virtual", location, offset, length, etag: ref.string(6, "checksum_etag"), lastModified: lastModified === 0 ? undefined : lastModified };
  }

  #compressedLocation(ref: Table): string {
    const raw = ref.bytes(8, "compressed_location");
    if (raw === undefined) return this.#fb.fail(`${ref.what} is neither inline, native nor virtual`);
    if (this.#compression !== 0) {
      // The locations are compressed with a zstd dictionary trained on the manifest, which @zarr/codec-zstd does not take.
      throw icechunkError("UNSUPPORTED", this.#fb.object, "virtual chunk locations compressed with a zstd dictionary are not supported");
    }
    try {
      return new TextDecoder("utf-8", { fatal: true }).decode(raw);
    } catch {
      return this.#fb.fail(`the compressed_location of ${ref.what} is not valid UTF-8`);
    }
  }
}

/** Compares the 8 bytes at `at` of `bytes` with `id`. */
function compareBytes(bytes: Uint8Array, at: number, id: Uint8Array): number {
  for (let i = 0; i < 8; i++) {
    const d = bytes[at + i] - id[i];
    if (d !== 0) return d;
  }
  return 0;
}
