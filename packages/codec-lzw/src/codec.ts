/** The Zarr codec entry: `numcodecs.imagecodecs_lzw` (alias `imagecodecs_lzw`), bytes → bytes. */
import {
  type BytesToBytesCodec,
  type CodecBuildContext,
  type CodecCallContext,
  type CodecEntry,
  codecStep,
  type ExtensionObject,
  type JsonObject,
  MetadataError,
  workerModuleUrl,
} from "@zarr/spec";
import { lzwDecompress } from "./decoder.js";
import { lzwCompress } from "./encoder.js";

/** Where worker threads find the entry. */
const ENTRY_MODULE = workerModuleUrl(import.meta.url, "codec.js");

/**
 * The codec's registered name: imagecodecs' numcodecs id `imagecodecs_lzw` (what a Zarr v2
 * `compressor` names, and what zarr-python reads with `imagecodecs.numcodecs.register_codecs()`),
 * under the `numcodecs.` prefix Zarr v3 gives numcodecs codecs.
 */
export const LZW_CODEC_NAME = "numcodecs.imagecodecs_lzw";

/**
 * The TIFF LZW codec: decodes the LZW stream of a TIFF tile or strip (and any TIFF 6.0 LZW
 * stream), and encodes chunks as libtiff does. It has no configuration.
 *
 * @example
 * ```ts
 * const codec = new LzwCodec();
 * const packed = codec.encode(new Uint8Array(1000), { key: "c/0" });
 * const bytes = codec.decode(packed, { key: "c/0" }); // 1000 zero bytes
 * ```
 */
export class LzwCodec implements BytesToBytesCodec {
  readonly kind = "bytes_to_bytes";
  readonly name = LZW_CODEC_NAME;

  /** Compresses a chunk's bytes. */
  encode(bytes: Uint8Array, ctx: CodecCallContext): Uint8Array {
    return codecStep("lzw", "encode", ctx, () => lzwCompress(bytes));
  }

  /**
   * Decompresses a chunk's bytes; corrupt input fails naming `ctx.key`, and so does output
   * that would pass `ctx.maxDecodedBytes`.
   */
  decode(bytes: Uint8Array, ctx: CodecCallContext): Uint8Array {
    return codecStep("lzw", "decode", ctx, () => lzwDecompress(bytes, { key: ctx.key, maxOutputLength: ctx.maxDecodedBytes }));
  }

  /** The codec as metadata: `{name: "numcodecs.imagecodecs_lzw", configuration: {}}`. */
  toJSON(): ExtensionObject {
    return { name: LZW_CODEC_NAME, configuration: {} };
  }
}

/** Validates a configuration: empty (numcodecs' `id: "imagecodecs_lzw"` is tolerated). */
export function parseLzwConfiguration(configuration: JsonObject, path: CodecBuildContext["path"]): void {
  for (const key of Object.keys(configuration)) {
    if (key === "id" && configuration.id === "imagecodecs_lzw") continue;
    throw new MetadataError([...path, "configuration", key], `unknown lzw codec option ${JSON.stringify(key)} (the codec has none)`);
  }
}

/**
 * The registry entry for the TIFF LZW codec: name `numcodecs.imagecodecs_lzw`, alias
 * `imagecodecs_lzw`, no configuration.
 *
 * @example
 * ```ts
 * const registry = createRegistry([lzw]); // from @zarr/core
 * ```
 */
export const lzw: CodecEntry = {
  type: "codec",
  name: LZW_CODEC_NAME,
  aliases: ["imagecodecs_lzw"],
  codecKind: "bytes_to_bytes",
  package: "@zarr/codec-lzw",
  worker: { moduleUrl: ENTRY_MODULE, moduleName: "@zarr/codec-lzw", exportName: "lzw" },
  fromConfig(configuration: JsonObject, context: CodecBuildContext): LzwCodec {
    parseLzwConfiguration(configuration, context.path);
    return new LzwCodec();
  },
};
