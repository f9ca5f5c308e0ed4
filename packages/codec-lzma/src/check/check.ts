/** The .xz integrity checks: ids, sizes and computation. */
import { crc32 } from "./crc32.js";
import { crc64 } from "./crc64.js";
import { sha256 } from "./sha256.js";

// Check ids as stored in .xz stream flags (and as numcodecs/Python's `lzma.CHECK_*`).
/** No integrity check (`lzma.CHECK_NONE`). */
export const CHECK_NONE = 0;
/** CRC32 of the uncompressed block (`lzma.CHECK_CRC32`). */
export const CHECK_CRC32 = 1;
/** CRC64 of the uncompressed block, the .xz default (`lzma.CHECK_CRC64`). */
export const CHECK_CRC64 = 4;
/** SHA-256 of the uncompressed block (`lzma.CHECK_SHA256`). */
export const CHECK_SHA256 = 10;

/** Size in bytes of the check field for any check id 0..15 (reserved ids have defined sizes). */
export function checkSize(checkId: number): number {
  if (checkId === 0) return 0;
  // 1-3: 4 bytes, 4-6: 8, 7-9: 16, 10-12: 32, 13-15: 64.
  return 4 << Math.floor((checkId - 1) / 3);
}

/** True for the check ids this package can compute. */
export function isSupportedCheck(checkId: number): boolean {
  return checkId === CHECK_NONE || checkId === CHECK_CRC32 || checkId === CHECK_CRC64 || checkId === CHECK_SHA256;
}

/** Human-readable name of a check id, for error messages. */
export function checkName(checkId: number): string {
  switch (checkId) {
    case CHECK_CRC32:
      return "CRC32";
    case CHECK_CRC64:
      return "CRC64";
    case CHECK_SHA256:
      return "SHA-256";
    default:
      return `check ${checkId}`;
  }
}

/** Computes a supported check of `data[start, end)` as the bytes stored in the .xz check field. */
export function computeCheck(checkId: number, data: Uint8Array, start: number, end: number): Uint8Array {
  switch (checkId) {
    case CHECK_NONE:
      return new Uint8Array(0);
    case CHECK_CRC32: {
      const c = crc32(data, start, end);
      return new Uint8Array([c & 0xff, (c >>> 8) & 0xff, (c >>> 16) & 0xff, c >>> 24]);
    }
    case CHECK_CRC64:
      return crc64(data, start, end);
    case CHECK_SHA256:
      return sha256(data, start, end);
    default:
      throw new Error(`unsupported check id ${checkId}`);
  }
}
