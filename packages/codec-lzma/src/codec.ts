/** The `numcodecs.lzma` codec entry (alias `lzma`): bytes → bytes. */
import type { BytesToBytesCodec, CodecBuildContext, CodecCallContext, CodecEntry, JsonObject } from "@zarr/spec";
import { throwIfAborted, workerModuleUrl } from "@zarr/spec";
import { compressWith, decompressWith, guard, metadataFailure } from "./compress.js";
import { type ParsedOptions, parseOptions } from "./options.js";

/** Where worker threads find the entry. */
const ENTRY_MODULE = workerModuleUrl(import.meta.url, "codec.js");

/** The codec's registered name. */
export const LZMA_CODEC_NAME = "numcodecs.lzma";

class LzmaCodec implements BytesToBytesCodec {
  readonly kind = "bytes_to_bytes";
  readonly name = LZMA_CODEC_NAME;

  constructor(
    private readonly options: ParsedOptions,
    private readonly path: CodecBuildContext["path"],
  ) {}

  encode(bytes: Uint8Array, ctx: CodecCallContext): Uint8Array {
    throwIfAborted(ctx.signal);
    return guard(ctx.key, "encode", () => compressWith(bytes, this.options, ctx.key, metadataFailure(this.path)));
  }

  decode(bytes: Uint8Array, ctx: CodecCallContext): Uint8Array {
    throwIfAborted(ctx.signal);
    return guard(ctx.key, "decode", () => decompressWith(bytes, this.options, ctx.key, ctx.maxDecodedBytes));
  }

  toJSON() {
    const o = this.options;
    const configuration: JsonObject = {
      format: o.format,
      check: o.check,
      preset: o.preset,
      filters: o.filtersJson,
    };
    return { name: LZMA_CODEC_NAME, configuration };
  }
}

/**
 * The numcodecs `lzma` codec: `{format, check, preset, filters}` exactly as numcodecs'
 * `LZMA` stores them (defaults: format 1 = .xz, check -1 = CRC64, preset null = 6).
 *
 * @example
 * ```ts
 * const registry = createRegistry([lzma]);
 * // codecs: [{ name: "numcodecs.lzma", configuration: { format: 1, check: -1, preset: 6, filters: null } }]
 * ```
 */
export const lzma: CodecEntry = {
  type: "codec",
  name: LZMA_CODEC_NAME,
  aliases: ["lzma"],
  codecKind: "bytes_to_bytes",
  package: "@zarr/codec-lzma",
  worker: { moduleUrl: ENTRY_MODULE, moduleName: "@zarr/codec-lzma", exportName: "lzma" },
  fromConfig(configuration: JsonObject, context: CodecBuildContext) {
    const options = parseOptions(configuration, metadataFailure(context.path));
    return new LzmaCodec(options, context.path);
  },
};
