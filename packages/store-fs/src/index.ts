/**
 * @zarr/store-fs: a local directory as a Zarr store, with atomic writes, byte-range
 * reads and listings. Depends only on @zarr/spec.
 */
export { FileSystemStore, type FileSystemStoreOptions, openFileSystemStore } from "./file-system-store.js";
export { fileStoreEntry } from "./entry.js";
