/** CRC32 (IEEE 802.3) as used by .xz headers and the CRC32 check: the shared implementation from @zarr/spec. */
import { crc32 as crc32Of } from "@zarr/spec";

/** CRC32 of `data[start, end)`, continuing from `crc` (0 for a fresh checksum). */
export function crc32(data: Uint8Array, start = 0, end = data.length, crc = 0): number {
  return crc32Of(start === 0 && end === data.length ? data : data.subarray(start, end), crc);
}
