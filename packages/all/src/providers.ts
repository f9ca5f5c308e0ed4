/**
 * Which @zarr package provides each codec and store scheme, so a registry that lacks one
 * says which package to install. The table lives here rather than in @zarr/core so that
 * an app bundling only core does not carry it.
 */
import type { RegistryEntryType, RegistryOptions } from "@zarr/core";

/** Codec names (without a `numcodecs.` prefix) → the package that provides them. */
const CODEC_PROVIDERS: Readonly<Record<string, string>> = {
  gzip: "@zarr/codec-gzip",
  zlib: "@zarr/codec-gzip",
  zstd: "@zarr/codec-zstd",
  blosc: "@zarr/codec-blosc",
  lz4: "@zarr/codec-lz4",
  crc32c: "@zarr/codec-crc32c",
  "vlen-utf8": "@zarr/codec-vlen",
  "vlen-bytes": "@zarr/codec-vlen",
  sharding_indexed: "@zarr/codec-sharding",
  bz2: "@zarr/codec-bz2",
  lzma: "@zarr/codec-lzma",
  imagecodecs_lzw: "@zarr/codec-lzw",
  pcodec: "@zarr/codec-pcodec",
  zfpy: "@zarr/codec-zfpy",
  delta: "@zarr/codec-filters",
  fixedscaleoffset: "@zarr/codec-filters",
  quantize: "@zarr/codec-filters",
  bitround: "@zarr/codec-filters",
  packbits: "@zarr/codec-filters",
  categorize: "@zarr/codec-filters",
  astype: "@zarr/codec-filters",
  shuffle: "@zarr/codec-filters",
  adler32: "@zarr/codec-filters",
  crc32: "@zarr/codec-filters",
  fletcher32: "@zarr/codec-filters",
  json2: "@zarr/codec-filters",
  msgpack2: "@zarr/codec-filters",
  scale_offset: "@zarr/codec-filters",
  cast_value: "@zarr/codec-filters",
  reshape: "@zarr/codec-filters",
  jenkins_lookup3: "@zarr/codec-filters",
  "cast-value": "@zarr/codec-filters",
};

/**
 * The @zarr package that provides codec `name` (with or without a `numcodecs.` prefix),
 * or `undefined` when it is none of ours.
 *
 * @example
 * ```ts
 * providerOf("blosc");              // "@zarr/codec-blosc"
 * providerOf("numcodecs.shuffle");  // "@zarr/codec-filters"
 * ```
 */
export function providerOf(name: string): string | undefined {
  const bare = name.startsWith("numcodecs.") ? name.slice("numcodecs.".length) : name;
  return Object.hasOwn(CODEC_PROVIDERS, bare) ? CODEC_PROVIDERS[bare] : undefined;
}

/**
 * The @zarr package that opens stores of URL `scheme` (`"s3"`, `"zip+https"`...), or
 * `undefined` when it is none of ours.
 */
export function storeProviderOf(scheme: string): string | undefined {
  if (scheme === "file") return "@zarr/store-fs";
  if (scheme === "http" || scheme === "https") return "@zarr/store-http";
  if (scheme === "s3") return "@zarr/store-s3";
  if (scheme === "gs") return "@zarr/store-gcs";
  if (["az", "abfs", "abfss", "azure+https", "azure+http"].includes(scheme)) return "@zarr/store-azure";
  if (scheme === "zip" || scheme.startsWith("zip+")) return "@zarr/store-zip";
  if (scheme === "reference" || scheme.startsWith("reference+")) return "@zarr/store-references";
  if (scheme.startsWith("icechunk+")) return "@zarr/store-icechunk";
  return undefined;
}

/**
 * Registry options naming the @zarr package of a missing codec or store scheme; every
 * registry made by this package uses them. Pass them to @zarr/core's `createRegistry`
 * to get the same messages from a registry of your own.
 */
export const providerHints: Readonly<Required<RegistryOptions>> = Object.freeze({
  providerOf: (type: RegistryEntryType, name: string) =>
    type === "codec" ? providerOf(name) : type === "store" ? storeProviderOf(name) : undefined,
});
