/** Checking and stripping a chunk's CRC-32C: shared by the codec and its worker entry point. */
import { ZarrError } from "@zarr/spec";
import { crc32c } from "./crc32c.js";

/** Bytes of the checksum. */
export const CHECKSUM_SIZE = 4;

/** Where the checksum goes: after the data (Zarr v3 `crc32c`) or before it. */
export type ChecksumLocation = "start" | "end";

const hex = (value: number) => `0x${value.toString(16).padStart(8, "0")}`;

/**
 * The data of `bytes` without its checksum, as a view (no copy), after checking the
 * checksum: `CHECKSUM_MISMATCH` naming the chunk `key` when it differs, `CODEC_FAILED`
 * when there are not even 4 bytes.
 */
export function verifiedPayload(bytes: Uint8Array, location: ChecksumLocation, key: string): Uint8Array {
  const n = bytes.length;
  if (n < CHECKSUM_SIZE) {
    throw new ZarrError("CODEC_FAILED", `crc32c: cannot decode chunk "${key}": ${n} bytes are too short to hold a 4-byte checksum`, {
      key,
    });
  }
  const end = location === "end";
  const payload = end ? bytes.subarray(0, n - CHECKSUM_SIZE) : bytes.subarray(CHECKSUM_SIZE);
  const at = end ? n - CHECKSUM_SIZE : 0;
  const stored = (bytes[at] | (bytes[at + 1] << 8) | (bytes[at + 2] << 16) | (bytes[at + 3] << 24)) >>> 0;
  const computed = crc32c(payload);
  if (stored !== computed) {
    throw new ZarrError(
      "CHECKSUM_MISMATCH",
      `crc32c: checksum mismatch in chunk "${key}": stored ${hex(stored)}, computed ${hex(computed)} over ${payload.length} bytes`,
      { key },
    );
  }
  return payload;
}
