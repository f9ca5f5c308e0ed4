/** The Zarr codec entry: `numcodecs.zfpy` (alias `zfpy`), array → bytes. */
import {
  type ArrayToBytesCodec,
  type ChunkSpec,
  type CodecBuildContext,
  type CodecCallContext,
  type CodecEntry,
  codecStep,
  cStrides,
  describeJson,
  type ExtensionObject,
  type JsonObject,
  MetadataError,
  type NdArray,
  throwIfAborted,
  workerModuleUrl,
  ZarrError,
} from "@zarr/spec";
import { zfpDecompress } from "./decompress.js";
import { type ZfpValues, zfpCompressReversible } from "./encode-reversible.js";
import { readZfpHeader, ZFP_TYPES, type ZfpType } from "./header.js";

/** Where worker threads find the entry. */
const ENTRY_MODULE = workerModuleUrl(import.meta.url, "codec.js");

/** The codec's registered name (what zarr-python 3 writes). */
export const ZFPY_CODEC_NAME = "numcodecs.zfpy";

/** Configuration keys numcodecs' `ZFPY.get_config()` writes (besides `id`). */
const CONFIG_KEYS = ["mode", "tolerance", "rate", "precision", "compression_kwargs"];

/**
 * The zfpy codec for one array: decodes chunks that numcodecs' `ZFPY` (zfpy's
 * `compress_numpy`) wrote, in any ZFP mode, for float32, float64, int32 and int64 arrays
 * of 1 to 4 dimensions; each chunk's stream names its own mode. Encodes in the lossless
 * (reversible) mode only, numcodecs' default; lossy settings cannot be written.
 *
 * @example
 * ```ts
 * const codec = zfpy.fromConfig({ mode: 4, tolerance: 0.01 }, context); // context from the registry
 * const chunk = await codec.decode(bytes, spec, { key: "t2m/c/0/0" });
 * ```
 */
export class ZfpyCodec implements ArrayToBytesCodec {
  readonly kind = "array_to_bytes";
  readonly name = ZFPY_CODEC_NAME;

  /** @param configuration - the numcodecs settings, written back as given */
  constructor(readonly configuration: JsonObject = {}) {}

  /**
   * Compresses a chunk losslessly, byte for byte as numcodecs' `ZFPY` does with this
   * configuration, when the configuration asks for ZFP's reversible mode (numcodecs'
   * default: the selected `tolerance`, `rate` or `precision` is negative). Lossy settings
   * throw an `UNSUPPORTED` `ZarrError` naming the chunk: writing them is not implemented.
   */
  encode(chunk: NdArray, spec: ChunkSpec, ctx: CodecCallContext): Uint8Array {
    throwIfAborted(ctx.signal);
    const lossy = lossySetting(this.configuration);
    if (lossy !== undefined) {
      throw new ZarrError(
        "UNSUPPORTED",
        `zfpy: cannot encode chunk "${ctx.key}": writing lossy ZFP streams (${lossy}) is not implemented; only the lossless mode (numcodecs' default, tolerance -1) can be written`,
        { key: ctx.key },
      );
    }
    return codecStep("zfpy", "encode", ctx, () => zfpCompressReversible(chunk.data as ZfpValues, spec.shape));
  }

  /**
   * Decodes one chunk's ZFP stream. A stream that is corrupt, cut off, or holds another
   * data type or shape than the chunk's fails with a `CODEC_FAILED` error naming `ctx.key`,
   * before anything chunk-sized is allocated for a header that announces too much.
   */
  decode(bytes: Uint8Array, spec: ChunkSpec, ctx: CodecCallContext): NdArray {
    const expectedType = zfpTypeOf(spec.dataType.name);
    return codecStep("zfpy", "decode", ctx, () => {
      // The header first: a stream of another type or shape is refused before decoding.
      const header = readZfpHeader(bytes, ctx.key);
      const shape = [...header.size].reverse();
      if (header.type !== expectedType || !sameShape(shape, spec.shape)) {
        throw new ZarrError(
          "CODEC_FAILED",
          `zfpy: chunk "${ctx.key}" holds a ${header.type} field of shape [${shape}], but the array's chunks are ${expectedType} of shape [${spec.shape}]`,
          { key: ctx.key },
        );
      }
      const decoded = zfpDecompress(bytes, { key: ctx.key, maxOutputBytes: ctx.maxDecodedBytes, signal: ctx.signal });
      return { data: decoded.data, shape: [...spec.shape], stride: cStrides(spec.shape) };
    });
  }

