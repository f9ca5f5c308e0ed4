/**
 * Record layouts of the zip format (PKWARE APPNOTE 6.3): signatures, fixed sizes,
 * field limits, and little-endian field access. Offsets in the comments are relative to
 * the start of each record.
 */

/** Local file header: signature, versions, flags, method, time, crc, sizes, name/extra lengths. */
export const LOCAL_HEADER_SIGNATURE = 0x04034b50;
export const LOCAL_HEADER_SIZE = 30;
/** Central directory file header (46 bytes + name + extra + comment). */
export const CENTRAL_HEADER_SIGNATURE = 0x02014b50;
export const CENTRAL_HEADER_SIZE = 46;
/** End of central directory record (22 bytes + comment of up to 65535 bytes). */
export const EOCD_SIGNATURE = 0x06054b50;
export const EOCD_SIZE = 22;
export const MAX_COMMENT_LENGTH = 0xffff;
/** ZIP64 end of central directory record (56 bytes + extensible data). */
export const ZIP64_EOCD_SIGNATURE = 0x06064b50;
export const ZIP64_EOCD_SIZE = 56;
/** ZIP64 end of central directory locator (20 bytes, right before the EOCD record). */
export const ZIP64_LOCATOR_SIGNATURE = 0x07064b50;
export const ZIP64_LOCATOR_SIZE = 20;
/** Optional signature of a data descriptor. */
export const DATA_DESCRIPTOR_SIGNATURE = 0x08074b50;

/** Extra field ids. */
export const ZIP64_EXTRA_ID = 0x0001;
export const UNICODE_PATH_EXTRA_ID = 0x7075;

/** General purpose flag bits. */
export const FLAG_ENCRYPTED = 0x0001;
export const FLAG_DATA_DESCRIPTOR = 0x0008;
export const FLAG_STRONG_ENCRYPTION = 0x0040;
export const FLAG_UTF8 = 0x0800;

/** Compression methods this package reads and writes. */
export const METHOD_STORED = 0;
export const METHOD_DEFLATED = 8;

/** Field values that mean "see the ZIP64 record / extra field". */
export const MAX_U16 = 0xffff;
export const MAX_U32 = 0xffffffff;

/** Names of compression methods that exist but are not supported, for error messages. */
const METHOD_NAMES: Record<number, string> = {
  0: "stored",
  1: "shrunk",
  6: "imploded",
  8: "deflate",
  9: "deflate64",
  12: "bzip2",
  14: "LZMA",
  93: "zstd",
  95: "xz",
  98: "PPMd",
  99: "AES-encrypted (WinZip AE-x)",
};

/** `method 12 (bzip2)` for error messages. */
export function describeMethod(method: number): string {
  const name = METHOD_NAMES[method];
  return name === undefined ? `method ${method}` : `method ${method} (${name})`;
}

/** Little-endian field access on a byte array (no DataView allocation per call). */
export function u16(b: Uint8Array, at: number): number {
  return b[at] | (b[at + 1] << 8);
}

export function u32(b: Uint8Array, at: number): number {
  return (b[at] | (b[at + 1] << 8) | (b[at + 2] << 16) | (b[at + 3] << 24)) >>> 0;
}

/**
 * An unsigned 64-bit field as a number, or `undefined` when it exceeds 2^53 - 1 (no real
 * archive is that large, so the caller reports corruption).
 */
export function u64(b: Uint8Array, at: number): number | undefined {
  const lo = u32(b, at);
  const hi = u32(b, at + 4);
  if (hi > 0x1fffff) return undefined;
  return hi * 0x100000000 + lo;
}

export function setU16(b: Uint8Array, at: number, v: number): void {
  b[at] = v & 0xff;
  b[at + 1] = (v >>> 8) & 0xff;
}

export function setU32(b: Uint8Array, at: number, v: number): void {
  b[at] = v & 0xff;
  b[at + 1] = (v >>> 8) & 0xff;
  b[at + 2] = (v >>> 16) & 0xff;
  b[at + 3] = (v >>> 24) & 0xff;
}

/** Writes a safe integer as an unsigned 64-bit little-endian field. */
export function setU64(b: Uint8Array, at: number, v: number): void {
  setU32(b, at, v % 0x100000000);
  setU32(b, at + 4, Math.floor(v / 0x100000000));
}
