/**
 * The gzip and zlib codecs over a {@link DeflateBackend}. `index.ts` builds the exported
 * entries with the backend the runtime selects; tests build them with either backend.
 */
import {
  type BytesToBytesCodec,
  type CodecCallContext,
  type CodecEntry,
  decodedSizeExceeded,
  type ExtensionObject,
  OutputLimitExceeded,
  throwIfAborted,
  workerModuleUrl,
  ZarrError,
} from "@zarr/spec";
import type { DeflateBackend } from "./backend.js";
import { parseLevel } from "./configuration.js";

const PACKAGE = "@zarr/codec-gzip";

/**
 * Chunks that inflate to at most this many bytes are decoded in place even on Node's main
 * thread: a hand-off to libuv's pool and back costs more than inflating a few kilobytes
 * (arrays of many small chunks spent most of their time in those hand-offs).
 */
const BLOCKING_MAX_BYTES = 64 * 1024 + 1024;
/** The bound of a decode: the pipeline's, or none for direct calls without one. */
function maxOutputOf(ctx: CodecCallContext): number {
  return ctx.maxDecodedBytes ?? Number.MAX_SAFE_INTEGER;
}

/** Where worker threads find the entries (`gzip`, `zlib`, over the runtime's backend). */
const ENTRIES = workerModuleUrl(import.meta.url, "index.js");

type Transform = (bytes: Uint8Array, level: number) => Uint8Array | Promise<Uint8Array>;

/** A gzip or zlib codec with a fixed level. */
class DeflateCodec implements BytesToBytesCodec {
  readonly kind = "bytes_to_bytes" as const;

  constructor(
    readonly name: "gzip" | "zlib",
    /** The name written to metadata. */
    private readonly jsonName: string,
    readonly level: number,
    private readonly compress: Transform,
    private readonly decompress: (bytes: Uint8Array, maxOutput: number) => Uint8Array | Promise<Uint8Array>,
    private readonly backend: DeflateBackend,
  ) {}

  async encode(bytes: Uint8Array, ctx: CodecCallContext): Promise<Uint8Array> {
    throwIfAborted(ctx.signal);
    try {
      return await this.compress(bytes, this.level);
    } catch (error) {
      throw this.failure("encode", error, ctx);
    }
  }

  /** Inflates, stopping with `CODEC_FAILED` once the output passes `ctx.maxDecodedBytes`. */
  async decode(bytes: Uint8Array, ctx: CodecCallContext): Promise<Uint8Array> {
    throwIfAborted(ctx.signal);
    try {
      return await this.decompress(bytes, maxOutputOf(ctx));
    } catch (error) {
      throw this.failure("decode", error, ctx);
    }
  }

  /**
   * Decodes into `scratch` where the backend can and blocking suits the thread (see
   * `DeflateBackend.preferBlocking`) or the chunk is small; large chunks on Node's main
   * thread go as `decode` does, so they inflate in parallel on libuv's pool.
   */
  decodeInto(bytes: Uint8Array, scratch: Uint8Array, ctx: CodecCallContext): Uint8Array | Promise<Uint8Array> {
    const backend = this.backend;
    if (!backend.preferBlocking && scratch.length > BLOCKING_MAX_BYTES) return this.decode(bytes, ctx);
    throwIfAborted(ctx.signal);
    try {
      const into = backend.decompressInto?.(bytes, this.name, scratch);
      if (into !== undefined) {
        if (into.length > maxOutputOf(ctx)) throw new OutputLimitExceeded(maxOutputOf(ctx));
        return into;
      }
      const blocking = this.name === "gzip" ? backend.decompressGzipSync : backend.decompressZlibSync;
      return blocking !== undefined ? blocking(bytes, maxOutputOf(ctx)) : this.decode(bytes, ctx);
    } catch (error) {
      throw this.failure("decode", error, ctx);
    }
  }

  /** Compressed sizes depend on the data. */
  computeEncodedSize(): undefined {
    return undefined;
  }

  toJSON(): ExtensionObject {
    return { name: this.jsonName, configuration: { level: this.level } };
  }

  private failure(action: string, error: unknown, ctx: CodecCallContext): ZarrError {
    const key = ctx.key;
    if (error instanceof OutputLimitExceeded) {
      return decodedSizeExceeded(this.name, { key, maxDecodedBytes: error.maxOutput }, error.declared);
    }
    const detail = error instanceof Error ? error.message : String(error);
    const code = (error as { code?: unknown } | null)?.code;
    const suffix = typeof code === "string" ? ` (${code})` : "";
    return new ZarrError("CODEC_FAILED", `${this.name}: cannot ${action} chunk "${key}": ${detail}${suffix}`, {
      key,
      cause: error,
    });
  }
}

/**
 * The `gzip` entry (alias `numcodecs.gzip`) over `backend`. Written to metadata as
 * `gzip`, the Zarr v3 core name every implementation reads.
 */
export function createGzipEntry(backend: DeflateBackend): CodecEntry {
  return {
    type: "codec",
    name: "gzip",
    aliases: ["numcodecs.gzip"],
    codecKind: "bytes_to_bytes",
    package: PACKAGE,
    worker: { moduleUrl: ENTRIES, moduleName: "@zarr/codec-gzip", exportName: "gzip" },
    prefetch: () => backend.prefetch?.(),
    fromConfig: (configuration, context) =>
      new DeflateCodec(
        "gzip",
        "gzip",
        parseLevel(configuration, context.path, "gzip", 5),
        backend.compressGzip,
        backend.decompressGzip,
        backend,
      ),
  };
}

/**
 * The `zlib` entry (alias `numcodecs.zlib`) over `backend`. Written to metadata as
 * `numcodecs.zlib`: Zarr v3 has no core zlib codec and that is the name zarr-python 3 reads.
 */
export function createZlibEntry(backend: DeflateBackend): CodecEntry {
  return {
    type: "codec",
    name: "zlib",
    aliases: ["numcodecs.zlib"],
    codecKind: "bytes_to_bytes",
    package: PACKAGE,
    worker: { moduleUrl: ENTRIES, moduleName: "@zarr/codec-gzip", exportName: "zlib" },
    prefetch: () => backend.prefetch?.(),
    fromConfig: (configuration, context) =>
      new DeflateCodec(
        "zlib",
        "numcodecs.zlib",
        parseLevel(configuration, context.path, "zlib", 1),
        backend.compressZlib,
        backend.decompressZlib,
        backend,
      ),
  };
}
