/** The `zstd` bytes→bytes codec and its registry entry. */
import {
  asZarrError,
  type BytesToBytesCodec,
  type CodecCallContext,
  type CodecEntry,
  throwIfAborted,
  workerModuleUrl,
  ZarrError,
} from "@zarr/spec";
import { parseZstdConfiguration, type ZstdConfiguration } from "./config.js";
import { decodeFrames } from "./decoder/decompress.js";
import { prepareDecodeKernel } from "./decoder/kernel.js";
import { zstdCompress } from "./encoder/frame.js";
import { compressWithZlib, loadNativeZlib } from "./native.js";

/** Where worker threads find the entry. */
const ENTRY_MODULE = workerModuleUrl(import.meta.url, "codec.js");

function decodeFailure(error: unknown, key: string): ZarrError {
  if (error instanceof ZarrError) return error;
  // e.g. a RangeError from an allocation that failed: still a coded error.
  return asZarrError(error, "CODEC_FAILED", `zstd: cannot decode chunk "${key}"`, key);
}

/**
 * Creates a `zstd` codec. Encoding uses libzstd from `node:zlib` when the running Node
 * has it and the pure-TypeScript encoder otherwise; decoding verifies checksums and
 * accepts multiple frames, skippable frames and frames without a content size.
 *
 * @example
 * ```ts
 * const codec = createZstdCodec({ level: 5, checksum: true });
 * const packed = await codec.encode(bytes, { key: "c/0/0" });
 * ```
 */
export function createZstdCodec(configuration: Partial<ZstdConfiguration> = {}): BytesToBytesCodec {
  const { level, checksum } = parseZstdConfiguration(configuration, []);
  // In browsers the decoder kernel compiles while the first chunk is fetched.
  prepareDecodeKernel();
  return {
    kind: "bytes_to_bytes",
    name: "zstd",
    async encode(bytes: Uint8Array, ctx: CodecCallContext): Promise<Uint8Array> {
      throwIfAborted(ctx.signal);
      try {
        const zlib = await loadNativeZlib();
        if (zlib !== undefined) {
          const native = await compressWithZlib(zlib, bytes, level, checksum);
          if (native !== undefined) return native;
        }
        return zstdCompress(bytes, level, checksum);
      } catch (error) {
        throw asZarrError(error, "CODEC_FAILED", `zstd: cannot encode chunk "${ctx.key}"`, ctx.key);
      }
    },
    decode(bytes: Uint8Array, ctx: CodecCallContext): Uint8Array {
      throwIfAborted(ctx.signal);
      try {
        return decodeFrames(bytes, undefined, ctx.key, undefined, ctx.maxDecodedBytes);
      } catch (error) {
        throw decodeFailure(error, ctx.key);
      }
    },
    /** Into the start of `scratch` when the frames declare their sizes and the total fits. */
    decodeInto(bytes: Uint8Array, scratch: Uint8Array, ctx: CodecCallContext): Uint8Array {
      throwIfAborted(ctx.signal);
      try {
        return decodeFrames(bytes, undefined, ctx.key, scratch, ctx.maxDecodedBytes);
      } catch (error) {
        throw decodeFailure(error, ctx.key);
      }
    },
    toJSON() {
      return { name: "zstd", configuration: { level, checksum } };
    },
  };
}

/**
 * The registry entry of the `zstd` codec (alias `numcodecs.zstd`, as zarr-python 3
 * writes numcodecs codecs).
 *
 * @example
 * ```ts
 * const registry = createRegistry([zstd]);
 * ```
 */
export const zstd: CodecEntry = {
  type: "codec",
  name: "zstd",
  aliases: ["numcodecs.zstd"],
  codecKind: "bytes_to_bytes",
  package: "@zarr/codec-zstd",
  worker: { moduleUrl: ENTRY_MODULE, moduleName: "@zarr/codec-zstd", exportName: "zstd" },
  fromConfig(configuration, context) {
    return createZstdCodec(parseZstdConfiguration(configuration, context.path));
  },
};
