/**
 * What the CLI knows about @zarr/all's codecs and store schemes without loading them:
 * names, aliases, packages and codec kinds. The CLI registers them as lazy entries, so a
 * command pays for a codec package only when an array needs it (`zarr info` never does).
 * A test checks this table against @zarr/all's entries, so it cannot drift.
 */
import type { CodecKind } from "@zarr/spec";

/** One codec entry of @zarr/all: its name, other names, package and kind. */
export interface CatalogCodec {
  readonly name: string;
  readonly aliases: readonly string[];
  readonly package: string;
  readonly kind: CodecKind;
}

const codec = (name: string, aliases: string[], pkg: string, kind: CodecKind): CatalogCodec => ({
  name,
  aliases,
  package: `@zarr/${pkg}`,
  kind,
});

const b2b = "bytes_to_bytes";
const a2b = "array_to_bytes";
const a2a = "array_to_array";

/** Every codec @zarr/all registers, in its order. */
export const CODEC_CATALOG: readonly CatalogCodec[] = [
  codec("gzip", ["numcodecs.gzip"], "codec-gzip", b2b),
  codec("zlib", ["numcodecs.zlib"], "codec-gzip", b2b),
  codec("zstd", ["numcodecs.zstd"], "codec-zstd", b2b),
  codec("blosc", ["numcodecs.blosc"], "codec-blosc", b2b),
  codec("numcodecs.lz4", ["lz4"], "codec-lz4", b2b),
  codec("numcodecs.bz2", ["bz2"], "codec-bz2", b2b),
  codec("numcodecs.lzma", ["lzma"], "codec-lzma", b2b),
  codec("numcodecs.imagecodecs_lzw", ["imagecodecs_lzw"], "codec-lzw", b2b),
  codec("numcodecs.pcodec", ["pcodec"], "codec-pcodec", a2b),
  codec("numcodecs.zfpy", ["zfpy"], "codec-zfpy", a2b),
  codec("crc32c", ["numcodecs.crc32c"], "codec-crc32c", b2b),
  codec("vlen-utf8", ["numcodecs.vlen-utf8"], "codec-vlen", a2b),
  codec("vlen-bytes", ["numcodecs.vlen-bytes"], "codec-vlen", a2b),
  codec("sharding_indexed", [], "codec-sharding", a2b),
  codec("numcodecs.delta", [], "codec-filters", a2a),
  codec("numcodecs.fixedscaleoffset", [], "codec-filters", a2a),
  codec("numcodecs.quantize", [], "codec-filters", a2a),
  codec("numcodecs.bitround", [], "codec-filters", a2a),
  codec("bitround", [], "codec-filters", a2a),
  codec("numcodecs.astype", [], "codec-filters", a2a),
  codec("numcodecs.packbits", [], "codec-filters", a2a),
  codec("packbits", [], "codec-filters", a2b),
  codec("numcodecs.categorize", [], "codec-filters", a2a),
  codec("numcodecs.shuffle", [], "codec-filters", b2b),
  codec("scale_offset", [], "codec-filters", a2a),
  codec("cast_value", [], "codec-filters", a2a),
  codec("cast-value", [], "codec-filters", a2a),
  codec("reshape", [], "codec-filters", a2a),
  codec("numcodecs.adler32", [], "codec-filters", b2b),
  codec("numcodecs.crc32", [], "codec-filters", b2b),
  codec("numcodecs.fletcher32", [], "codec-filters", b2b),
  codec("numcodecs.jenkins_lookup3", [], "codec-filters", b2b),
  codec("numcodecs.json2", [], "codec-filters", a2b),
  codec("numcodecs.msgpack2", [], "codec-filters", a2b),
];

/** The store adapters of @zarr/all: the name each registers under, and its other URL schemes. */
export const STORE_CATALOG: readonly { readonly name: string; readonly schemes: readonly string[]; readonly package: string }[] = [
  { name: "file", schemes: [], package: "@zarr/store-fs" },
  { name: "http", schemes: ["https"], package: "@zarr/store-http" },
  { name: "zip", schemes: ["zip+file", "zip+http", "zip+https", "zip+s3"], package: "@zarr/store-zip" },
  { name: "s3", schemes: [], package: "@zarr/store-s3" },
  { name: "gs", schemes: [], package: "@zarr/store-gcs" },
  { name: "az", schemes: ["abfs", "abfss", "azure+https", "azure+http"], package: "@zarr/store-azure" },
  {
    name: "reference",
    schemes: ["reference+file", "reference+http", "reference+https", "reference+s3", "reference+gs", "reference+az"],
    package: "@zarr/store-references",
  },
  {
    name: "icechunk",
    schemes: ["icechunk+file", "icechunk+http", "icechunk+https", "icechunk+s3", "icechunk+gs", "icechunk+az", "icechunk+abfs", "icechunk+abfss"],
    package: "@zarr/store-icechunk",
  },
];

const byName = new Map<string, CatalogCodec>();
for (const c of CODEC_CATALOG) for (const n of [c.name, ...c.aliases]) byName.set(n, c);

/**
 * The catalog entry of codec `name` (any of its names), or undefined for a codec @zarr/all
 * does not have.
 */
export function catalogCodec(name: string): CatalogCodec | undefined {
  return byName.get(name);
}
