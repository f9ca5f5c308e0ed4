/**
 * @zarr/codec-crc32c: the `crc32c` checksum codec (Zarr v3 core; numcodecs `CRC32C`) and
 * a fast table-driven CRC-32C function.
 */
export { type ChecksumLocation, type Crc32cConfiguration, crc32cCodec } from "./codec.js";
export { crc32c } from "./crc32c.js";
