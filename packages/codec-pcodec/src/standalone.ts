/**
 * pcodec's standalone format, what `numcodecs.pcodec` stores per Zarr chunk: the magic
 * `pco!`, the standalone version, an optional uniform number type and a size hint, the
 * wrapped format version, then chunks (number type, count, metadata, one page) up to a
 * zero byte.
 */
import { ZarrError } from "@zarr/spec";
import { PcoBitReader } from "./bit-reader.js";
import { type FormatVersion, readChunkMeta } from "./chunk-meta.js";
import { corrupt, PcoFormatError } from "./errors.js";
import { type BitsArray, joinLatents, latentsToBits } from "./join.js";
import { type NumberTypeInfo, numberTypeFromByte, type PcoNumberType } from "./number-types.js";
import { readPage } from "./page.js";

/** The four bytes every standalone stream starts with. */
export const PCO_MAGIC = Uint8Array.of(0x70, 0x63, 0x6f, 0x21); // "pco!"
/** The newest standalone version this decoder reads. */
export const MAX_STANDALONE_VERSION = 3;
/** The newest wrapped format major version this decoder reads. */
export const MAX_FORMAT_MAJOR = 4;

/** Numbers of each pcodec type, as {@link pcoDecompress} returns them. */
export interface PcoValuesByType {
  u8: Uint8Array;
  i8: Int8Array;
  u16: Uint16Array;
  i16: Int16Array;
  /** binary16 bit patterns (JavaScript has no 16-bit float array on Node 20). */
  f16: Uint16Array;
  u32: Uint32Array;
  i32: Int32Array;
  f32: Float32Array;
  u64: BigUint64Array;
  i64: BigInt64Array;
  f64: Float64Array;
}

/** What a standalone stream decodes to. */
export interface PcoDecoded {
  /**
   * The number type, or `undefined` for a stream with no chunks that declares no
   * uniform type (pcodec writes such a stream for empty input).
   */
  numberType: PcoNumberType | undefined;
  /** The numbers, in a typed array of the number type (empty `Uint8Array` when untyped and empty). */
  values: PcoValuesByType[PcoNumberType];
  /** The wrapped format version the stream declares. */
  formatVersion: FormatVersion;
  /** The standalone version the stream declares. */
  standaloneVersion: number;
}

/** Options of {@link pcoDecompress}. */
export interface PcoDecompressOptions {
  /** Names the data in error messages (a Zarr chunk key). */
  key?: string;
  /** Refuse streams whose numbers would take more bytes than this (checked before allocating). */
  maxDecodedBytes?: number;
}

interface Header {
  standaloneVersion: number;
  uniformType: NumberTypeInfo | undefined;
  version: FormatVersion;
}

function readHeader(reader: PcoBitReader): Header {
  if (reader.bitLength < 32) corrupt("too short for a pcodec stream");
  for (let i = 0; i < 4; i++) {
    if (reader.readSmall(8) !== PCO_MAGIC[i]) corrupt('not a pcodec standalone stream (no "pco!" magic)');
  }
  let standaloneVersion = reader.readSmall(8);
  let uniformType: NumberTypeInfo | undefined;
  if (standaloneVersion < 2) {
    // Versions 0 and 1 had no standalone version: that byte was the wrapped version.
    reader.bitPos -= 8;
  } else {
    if (standaloneVersion > MAX_STANDALONE_VERSION) corrupt(`standalone version ${standaloneVersion} is newer than this decoder reads (${MAX_STANDALONE_VERSION})`);
    if (standaloneVersion >= 3) {
      const byte = reader.readSmall(8);
      if (byte !== 0) uniformType = numberTypeFromByte(byte) ?? corrupt(`unknown uniform number type byte ${byte}`);
    }
    // The size hint: 6 bits of (bit count − 1), then the count. Only a hint: unused.
    const power = 1 + reader.readSmall(6);
    reader.read64(power);
    reader.alignToByte("the size hint");
  }
  reader.checkInBounds("the standalone header");
  const major = reader.readAlignedByte("the format version");
  const minor = major >= 4 ? reader.readAlignedByte("the format minor version") : 0;
  if (major > MAX_FORMAT_MAJOR) corrupt(`format version ${major}.${minor} is newer than this decoder reads (${MAX_FORMAT_MAJOR}.x)`);
  if (standaloneVersion < 2) standaloneVersion = major < 1 ? 0 : 1;
  return { standaloneVersion, uniformType, version: { major, minor } };
}

