/** The `numcodecs.lzma` codec entry (alias `lzma`): bytes → bytes. */
import type { BytesToBytesCodec, CodecBuildContext, CodecCallContext, CodecEntry, JsonObject } from "@zarr/spec";
import {
  offload,
  throwIfAborted,
  type WorkerCall,
  workerModuleUrl,
} from "@zarr/spec";
import { compressWith, decompressWith, guard, metadataFailure } from "./compress.js";
import { type ParsedOptions, parseOptions } from "./options.js";

/** Where worker threads find the decoder. */
const DECODE_TASK = workerModuleUrl(import.meta.url, "decode-task.js");

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

  /** Where and how a worker thread decodes (see `BytesToBytesCodec.workerDecode`). */
  workerDecode(ctx: CodecCallContext): WorkerCall {
    return { moduleUrl: DECODE_TASK, exportName: "decode", args: [this.options, ctx.key] };
  }

  decode(bytes: Uint8Array, ctx: CodecCallContext): Uint8Array | Promise<Uint8Array> {
    throwIfAborted(ctx.signal);
    return offload(ctx.workers, DECODE_TASK, "decode", bytes, [this.options, ctx.key], () =>
      guard(ctx.key, "decode", () => decompressWith(bytes, this.options, ctx.key)),
    );
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
  fromConfig(configuration: JsonObject, context: CodecBuildContext) {
    const options = parseOptions(configuration, metadataFailure(context.path));
    return new LzmaCodec(options, context.path);
  },
};
