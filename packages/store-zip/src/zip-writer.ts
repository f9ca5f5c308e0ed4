/**
 * `ZipWriter`: writes a zip archive entry by entry to a sink (an array of chunks, a file,
 * a stream), holding only the entry being added and the central directory records.
 */
import { validateKey, ZarrError } from "@zarr/spec";
import { deflateSync } from "fflate";
import { crc32 } from "./crc32.js";
import {
  CENTRAL_HEADER_SIGNATURE,
  CENTRAL_HEADER_SIZE,
  EOCD_SIGNATURE,
  EOCD_SIZE,
  FLAG_UTF8,
  LOCAL_HEADER_SIGNATURE,
  LOCAL_HEADER_SIZE,
  MAX_COMMENT_LENGTH,
  MAX_U16,
  MAX_U32,
  METHOD_DEFLATED,
  METHOD_STORED,
  setU16,
  setU32,
  setU64,
  ZIP64_EOCD_SIGNATURE,
  ZIP64_EOCD_SIZE,
  ZIP64_EXTRA_ID,
  ZIP64_LOCATOR_SIGNATURE,
  ZIP64_LOCATOR_SIZE,
} from "./zip-format.js";

/** Where a {@link ZipWriter} puts the archive's bytes, in order. */
export interface ZipSink {
  /** Takes the next chunk. The writer does not touch a chunk after passing it on. */
  write(chunk: Uint8Array): void | Promise<void>;
}

/** How entries are compressed. */
export type ZipCompression = "stored" | "deflate";

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

interface WrittenEntry {
  name: Uint8Array;
  flags: number;
  method: number;
  crc: number;
  compressedSize: number;
  uncompressedSize: number;
  offset: number;
  zip64: boolean;
}

const VERSION_MADE_BY = (3 << 8) | 45; // Unix, spec 4.5
const UNIX_FILE_MODE = 0o100644 << 16;
const encoder = new TextEncoder();

function checkLevel(level: number): number {
  if (!Number.isInteger(level) || level < 0 || level > 9) {
    throw new ZarrError("INVALID_ARGUMENT", `Deflate level must be an integer 0-9, got ${String(level)}`);
  }
  return level;
}

function checkCompression(c: unknown): ZipCompression {
  if (c !== "stored" && c !== "deflate") {
    throw new ZarrError("INVALID_ARGUMENT", `Zip compression must be "stored" or "deflate", got ${JSON.stringify(c)}`);
  }
  return c;
}

/** MS-DOS time and date fields (local time, 2-second resolution, years 1980-2107). */
function dosDateTime(d: Date): { time: number; date: number } {
  const year = Math.min(2107, Math.max(1980, d.getFullYear()));
  if (year !== d.getFullYear()) return { time: 0, date: (year === 1980 ? 0 : 127 << 9) | (1 << 5) | 1 };
  return {
    time: (d.getHours() << 11) | (d.getMinutes() << 5) | (d.getSeconds() >> 1),
    date: ((year - 1980) << 9) | ((d.getMonth() + 1) << 5) | d.getDate(),
  };
}