const ARRAY_OF: Record<PcoNumberType, (b: BitsArray) => PcoValuesByType[PcoNumberType]> = {
  u8: (b) => b as Uint8Array,
  i8: (b) => new Int8Array(b.buffer, b.byteOffset, b.length),
  u16: (b) => b as Uint16Array,
  i16: (b) => new Int16Array(b.buffer, b.byteOffset, b.length),
  f16: (b) => b as Uint16Array,
  u32: (b) => b as Uint32Array,
  i32: (b) => new Int32Array(b.buffer, b.byteOffset, b.length),
  f32: (b) => new Float32Array(b.buffer, b.byteOffset, b.length),
  u64: (b) => b as BigUint64Array,
  i64: (b) => new BigInt64Array(b.buffer, b.byteOffset, b.length),
  f64: (b) => new Float64Array(b.buffer, b.byteOffset, b.length),
};

function concatBits(parts: BitsArray[], type: NumberTypeInfo, total: number): BitsArray {
  if (parts.length === 1) return parts[0];
  const out = type.bits === 64 ? new BigUint64Array(total) : type.bits === 32 ? new Uint32Array(total) : type.bits === 16 ? new Uint16Array(total) : new Uint8Array(total);
  let at = 0;
  for (const p of parts) {
    (out as Uint8Array).set(p as Uint8Array, at);
    at += p.length;
  }
  return out;
}

function decompress(bytes: Uint8Array, maxDecodedBytes: number): PcoDecoded {
  const reader = new PcoBitReader(bytes);
  const header = readHeader(reader);
  let type = header.uniformType;
  const parts: BitsArray[] = [];
  let total = 0;
  for (;;) {
    const byte = reader.readAlignedByte("a chunk's number type");
    if (byte === 0) break;
    const chunkType = numberTypeFromByte(byte) ?? corrupt(`unknown number type byte ${byte}`);
    if (type && chunkType !== type) corrupt(`a chunk of ${chunkType.name} numbers among ${type.name} numbers`);
    type = chunkType;
    const n = reader.read(24) + 1;
    reader.checkInBounds("a chunk's count");
    total += n;
    if (total * (type.bits / 8) > maxDecodedBytes) corrupt(`decodes to at least ${total * (type.bits / 8)} bytes, more than the ${maxDecodedBytes} allowed`);
    const meta = readChunkMeta(reader, header.version, type);
    const page = readPage(reader, meta, n);
    parts.push(latentsToBits(joinLatents(meta.mode, page.primary, page.secondary, type), type));
  }
  if (reader.bitPos < reader.bitLength) corrupt(`${(reader.bitLength - reader.bitPos) / 8} bytes after the end of the stream`);
  const base = { formatVersion: header.version, standaloneVersion: header.standaloneVersion };
  if (!type) return { ...base, numberType: undefined, values: new Uint8Array(0) };
  const bits = parts.length === 0 ? (type.bits === 64 ? new BigUint64Array(0) : new Uint8Array(0)) : concatBits(parts, type, total);
  const values = parts.length === 0 ? emptyOf(type) : ARRAY_OF[type.name](bits);
  return { ...base, numberType: type.name, values };
}

function emptyOf(type: NumberTypeInfo): PcoValuesByType[PcoNumberType] {
  const bits = type.bits === 64 ? new BigUint64Array(0) : type.bits === 32 ? new Uint32Array(0) : type.bits === 16 ? new Uint16Array(0) : new Uint8Array(0);
  return ARRAY_OF[type.name](bits);
}

/**
 * Decodes a pcodec standalone stream (any version pcodec 0.0 to 1.0 wrote): every
 * chunk, every mode (classic, int mult, float mult, float quant, dict) and delta
 * encoding (consecutive, lookback, conv1), all eleven number types. Corrupt or
 * truncated input throws a `CODEC_FAILED` `ZarrError` naming `options.key`.
 *
 * @example
 * ```ts
 * const { numberType, values } = pcoDecompress(bytes, { key: "c/0" });
 * ```
 */
export function pcoDecompress(bytes: Uint8Array, options: PcoDecompressOptions = {}): PcoDecoded {
  const where = options.key === undefined ? "pcodec" : `pcodec: chunk "${options.key}"`;
  try {
    return decompress(bytes, options.maxDecodedBytes ?? Number.POSITIVE_INFINITY);
  } catch (error) {
    if (error instanceof ZarrError) throw error;
    const detail = error instanceof PcoFormatError ? error.message : `${error instanceof Error ? error.message : String(error)} (corrupt data)`;
    throw new ZarrError("CODEC_FAILED", `${where}: ${detail}`, { key: options.key, cause: error });
  }
}
