/**
 * @zarr/store-zip: Zarr stores inside zip archives held in any store (read with byte
 * ranges), and a zip writer. Depends on @zarr/spec and fflate (deflate).
 */
export { ZipStore, type ZipStoreOptions, type ZipArchiveInfo } from "./zip-store.js";
export type { SkippedEntry } from "./zip-directory.js";
export {
  ZipWriter,
  type ZipSink,
  type ZipWriterOptions,
  type ZipEntryOptions,
  type ZipCompression,
  type ZipSummary,
} from "./zip-writer.js";
export { writeZip, type WriteZipOptions, type ZipProgress } from "./write-zip.js";
export { zipStoreEntry, splitZipLocation, type ZipLocation } from "./entry.js";
export { crc32 } from "./crc32.js";
