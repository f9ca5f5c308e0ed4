/**
 * Encoding the records a zip writer emits: local file headers, central directory
 * headers, and the end records (ZIP64 end record and locator when needed, then the
 * classic end record). Shared by `ZipWriter` (one pass to a sink) and the writable
 * `ZipStore` (appends to an archive it can also read and rewrite).
 */
import { ZarrError } from "@zarr/spec";
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

/** How entries are compressed. */
export type ZipCompression = "stored" | "deflate";

/** One entry as written: everything its local and central headers say. */
export interface EntryRecord {
  /** The name as stored (UTF-8). */
  name: Uint8Array;
  flags: number;
  method: number;
  crc: number;
  compressedSize: number;
  uncompressedSize: number;
  /** Offset of the local header in the archive. */
  offset: number;
  /** Whether the local header carries a ZIP64 extra field (sizes of 4 GiB or more, or forced). */
  zip64: boolean;
  /** MS-DOS time and date fields. */
  time: number;
  date: number;
}

/** An entry's compressed payload and what its headers must say about it. */
export interface EncodedEntry {
  name: Uint8Array;
  flags: number;
  method: number;
  crc: number;
  uncompressedSize: number;
  payload: Uint8Array;
}

const VERSION_MADE_BY = (3 << 8) | 45; // Unix, spec 4.5
const UNIX_FILE_MODE = 0o100644 << 16;
const encoder = new TextEncoder();

/** Checks a deflate level (an integer 0-9). */
export function checkLevel(level: number): number {
  if (!Number.isInteger(level) || level < 0 || level > 9) {
    throw new ZarrError("INVALID_ARGUMENT", `Deflate level must be an integer 0-9, got ${String(level)}`);
  }
  return level;
}

/** Checks a compression name (`"stored"` or `"deflate"`). */
export function checkCompression(c: unknown): ZipCompression {
  if (c !== "stored" && c !== "deflate") {
    throw new ZarrError("INVALID_ARGUMENT", `Zip compression must be "stored" or "deflate", got ${JSON.stringify(c)}`);
  }
  return c;
}

/** Encodes an archive comment, refusing one longer than the end record can hold. */
export function encodeComment(comment: string): Uint8Array {
  const bytes = encoder.encode(comment);
  if (bytes.length > MAX_COMMENT_LENGTH) {
    throw new ZarrError("INVALID_ARGUMENT", `Zip comment is ${bytes.length} bytes; the limit is 65535`);
  }
  return bytes;
}

/** Checks a modification time and converts it to MS-DOS fields. */
export function checkModified(modified: unknown, what: string): { time: number; date: number } {
  if (!(modified instanceof Date) || Number.isNaN(modified.getTime())) {
    throw new ZarrError("INVALID_ARGUMENT", `${what} option modified must be a valid Date`);
  }
  return dosDateTime(modified);
}

