/**
 * How the `zarr` command loads the codec and store packages: the registry (registry.ts)
 * resolves entries through these, and so does the worker script of the bundled command
 * (worker.ts), which registers them by name.
 */

/**
 * The packages of @zarr/all's codecs and stores, each imported on first use. Literal
 * specifiers, so that bundlers and Node resolve each package on its own: a command that
 * reads a zstd array loads @zarr/codec-zstd, not every codec @zarr/all holds.
 */
export const PACKAGES: Record<string, () => Promise<Record<string, unknown>>> = {
  "@zarr/codec-gzip": () => import("@zarr/codec-gzip"),
  "@zarr/codec-zstd": () => import("@zarr/codec-zstd"),
  "@zarr/codec-blosc": () => import("@zarr/codec-blosc"),
  "@zarr/codec-lz4": () => import("@zarr/codec-lz4"),
  "@zarr/codec-bz2": () => import("@zarr/codec-bz2"),
  "@zarr/codec-lzma": () => import("@zarr/codec-lzma"),
  "@zarr/codec-pcodec": () => import("@zarr/codec-pcodec"),
  "@zarr/codec-zfpy": () => import("@zarr/codec-zfpy"),
  "@zarr/codec-lzw": () => import("@zarr/codec-lzw"),
  "@zarr/codec-crc32c": () => import("@zarr/codec-crc32c"),
  "@zarr/codec-vlen": () => import("@zarr/codec-vlen"),
  "@zarr/codec-sharding": () => import("@zarr/codec-sharding"),
  "@zarr/codec-filters": () => import("@zarr/codec-filters"),
  "@zarr/store-fs": () => import("@zarr/store-fs"),
  "@zarr/store-http": () => import("@zarr/store-http"),
  "@zarr/store-zip": () => import("@zarr/store-zip"),
  "@zarr/store-icechunk": () => import("@zarr/store-icechunk"),
  "@zarr/store-s3": () => import("@zarr/store-s3"),
  "@zarr/store-gcs": () => import("@zarr/store-gcs"),
  "@zarr/store-azure": () => import("@zarr/store-azure"),
  "@zarr/store-references": () => import("@zarr/store-references"),
};
