/**
 * The blosc codec entry: "blosc" (Zarr v3) with the alias "numcodecs.blosc". Decoding
 * needs no configuration (the chunk header says everything); encoding uses the
 * resolved configuration.
 */
import { prepareZstdDecoder } from "@zarr/codec-zstd";
import { type BytesToBytesCodec, type CodecEntry, type ExtensionObject, workerModuleUrl } from "@zarr/spec";
import { prepareBloscKernel } from "./blosc-kernel.js";
import { bloscCompress } from "./compress.js";
import { type BloscConfig, parseBloscConfig } from "./config.js";
import { bloscDecompress } from "./decompress.js";

/** Where worker threads find the entry. */
const ENTRY_MODULE = workerModuleUrl(import.meta.url, "codec.js");

/** The metadata form of a resolved configuration, in the shape it was written in. */
function toMetadata(c: BloscConfig): ExtensionObject {
  if (c.numcodecsShape) {
    const shuffle = c.shuffle === "noshuffle" ? 0 : c.shuffle === "shuffle" ? 1 : 2;
    return {
      name: "numcodecs.blosc",
      configuration: { cname: c.cname, clevel: c.clevel, shuffle, blocksize: c.blocksize, typesize: c.typesize },
    };
  }
  return {
    name: "blosc",
    configuration: { cname: c.cname, clevel: c.clevel, shuffle: c.shuffle, typesize: c.typesize, blocksize: c.blocksize },
  };
}

/**
 * The blosc codec (c-blosc 1.x format, pure TypeScript): name "blosc", alias
 * "numcodecs.blosc". Configuration `{cname, clevel, shuffle, typesize, blocksize}` with
 * `shuffle` as "noshuffle" | "shuffle" | "bitshuffle" or numcodecs' 0 | 1 | 2 | −1.
 *
 * @example
 * ```ts
 * const registry = createRegistry([blosc]);
 * // codecs: [{name: "bytes", configuration: {endian: "little"}},
 * //          {name: "blosc", configuration: {cname: "zstd", clevel: 5, shuffle: "shuffle", typesize: 4, blocksize: 0}}]
 * ```
 */
export const blosc: CodecEntry = {
  type: "codec",
  name: "blosc",
  aliases: ["numcodecs.blosc"],
  codecKind: "bytes_to_bytes",
  package: "@zarr/codec-blosc",
  worker: { moduleUrl: ENTRY_MODULE, moduleName: "@zarr/codec-blosc", exportName: "blosc" },
  fromConfig(configuration, context): BytesToBytesCodec {
    const config = parseBloscConfig(configuration, context);
    prepareBloscKernel();
    // Its zstd streams are decoded by @zarr/codec-zstd's kernel: compiled while the first chunk is fetched.
    if (config.cname === "zstd") prepareZstdDecoder();
    const options = {
      cname: config.cname,
      clevel: config.clevel,
      shuffle: config.shuffle,
      typesize: config.typesize,
      blocksize: config.blocksize,
    };
    const metadata = toMetadata(config);
    return {
      kind: "bytes_to_bytes",
      name: metadata.name,
      encode: (bytes) => bloscCompress(bytes, options),
      decode: (bytes, ctx) => bloscDecompress(bytes, ctx.key, undefined, ctx.maxDecodedBytes),
      // Into the start of `scratch` when the chunk's declared size fits.
      decodeInto: (bytes, scratch, ctx) => bloscDecompress(bytes, ctx.key, scratch, ctx.maxDecodedBytes),
      toJSON: () => structuredClone(metadata),
    };
  },
};
