/** Turning an entry's compressed bytes into its contents: stored or deflate, CRC-checked. */
import { inflateSync } from "fflate";
import { crc32 } from "./crc32.js";
import { corrupt, zipError } from "./errors.js";
import type { ZipEntry } from "./zip-directory.js";
import { describeMethod, FLAG_ENCRYPTED, FLAG_STRONG_ENCRYPTION, METHOD_DEFLATED, METHOD_STORED } from "./zip-format.js";

/**
 * Deflate cannot expand data by more than about 1032:1; a central directory claiming
 * more is corrupt, and trusting it would allocate whatever it says.
 */
const MAX_DEFLATE_RATIO = 1032;

/** What decoding an entry needs to know of it (a directory entry, or one a writer just added). */
export type DecodableEntry = Pick<ZipEntry, "method" | "flags" | "crc32" | "compressedSize" | "uncompressedSize">;

/** Throws `UNSUPPORTED` for encrypted entries and compression methods other than stored and deflate. */
export function checkReadable(archive: string, key: string, entry: DecodableEntry): void {
  if (entry.flags & (FLAG_ENCRYPTED | FLAG_STRONG_ENCRYPTION) || entry.method === 99) {
    throw zipError("UNSUPPORTED", archive, "encrypted entries are not supported", key);
  }
  if (entry.method !== METHOD_STORED && entry.method !== METHOD_DEFLATED) {
    throw zipError(
      "UNSUPPORTED",
      archive,
      `compression ${describeMethod(entry.method)} is not supported (only stored and deflate)`,
      key,
    );
  }
  // Byte ranges of a stored entry are read straight from the archive: a size mismatch
  // would let them run into the next entry.
  if (entry.method === METHOD_STORED && entry.compressedSize !== entry.uncompressedSize) {
    throw corrupt(
      archive,
      `stored entry has ${entry.compressedSize} bytes of data but claims ${entry.uncompressedSize}`,
      key,
    );
  }
}

/**
 * Decompresses (deflate) or passes through (stored) the entry's bytes and verifies the
 * CRC-32. Stored bytes are returned as given (a view); inflated bytes are a new array.
 */
export function decodeEntryData(archive: string, key: string, entry: DecodableEntry, data: Uint8Array): Uint8Array {
  const size = entry.uncompressedSize;
  let out: Uint8Array;
  if (entry.method === METHOD_STORED) {
    if (data.length !== size) {
      throw corrupt(archive, `stored entry has ${data.length} bytes of data but should have ${size}`, key);
    }
    out = data;
  } else {
    if (size > data.length * MAX_DEFLATE_RATIO + 1024) {
      throw corrupt(archive, `${data.length} compressed bytes cannot inflate to the claimed ${size} bytes`, key);
    }
    try {
      // fflate stops at the end of `out`: a stream that would produce more fails the CRC check below.
      out = inflateSync(data, { out: new Uint8Array(size) });
    } catch (error) {
      throw zipError(
        "CODEC_FAILED",
        archive,
        `corrupt deflate data: ${error instanceof Error ? error.message : String(error)}`,
        key,
        error,
      );
    }
    if (out.length !== size) {
      throw corrupt(archive, `inflated to ${out.length} bytes but the directory says ${size}`, key);
    }
  }
  const actual = crc32(out);
  if (actual !== entry.crc32) {
    throw zipError(
      "CHECKSUM_MISMATCH",
      archive,
      `CRC-32 mismatch: stored ${hex(entry.crc32)}, computed ${hex(actual)}`,
      key,
    );
  }
  return out;
}

function hex(n: number): string {
  return `0x${n.toString(16).padStart(8, "0")}`;
}
