/** CRC-32 (zlib's, polynomial 0xEDB88320): the shared implementation from @zarr/spec. */
export { crc32 } from "@zarr/spec";
