/** CRC32 from node:zlib, the reference for our table-driven CRC32. */
import { crc32 as zlibCrc32 } from "node:zlib";

/** zlib's CRC32 of `data`. */
export function zlibSync(data: Uint8Array): number {
  return zlibCrc32(data) >>> 0;
}
