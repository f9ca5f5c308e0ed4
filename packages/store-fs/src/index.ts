/**
 * @zarr/store-fs: a local directory as a Zarr store, with atomic writes, byte-range
 * reads and listings. Depends only on @zarr/spec.
 */

export { fileStoreEntry } from "./entry.js";
export { FileSystemStore, type FileSystemStoreOptions, openFileSystemStore } from "./file-system-store.js";
export type { StaleTempOptions } from "./temp-files.js";
