/**
 * @zarr/store-zip: Zarr stores inside zip archives held in any store (read with byte
 * ranges), zip archives opened for writing (`openZipForWriting`), and a zip writer.
 * Depends on @zarr/spec and fflate (deflate).
 */

export { crc32 } from "./crc32.js";
export { splitZipLocation, type ZipLocation, zipStoreEntry } from "./entry.js";
export {
  openZipForWriting,
  type WritableZipOptions,
  WritableZipStore,
  type ZipFlushSummary,
  type ZipWriteMode,
} from "./writable-zip-store.js";
export { type WriteZipOptions, writeZip, type ZipProgress } from "./write-zip.js";
export type { SkippedEntry } from "./zip-directory.js";
export { type ZipArchiveInfo, ZipStore, type ZipStoreOptions } from "./zip-store.js";
export {
  type ZipCompression,
  type ZipEntryOptions,
  type ZipSink,
  type ZipSummary,
  ZipWriter,
  type ZipWriterOptions,
} from "./zip-writer.js";
