/** The Zarr codec entry: `numcodecs.bz2` (alias `bz2`), bytes → bytes. */
import {
  type BytesToBytesCodec,
  type CodecBuildContext,
  type CodecCallContext,
  type CodecEntry,
  codecStep,
  describeJson,
  type ExtensionObject,
  type JsonObject,
  MetadataError,
  workerModuleUrl,
} from "@zarr/spec";
import { bz2Decompress } from "./decoder.js";
import { bz2Compress } from "./encoder.js";

/** Where worker threads find the entry. */
const ENTRY_MODULE = workerModuleUrl(import.meta.url, "codec.js");

/** The codec's registered name (what zarr-python 3 writes). */
export const BZ2_CODEC_NAME = "numcodecs.bz2";
/** numcodecs' default block size level. */
export const DEFAULT_BZ2_LEVEL = 1;

/**
 * The bz2 codec for one array: compresses chunks into bzip2 streams with block size
 * `level` × 100 000 bytes, and decompresses any bzip2 stream (any level, concatenated
 * streams included).
 *
 * @example
 * ```ts
 * const codec = new Bz2Codec(9);
 * const packed = codec.encode(new Uint8Array(1000), { key: "c/0" });
 * const bytes = codec.decode(packed, { key: "c/0" }); // 1000 zero bytes
 * ```
 */
export class Bz2Codec implements BytesToBytesCodec {
  readonly kind = "bytes_to_bytes";
  readonly name = BZ2_CODEC_NAME;

  /** @param level - block size level 1–9 */
  constructor(readonly level: number = DEFAULT_BZ2_LEVEL) {}

  /** Compresses a chunk's bytes. */
  encode(bytes: Uint8Array, ctx: CodecCallContext): Uint8Array {
    return codecStep("bz2", "encode", ctx, () => bz2Compress(bytes, this.level));
  }

  /**
   * Decompresses a chunk's bytes; corrupt input fails naming `ctx.key`, and so does output
   * that would pass `ctx.maxDecodedBytes` (before it is allocated).
   */
  decode(bytes: Uint8Array, ctx: CodecCallContext): Uint8Array {
    return codecStep("bz2", "decode", ctx, () => bz2Decompress(bytes, { key: ctx.key, maxOutputLength: ctx.maxDecodedBytes }));
  }

  /** The codec as metadata: `{name: "numcodecs.bz2", configuration: {level}}`. */
  toJSON(): ExtensionObject {
    return { name: BZ2_CODEC_NAME, configuration: { level: this.level } };
  }
}

/**
 * Validates a `numcodecs.bz2` configuration (`{level?: 1–9}`; a numcodecs `id: "bz2"`
 * is tolerated) and returns the level.
 */
export function parseBz2Level(configuration: JsonObject, path: CodecBuildContext["path"]): number {
  for (const key of Object.keys(configuration)) {
    if (key === "level") continue;
    if (key === "id" && configuration.id === "bz2") continue;
    throw new MetadataError([...path, "configuration", key], `unknown bz2 codec option ${JSON.stringify(key)}`);
  }
  const level = configuration.level;
  if (level === undefined) return DEFAULT_BZ2_LEVEL;
  if (typeof level !== "number" || !Number.isInteger(level) || level < 1 || level > 9) {
    throw new MetadataError(
      [...path, "configuration", "level"],
      `expected an integer from 1 to 9 (the bzip2 block size in units of 100 000 bytes), found ${describeJson(level)}`,
    );
  }
  return level;
}

/**
 * The registry entry for the bz2 codec: name `numcodecs.bz2`, alias `bz2`,
 * configuration `{level: 1–9}` (default 1, like numcodecs).
 *
 * @example
 * ```ts
 * const registry = createRegistry([bz2]); // from @zarr/core
 * ```
 */
export const bz2: CodecEntry = {
  type: "codec",
  name: BZ2_CODEC_NAME,
  aliases: ["bz2"],
  codecKind: "bytes_to_bytes",
  package: "@zarr/codec-bz2",
  worker: { moduleUrl: ENTRY_MODULE, moduleName: "@zarr/codec-bz2", exportName: "bz2" },
  fromConfig(configuration: JsonObject, context: CodecBuildContext): Bz2Codec {
    return new Bz2Codec(parseBz2Level(configuration, context.path));
  },
};
