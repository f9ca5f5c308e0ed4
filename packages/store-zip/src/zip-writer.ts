/**
 * `ZipWriter`: writes a zip archive entry by entry to a sink (an array of chunks, a file,
 * a stream), holding only the entry being added and the central directory records.
 */
import { validateKey, ZarrError } from "@zarr/spec";
import {
  centralDirectory,
  checkCompression,
  checkLevel,
  checkModified,
  type EntryRecord,
  encodeComment,
  encodeEntry,
  localHeader,
  type ZipCompression,
} from "./records.js";
import { MAX_U32 } from "./zip-format.js";

export type { ZipCompression } from "./records.js";

/** Where a {@link ZipWriter} puts the archive's bytes, in order. */
export interface ZipSink {
  /** Takes the next chunk. The writer does not touch a chunk after passing it on. */
  write(chunk: Uint8Array): void | Promise<void>;
}

/** Options of {@link ZipWriter}. */
export interface ZipWriterOptions {
  /**
   * `"stored"` (default: uncompressed, so byte ranges of entries can be read without
   * inflating) or `"deflate"` (an entry that deflate does not shrink is stored).
   */
  compression?: ZipCompression;
  /** Deflate level 0-9 (default 6). */
  level?: number;
  /**
   * Write ZIP64 records (extra fields and end records) even when no size, offset or count
   * needs them. They are written anyway when one exceeds the 32-bit (16-bit for counts) limits.
   */
  forceZip64?: boolean;
  /** Archive comment (at most 65535 bytes of UTF-8). */
  comment?: string;
  /** Modification time recorded for every entry (default: when the writer was created). */
  modified?: Date;
}

/** Per-entry options of {@link ZipWriter.add}. */
export interface ZipEntryOptions {
  compression?: ZipCompression;
  level?: number;
}

/** What was written. */
export interface ZipSummary {
  /** Number of entries. */
  entries: number;
  /** Archive size in bytes. */
  size: number;
}

/**
 * Writes a zip archive incrementally: `add` each entry (its local header and data go to
 * the sink at once), then `finish` (central directory and end records). Entries carry
 * their sizes and CRC-32 in the local header (no data descriptors), UTF-8 names (flag bit
 * 11 when not ASCII), and ZIP64 fields when a size or offset reaches 4 GiB, the entry
 * count reaches 65535, or `forceZip64` is set.
 *
 * @example
 * ```ts
 * const chunks: Uint8Array[] = [];
 * const writer = new ZipWriter({ write: (c) => { chunks.push(c); } }, { compression: "deflate" });
 * await writer.add("zarr.json", new TextEncoder().encode('{"zarr_format":3,"node_type":"group"}'));
 * const { entries, size } = await writer.finish();
 * ```
 */
export class ZipWriter {
  readonly #sink: ZipSink;
  readonly #compression: ZipCompression;
  readonly #level: number;
  readonly #forceZip64: boolean;
  readonly #comment: Uint8Array;
  readonly #time: { time: number; date: number };
  readonly #entries: EntryRecord[] = [];
  readonly #names = new Set<string>();
  #offset = 0;
  #finished = false;
  #busy = false;

  constructor(sink: ZipSink, options: ZipWriterOptions = {}) {
    if (sink === null || typeof sink !== "object" || typeof sink.write !== "function") {
      throw new ZarrError("INVALID_ARGUMENT", "ZipWriter needs a sink with a write(chunk) method");
    }
    this.#sink = sink;
    this.#compression = checkCompression(options.compression ?? "stored");
    this.#level = checkLevel(options.level ?? 6);
    this.#forceZip64 = options.forceZip64 === true;
    this.#comment = encodeComment(options.comment ?? "");
    this.#time = checkModified(options.modified ?? new Date(), "ZipWriter");
  }

  /** Bytes written to the sink so far. */
  get size(): number {
    return this.#offset;
  }

  /** Entries added so far. */
  get entries(): number {
    return this.#entries.length;
  }

  async #emit(chunk: Uint8Array): Promise<void> {
    if (chunk.length === 0) return;
    await this.#sink.write(chunk);
    this.#offset += chunk.length;
  }

  #enter(what: string): void {
    if (this.#finished) throw new ZarrError("INVALID_ARGUMENT", `ZipWriter.${what} after finish()`);
    if (this.#busy) throw new ZarrError("INVALID_ARGUMENT", `ZipWriter.${what} while another call is in progress (await it first)`);
    this.#busy = true;
  }

  /**
   * Adds one entry. `name` is a store key (`a/b/zarr.json`): relative, `/`-separated, no
   * `.`/`..` segments; names must be unique. `data` is not modified and may be reused
   * once the returned promise resolves.
   */
  async add(name: string, data: Uint8Array, options: ZipEntryOptions = {}): Promise<void> {
    validateKey(name);
    if (!(data instanceof Uint8Array)) {
      throw new ZarrError("INVALID_ARGUMENT", `Zip entry "${name}" must be a Uint8Array`);
    }
    const compression = checkCompression(options.compression ?? this.#compression);
    const level = checkLevel(options.level ?? this.#level);
    if (this.#names.has(name)) throw new ZarrError("INVALID_ARGUMENT", `Zip entry "${name}" was already added`);
    this.#enter("add");
    try {
      const encoded = encodeEntry(name, data, compression, level);
      const entry: EntryRecord = {
        name: encoded.name,
        flags: encoded.flags,
        method: encoded.method,
        crc: encoded.crc,
        compressedSize: encoded.payload.length,
        uncompressedSize: data.length,
        offset: this.#offset,
        zip64: this.#forceZip64 || data.length >= MAX_U32 || encoded.payload.length >= MAX_U32,
        ...this.#time,
      };
      await this.#emit(localHeader(entry));
      await this.#emit(encoded.payload);
      this.#names.add(name);
      this.#entries.push(entry);
    } finally {
      this.#busy = false;
    }
  }

  /** Writes the central directory and end records. No `add` after this. */
  async finish(): Promise<ZipSummary> {
    this.#enter("finish");
    try {
      await this.#emit(centralDirectory(this.#entries, this.#offset, this.#comment, this.#forceZip64));
      this.#finished = true;
      return { entries: this.#entries.length, size: this.#offset };
    } finally {
      this.#busy = false;
    }
  }
}