  /** The codec as metadata: `{name: "numcodecs.zfpy", configuration}`. */
  toJSON(): ExtensionObject {
    return { name: ZFPY_CODEC_NAME, configuration: { ...this.configuration } };
  }
}

/** numcodecs' `mode` values (zfpy's `zfp_mode`) and the keyword each passes to zfpy. */
const MODE_ARGUMENT: Record<number, string> = { 2: "rate", 3: "precision", 4: "tolerance" };
const REVERSIBLE_MODE = 5;

/**
 * The lossy setting a numcodecs configuration selects (e.g. `"tolerance 0.01"`), or
 * `undefined` when it selects the reversible mode: zfpy compresses losslessly when the
 * keyword numcodecs passes (by `mode`, default fixed accuracy) is negative.
 */
export function lossySetting(configuration: JsonObject): string | undefined {
  const given = configuration.compression_kwargs;
  let kwargs: JsonObject;
  if (given !== undefined && given !== null && typeof given === "object" && !Array.isArray(given)) {
    kwargs = given;
  } else {
    const mode = typeof configuration.mode === "number" ? configuration.mode : 4;
    if (mode === REVERSIBLE_MODE) return undefined;
    const argument = MODE_ARGUMENT[mode];
    if (argument === undefined) return `mode ${mode}`;
    kwargs = { [argument]: configuration[argument] ?? -1 };
  }
  for (const [key, value] of Object.entries(kwargs)) {
    if (typeof value !== "number" || value >= 0) return `${key} ${JSON.stringify(value)}`;
  }
  return undefined;
}

function sameShape(a: readonly number[], b: readonly number[]): boolean {
  return a.length === b.length && a.every((n, i) => n === b[i]);
}

/** The ZFP scalar type of a Zarr data type, or `undefined` when ZFP has none. */
function zfpTypeOf(dataType: string): ZfpType | undefined {
  return (ZFP_TYPES as readonly string[]).includes(dataType) ? (dataType as ZfpType) : undefined;
}

/**
 * Validates a `numcodecs.zfpy` configuration against the array it is for: the keys
 * numcodecs writes (`mode`, `tolerance`, `rate`, `precision`, `compression_kwargs`; a
 * numcodecs `id: "zfpy"` is tolerated) with numeric settings, and a data type zfpy can
 * compress (float32, float64, int32, int64) in 1 to 4 dimensions. Returns the configuration
 * without `id`.
 */
export function parseZfpyConfig(configuration: JsonObject, context: Pick<CodecBuildContext, "path" | "spec">): JsonObject {
  const { path, spec } = context;
  const kept: JsonObject = {};
  for (const [key, value] of Object.entries(configuration)) {
    if (key === "id" && value === "zfpy") continue;
    if (!CONFIG_KEYS.includes(key)) {
      throw new MetadataError([...path, "configuration", key], `unknown zfpy codec option ${JSON.stringify(key)} (known: ${CONFIG_KEYS.join(", ")})`);
    }
    if (key !== "compression_kwargs" && typeof value !== "number") {
      throw new MetadataError([...path, "configuration", key], `expected a number, found ${describeJson(value)}`);
    }
    kept[key] = value;
  }
  if (zfpTypeOf(spec.dataType.name) === undefined) {
    throw new MetadataError(path, `the zfpy codec compresses float32, float64, int32 and int64 arrays, not ${spec.dataType.name}`);
  }
  if (spec.shape.length < 1 || spec.shape.length > 4) {
    throw new MetadataError(path, `the zfpy codec compresses arrays of 1 to 4 dimensions, not ${spec.shape.length}`);
  }
  return kept;
}

/**
 * The registry entry for the zfpy codec: name `numcodecs.zfpy`, alias `zfpy` (the
 * numcodecs id of a Zarr v2 `compressor`), array → bytes.
 *
 * @example
 * ```ts
 * const registry = createRegistry([zfpy]); // from @zarr/core
 * ```
 */
export const zfpy: CodecEntry = {
  type: "codec",
  name: ZFPY_CODEC_NAME,
  aliases: ["zfpy"],
  codecKind: "array_to_bytes",
  package: "@zarr/codec-zfpy",
  worker: { moduleUrl: ENTRY_MODULE, moduleName: "@zarr/codec-zfpy", exportName: "zfpy" },
  fromConfig(configuration: JsonObject, context: CodecBuildContext): ZfpyCodec {
    return new ZfpyCodec(parseZfpyConfig(configuration, context));
  },
};