/** MS-DOS time and date fields (local time, 2-second resolution, years 1980-2107). */
export function dosDateTime(d: Date): { time: number; date: number } {
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
 * Encodes an entry's name and compresses its data: with `"deflate"`, an entry that
 * deflate does not shrink is stored (already-compressed chunks are). The name must be a
 * valid store key (the caller checks).
 */
export function encodeEntry(name: string, data: Uint8Array, compression: ZipCompression, level: number): EncodedEntry {
  const nameBytes = encoder.encode(name);
  if (nameBytes.length > MAX_U16) throw new ZarrError("INVALID_ARGUMENT", `Zip entry name is too long: ${name.slice(0, 40)}…`);
  let method = METHOD_STORED;
  let payload = data;
  if (compression === "deflate" && data.length > 0) {
    const deflated = deflateSync(data, { level: level as 0 | 1 | 2 | 3 | 4 | 5 | 6 | 7 | 8 | 9 });
    if (deflated.length < data.length) {
      method = METHOD_DEFLATED;
      payload = deflated;
    }
  }
  return { name: nameBytes, flags: isAscii(name) ? 0 : FLAG_UTF8, method, crc: crc32(data), uncompressedSize: data.length, payload };
}

/** The local file header of an entry (sizes and CRC in the header: no data descriptor). */
export function localHeader(e: EntryRecord): Uint8Array {
  const extraLength = e.zip64 ? 20 : 0;
  const h = new Uint8Array(LOCAL_HEADER_SIZE + e.name.length + extraLength);
  setU32(h, 0, LOCAL_HEADER_SIGNATURE);
  setU16(h, 4, e.zip64 ? 45 : e.method === METHOD_DEFLATED ? 20 : 10);
  setU16(h, 6, e.flags);
  setU16(h, 8, e.method);
  setU16(h, 10, e.time);
  setU16(h, 12, e.date);
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
export function centralHeader(e: EntryRecord, forceZip64: boolean, out?: Uint8Array, at = 0): number {
  const bigU = forceZip64 || e.uncompressedSize >= MAX_U32;
  const bigC = forceZip64 || e.compressedSize >= MAX_U32;
  const bigO = forceZip64 || e.offset >= MAX_U32;
  const fields = (bigU ? 1 : 0) + (bigC ? 1 : 0) + (bigO ? 1 : 0);
  const extraLength = fields > 0 ? 4 + 8 * fields : 0;
  const size = CENTRAL_HEADER_SIZE + e.name.length + extraLength;
  if (out === undefined) return size;
  setU32(out, at, CENTRAL_HEADER_SIGNATURE);
  setU16(out, at + 4, VERSION_MADE_BY);
  setU16(out, at + 6, e.zip64 || fields > 0 ? 45 : e.method === METHOD_DEFLATED ? 20 : 10);
  setU16(out, at + 8, e.flags);
  setU16(out, at + 10, e.method);
  setU16(out, at + 12, e.time);
  setU16(out, at + 14, e.date);
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

/**
 * The central directory starting at `cdOffset` and the end records after it, as one
 * array. Each item is an entry to encode, or a central header kept verbatim from an
 * archive being appended to. ZIP64 end records are written when forced, or when the
 * count, the directory's size or its offset exceed the classic fields.
 */
export function centralDirectory(
  items: readonly (EntryRecord | Uint8Array)[],
  cdOffset: number,
  comment: Uint8Array,
  forceZip64: boolean,
): Uint8Array {
  let cdSize = 0;
  for (const item of items) cdSize += item instanceof Uint8Array ? item.length : centralHeader(item, forceZip64);
  const count = items.length;
  const zip64 = forceZip64 || count >= MAX_U16 || cdSize >= MAX_U32 || cdOffset >= MAX_U32;
  const tailSize = (zip64 ? ZIP64_EOCD_SIZE + ZIP64_LOCATOR_SIZE : 0) + EOCD_SIZE + comment.length;
  const out = new Uint8Array(cdSize + tailSize);
  let at = 0;
  for (const item of items) {
    if (item instanceof Uint8Array) {
      out.set(item, at);
      at += item.length;
    } else {
      at += centralHeader(item, forceZip64, out, at);
    }
  }
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
  setU32(out, at, EOCD_SIGNATURE);
  setU16(out, at + 4, 0);
  setU16(out, at + 6, 0);
  setU16(out, at + 8, forceZip64 ? MAX_U16 : Math.min(count, MAX_U16));
  setU16(out, at + 10, forceZip64 ? MAX_U16 : Math.min(count, MAX_U16));
  setU32(out, at + 12, forceZip64 ? MAX_U32 : Math.min(cdSize, MAX_U32));
  setU32(out, at + 16, forceZip64 ? MAX_U32 : Math.min(cdOffset, MAX_U32));
  setU16(out, at + 20, comment.length);
  out.set(comment, at + EOCD_SIZE);
  return out;
}