function isAscii(s: string): boolean {
  for (let i = 0; i < s.length; i++) if (s.charCodeAt(i) > 0x7f) return false;
  return true;
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
  readonly #entries: WrittenEntry[] = [];
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
    this.#comment = encoder.encode(options.comment ?? "");
    if (this.#comment.length > MAX_COMMENT_LENGTH) {
      throw new ZarrError("INVALID_ARGUMENT", `Zip comment is ${this.#comment.length} bytes; the limit is 65535`);
    }
    const modified = options.modified ?? new Date();
    if (!(modified instanceof Date) || Number.isNaN(modified.getTime())) {
      throw new ZarrError("INVALID_ARGUMENT", "ZipWriter option modified must be a valid Date");
    }
    this.#time = dosDateTime(modified);
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
    const nameBytes = encoder.encode(name);
    if (nameBytes.length > MAX_U16) throw new ZarrError("INVALID_ARGUMENT", `Zip entry name is too long: ${name.slice(0, 40)}…`);
    if (this.#names.has(name)) throw new ZarrError("INVALID_ARGUMENT", `Zip entry "${name}" was already added`);
    this.#enter("add");
    try {
      const crc = crc32(data);
      let method = METHOD_STORED;
      let payload = data;
      if (compression === "deflate" && data.length > 0) {
        const deflated = deflateSync(data, { level: level as 0 | 1 | 2 | 3 | 4 | 5 | 6 | 7 | 8 | 9 });
        if (deflated.length < data.length) {
          method = METHOD_DEFLATED;
          payload = deflated;
        }
      }
      const entry: WrittenEntry = {
        name: nameBytes,
        flags: isAscii(name) ? 0 : FLAG_UTF8,
        method,
        crc,
        compressedSize: payload.length,
        uncompressedSize: data.length,
        offset: this.#offset,
        zip64: this.#forceZip64 || data.length >= MAX_U32 || payload.length >= MAX_U32,
      };
      await this.#emit(this.#localHeader(entry));
      await this.#emit(payload);
      this.#names.add(name);
      this.#entries.push(entry);
    } finally {
      this.#busy = false;
    }
  }

  #localHeader(e: WrittenEntry): Uint8Array {
    const extraLength = e.zip64 ? 20 : 0;
    const h = new Uint8Array(LOCAL_HEADER_SIZE + e.name.length + extraLength);
    setU32(h, 0, LOCAL_HEADER_SIGNATURE);
    setU16(h, 4, e.zip64 ? 45 : e.method === METHOD_DEFLATED ? 20 : 10);
    setU16(h, 6, e.flags);
    setU16(h, 8, e.method);
    setU16(h, 10, this.#time.time);
    setU16(h, 12, this.#time.date);
    setU32(h, 14, e.crc);
    setU32(h, 18, e.zip64 ? MAX_U32 : e.compressedSize);
    setU32(h, 22, e.zip64 ? MAX_U32 : e.uncompressedSize);
    setU16(h, 26, e.name.length);
    setU16(h, 28, extraLength);
    h.set(e.name, LOCAL_HEADER_SIZE);
    if (e.zip64) {
      // In a local header the ZIP64 field must hold both sizes.
      const at = LOCAL_HEADER_SIZE + e.name.length;
      setU16(h, at, ZIP64_EXTRA_ID);
      setU16(h, at + 2, 16);
      setU64(h, at + 4, e.uncompressedSize);
      setU64(h, at + 12, e.compressedSize);
    }
    return h;
  }

  /** Size of an entry's central header; fills it in when `out` is given. */
  #centralHeader(e: WrittenEntry, out?: Uint8Array, at = 0): number {
    const force = this.#forceZip64;
    const bigU = force || e.uncompressedSize >= MAX_U32;
    const bigC = force || e.compressedSize >= MAX_U32;
    const bigO = force || e.offset >= MAX_U32;
    const fields = (bigU ? 1 : 0) + (bigC ? 1 : 0) + (bigO ? 1 : 0);
    const extraLength = fields > 0 ? 4 + 8 * fields : 0;
    const size = CENTRAL_HEADER_SIZE + e.name.length + extraLength;
    if (out === undefined) return size;
    setU32(out, at, CENTRAL_HEADER_SIGNATURE);
    setU16(out, at + 4, VERSION_MADE_BY);
    setU16(out, at + 6, e.zip64 || fields > 0 ? 45 : e.method === METHOD_DEFLATED ? 20 : 10);
    setU16(out, at + 8, e.flags);
    setU16(out, at + 10, e.method);
    setU16(out, at + 12, this.#time.time);
    setU16(out, at + 14, this.#time.date);
    setU32(out, at + 16, e.crc);
    setU32(out, at + 20, bigC ? MAX_U32 : e.compressedSize);
    setU32(out, at + 24, bigU ? MAX_U32 : e.uncompressedSize);
    setU16(out, at + 28, e.name.length);
    setU16(out, at + 30, extraLength);
    setU16(out, at + 32, 0); // comment length
    setU16(out, at + 34, 0); // disk number start
    setU16(out, at + 36, 0); // internal attributes
    setU32(out, at + 38, UNIX_FILE_MODE);
    setU32(out, at + 42, bigO ? MAX_U32 : e.offset);
    out.set(e.name, at + CENTRAL_HEADER_SIZE);
    if (fields > 0) {
      // Only the saturated fields, always in this order.
      let p = at + CENTRAL_HEADER_SIZE + e.name.length;
      setU16(out, p, ZIP64_EXTRA_ID);
      setU16(out, p + 2, 8 * fields);
      p += 4;
      if (bigU) {
        setU64(out, p, e.uncompressedSize);
        p += 8;
      }
      if (bigC) {
        setU64(out, p, e.compressedSize);
        p += 8;
      }
      if (bigO) setU64(out, p, e.offset);
    }
    return size;
  }

  /** Writes the central directory and end records. No `add` after this. */
  async finish(): Promise<ZipSummary> {
    this.#enter("finish");
    try {
      const cdOffset = this.#offset;
      let cdSize = 0;
      for (const e of this.#entries) cdSize += this.#centralHeader(e);
      const count = this.#entries.length;
      const zip64 = this.#forceZip64 || count >= MAX_U16 || cdSize >= MAX_U32 || cdOffset >= MAX_U32;
      const tailSize = (zip64 ? ZIP64_EOCD_SIZE + ZIP64_LOCATOR_SIZE : 0) + EOCD_SIZE + this.#comment.length;
      const out = new Uint8Array(cdSize + tailSize);
      let at = 0;
      for (const e of this.#entries) at += this.#centralHeader(e, out, at);
      if (zip64) {
        const record = cdOffset + cdSize;
        setU32(out, at, ZIP64_EOCD_SIGNATURE);
        setU64(out, at + 4, ZIP64_EOCD_SIZE - 12);
        setU16(out, at + 12, VERSION_MADE_BY);
        setU16(out, at + 14, 45);
        setU32(out, at + 16, 0);
        setU32(out, at + 20, 0);
        setU64(out, at + 24, count);
        setU64(out, at + 32, count);
        setU64(out, at + 40, cdSize);
        setU64(out, at + 48, cdOffset);
        at += ZIP64_EOCD_SIZE;
        setU32(out, at, ZIP64_LOCATOR_SIGNATURE);
        setU32(out, at + 4, 0);
        setU64(out, at + 8, record);
        setU32(out, at + 16, 1);
        at += ZIP64_LOCATOR_SIZE;
      }
      const force = this.#forceZip64;
      setU32(out, at, EOCD_SIGNATURE);
      setU16(out, at + 4, 0);
      setU16(out, at + 6, 0);
      setU16(out, at + 8, force ? MAX_U16 : Math.min(count, MAX_U16));
      setU16(out, at + 10, force ? MAX_U16 : Math.min(count, MAX_U16));
      setU32(out, at + 12, force ? MAX_U32 : Math.min(cdSize, MAX_U32));
      setU32(out, at + 16, force ? MAX_U32 : Math.min(cdOffset, MAX_U32));
      setU16(out, at + 20, this.#comment.length);
      out.set(this.#comment, at + EOCD_SIZE);
      await this.#emit(out);
      this.#finished = true;
      return { entries: count, size: this.#offset };
    } finally {
      this.#busy = false;
    }
  }
}
