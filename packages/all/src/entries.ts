/**
 * Every extension this package registers. Large codecs are lazy entries, so bundlers
 * split them out until an array needs them.
 */
import { bloscLazy } from "@zarr/codec-blosc/lazy";
import { bz2Lazy } from "@zarr/codec-bz2/lazy";
import { crc32cCodec } from "@zarr/codec-crc32c";
import { filterCodecs } from "@zarr/codec-filters";
import { gzip, zlib } from "@zarr/codec-gzip";
import { lz4Lazy } from "@zarr/codec-lz4/lazy";
import { lzmaLazy } from "@zarr/codec-lzma/lazy";
import { lzwLazy } from "@zarr/codec-lzw/lazy";
import { pcodecLazy } from "@zarr/codec-pcodec/lazy";
import { shardingIndexed } from "@zarr/codec-sharding";
import { vlenBytes, vlenUtf8 } from "@zarr/codec-vlen";
import { zfpyLazy } from "@zarr/codec-zfpy/lazy";
import { zstdLazy } from "@zarr/codec-zstd/lazy";
import { type AnyFormatEntry, lazyOptionalEntries } from "@zarr/core";
import type { RegistryEntry } from "@zarr/spec";
import { fileStoreEntry } from "@zarr/store-fs";
import { httpStoreEntry } from "@zarr/store-http";
import { zipStoreEntry } from "@zarr/store-zip";

/** The codec entries of every @zarr codec package. */
export const codecEntries: readonly RegistryEntry[] = [
  gzip,
  zlib,
  zstdLazy,
  bloscLazy,
  lz4Lazy,
  bz2Lazy,
  lzmaLazy,
  lzwLazy,
  pcodecLazy,
  zfpyLazy,
  crc32cCodec,
  vlenUtf8,
  vlenBytes,
  shardingIndexed,
  ...filterCodecs,
];

/** The store adapters (by URL scheme). */
export const storeEntries: readonly RegistryEntry[] = [
  fileStoreEntry,
  httpStoreEntry,
  zipStoreEntry,
  // The AWS SDK is large: load it only when an s3:// URL is opened.
  {
    type: "store",
    name: "s3",
    lazy: true,
    package: "@zarr/store-s3",
    load: () => import("@zarr/store-s3").then((m) => m.s3StoreEntry),
  },
  {
    type: "store",
    name: "gs",
    lazy: true,
    package: "@zarr/store-gcs",
    load: () => import("@zarr/store-gcs").then((m) => m.gcsStoreEntry),
  },
  {
    type: "store",
    name: "az",
    aliases: ["abfs", "abfss", "azure+https", "azure+http"],
    lazy: true,
    package: "@zarr/store-azure",
    load: () => import("@zarr/store-azure").then((m) => m.azureStoreEntry),
  },
  // kerchunk / VirtualiZarr reference sets: reference+<url of the JSON document>.
  {
    type: "store",
    name: "reference",
    aliases: ["reference+file", "reference+http", "reference+https", "reference+s3", "reference+gs", "reference+az"],
    lazy: true,
    package: "@zarr/store-references",
    load: () => import("@zarr/store-references").then((m) => m.referenceStoreEntry),
  },
  // Icechunk repositories: loaded only when an icechunk+ URL is opened.
  {
    type: "store",
    name: "icechunk",
    aliases: ["icechunk+file", "icechunk+http", "icechunk+https", "icechunk+s3", "icechunk+gs", "icechunk+az", "icechunk+abfs", "icechunk+abfss"],
    lazy: true,
    package: "@zarr/store-icechunk",
    load: () => import("@zarr/store-icechunk").then((m) => m.icechunkStoreEntry),
  },
];

/**
 * Storage formats besides Zarr v3 (@zarr/v2-compat: Zarr v2, the early v3 draft layout),
 * loaded the first time a path has no zarr.json.
 */
export const formatEntries: readonly AnyFormatEntry[] = [
  { type: "format", name: "zarr-v2", lazy: true, package: "@zarr/v2-compat", load: () => import("@zarr/v2-compat").then((m) => m.v2Format) },
  { type: "format", name: "zarr-v3-draft", lazy: true, package: "@zarr/v2-compat", load: () => import("@zarr/v2-compat").then((m) => m.draftFormat) },
];

/**
 * zarrs' `optional` data type and codec (`lazyOptionalEntries` of @zarr/core, which core's
 * own registries leave out), loaded the first time an array uses them.
 */
export const optionalEntries: readonly RegistryEntry[] = lazyOptionalEntries;

/** Everything: codecs, stores, formats and the `optional` data type. */
export const allEntries: readonly (RegistryEntry | AnyFormatEntry)[] = [...codecEntries, ...storeEntries, ...formatEntries, ...optionalEntries];
