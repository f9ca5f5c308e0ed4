/**
 * CRC-32C (Castagnoli: reflected polynomial 0x82F63B78, initial value and final XOR
 * 0xFFFFFFFF), the checksum of the `crc32c` codec, iSCSI, ext4 and Snappy framing.
 * Slicing-by-8 through the shared CRC-32 engine of @zarr/spec, with Castagnoli tables.
 */
import { crc32Tables, crc32WithTables } from "@zarr/spec";

let tables: Int32Array | undefined;

/**
 * The CRC-32C of `bytes` as an unsigned 32-bit integer. `initial` is the CRC of preceding
 * data, so `crc32c(b, crc32c(a))` equals `crc32c(a + b)`.
 *
 * @example
 * ```ts
 * crc32c(new TextEncoder().encode("123456789")).toString(16) // "e3069283"
 * ```
 */
export function crc32c(bytes: Uint8Array, initial = 0): number {
  tables ??= crc32Tables(0x82f63b78);
  return crc32WithTables(tables, bytes, initial);
}
