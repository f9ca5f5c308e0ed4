/** The Zarr codec entry: `numcodecs.pcodec` (v2 id `pcodec`), array → bytes. */
import {
  type ArrayToBytesCodec,
  type ChunkSpec,
  type CodecBuildContext,
  type CodecCallContext,
  type CodecEntry,
  cStrides,
  describeJson,
  type ExtensionObject,
  type JsonObject,
  MetadataError,
  type NdArray,
  shapeSize,
  throwIfAborted,
  toCContiguous,
  workerModuleUrl,
  ZarrError,
} from "@zarr/spec";
import { pcoCompress } from "./encoder.js";
import { type PcoNumberType, ZARR_DATA_TYPES } from "./number-types.js";
import { pcoDecompress } from "./standalone.js";

/** Where worker threads find the entry. */
const ENTRY_MODULE = workerModuleUrl(import.meta.url, "codec.js");

/** The codec's registered name (what zarr-python 3 writes). */
export const PCODEC_CODEC_NAME = "numcodecs.pcodec";

/**
 * The encoder settings numcodecs' `PCodec` writes into metadata. Decoding needs none of
 * them (a pcodec stream describes itself); they are checked and written back unchanged.
 */
export interface PcodecConfiguration {
  /** Compression level 0–12 (numcodecs' default: 8). */
  level: number;
  /** `"auto"` or `"classic"`. */
  mode_spec: string;
  /** `"auto"`, `"none"`, `"try_consecutive"`, `"try_lookback"` or `"try_conv1"`. */
  delta_spec: string;
  /** `"equal_pages_up_to"`. */
  paging_spec: string;
  /** A delta order 0–7 for `delta_spec: "try_consecutive"`, or `null`. */
  delta_encoding_order: number | null;
  /** Largest page (numbers). */
  equal_pages_up_to: number;
}

/** numcodecs' defaults. */
export const DEFAULT_PCODEC_CONFIGURATION: Readonly<PcodecConfiguration> = {
  level: 8,
  mode_spec: "auto",
  delta_spec: "auto",
  paging_spec: "equal_pages_up_to",
  delta_encoding_order: null,
  equal_pages_up_to: 262144,
};

const MODE_SPECS = ["auto", "classic"];
const DELTA_SPECS = ["auto", "none", "try_consecutive", "try_lookback", "try_conv1"];
const PAGING_SPECS = ["equal_pages_up_to"];

/** Bytes per element of the binary form, to bound decoding. */
const BYTES: Record<PcoNumberType, number> = { u8: 1, i8: 1, u16: 2, i16: 2, f16: 2, u32: 4, i32: 4, f32: 4, u64: 8, i64: 8, f64: 8 };

const HOST_IS_LITTLE_ENDIAN = new Uint8Array(Uint16Array.of(1).buffer)[0] === 1;

/**
 * The pcodec codec for one array: decodes each chunk's pcodec standalone stream into
 * the array's numbers, and encodes chunks with a simple encoder (see {@link pcoCompress}).
 *
 * @example
 * ```ts
 * const codec = new PcodecCodec("i32", DEFAULT_PCODEC_CONFIGURATION);
 * const chunk = codec.decode(bytes, spec, { key: "c/0" }); // an NdArray of spec.shape
 * ```
 */
export class PcodecCodec implements ArrayToBytesCodec {
  readonly kind = "array_to_bytes";
  readonly name = PCODEC_CODEC_NAME;

  /**
   * @param numberType - the pcodec number type of the array's data type
   * @param configuration - the encoder settings as metadata holds them
   */
  constructor(
    readonly numberType: PcoNumberType,
    readonly configuration: Readonly<PcodecConfiguration>,
  ) {}

  /**
   * Encodes a chunk with this package's simple encoder (classic mode, no delta encoding,
   * tANS-coded bins per page of at most `equal_pages_up_to` numbers): valid pcodec that
   * pcodec reads, but less compact than pcodec's own encoder. `level`, `mode_spec` and
   * `delta_spec` are written to metadata but not acted on.
   */
  encode(chunk: NdArray, spec: ChunkSpec, ctx: CodecCallContext): Uint8Array {
    throwIfAborted(ctx.signal);
    const toBytes = spec.dataType.toBytes;
    if (!toBytes) throw new ZarrError("UNSUPPORTED", `pcodec: cannot encode chunk "${ctx.key}" of data type ${spec.dataType.name}`, { key: ctx.key });
    const c = toCContiguous(chunk, spec.dataType);
    const n = shapeSize(c.shape);
    const raw = toBytes.call(spec.dataType, c.data, HOST_IS_LITTLE_ENDIAN);
    const size = BYTES[this.numberType];
    // Copy into an aligned buffer: the typed-array view below needs it.
    const aligned = new Uint8Array(raw.subarray(0, n * size)).buffer;
    const values = size === 1 ? new Uint8Array(aligned) : size === 2 ? new Uint16Array(aligned) : size === 4 ? new Uint32Array(aligned) : new BigUint64Array(aligned);
    return pcoCompress(values, this.numberType, { equalPagesUpTo: this.configuration.equal_pages_up_to });
  }

  /**
   * Decodes a chunk. A stream that is corrupt, truncated, of another number type or of
   * another length than the chunk fails with `CODEC_FAILED` naming `ctx.key`; nothing is
   * allocated beyond the chunk's size (or `ctx.maxDecodedBytes`, when smaller).
   */
  decode(bytes: Uint8Array, spec: ChunkSpec, ctx: CodecCallContext): NdArray {
    throwIfAborted(ctx.signal);
    const n = shapeSize(spec.shape);
    const elementBytes = BYTES[this.numberType];
    const bound = Math.min(n * elementBytes, ctx.maxDecodedBytes ?? Number.POSITIVE_INFINITY);
    const decoded = pcoDecompress(bytes, { key: ctx.key, maxDecodedBytes: bound });
    const fail = (what: string): never => {
      throw new ZarrError("CODEC_FAILED", `pcodec: chunk "${ctx.key}" ${what}`, { key: ctx.key });
    };
    if (decoded.values.length !== n) fail(`holds ${decoded.values.length} numbers, but the chunk has ${n}`);
    if (n > 0 && decoded.numberType !== this.numberType) {
      fail(`holds ${decoded.numberType} numbers, but the array's data type ${spec.dataType.name} needs ${this.numberType}`);
    }
    const values = decoded.values;
    const raw = new Uint8Array(values.buffer, values.byteOffset, n * elementBytes);
    const fromBytes = spec.dataType.fromBytes;
    if (!fromBytes) return fail(`cannot be read into data type ${spec.dataType.name}`);
    const data = fromBytes.call(spec.dataType, raw, n, HOST_IS_LITTLE_ENDIAN);
    return { data, shape: spec.shape.slice(), stride: cStrides(spec.shape) };
  }

  /** The codec as metadata: `{name: "numcodecs.pcodec", configuration}`. */
  toJSON(): ExtensionObject {
    return { name: PCODEC_CODEC_NAME, configuration: { ...this.configuration } };
  }
}

function oneOf(configuration: JsonObject, key: keyof PcodecConfiguration, allowed: string[], path: CodecBuildContext["path"]): string {
  const value = configuration[key] ?? DEFAULT_PCODEC_CONFIGURATION[key];
  if (typeof value !== "string" || !allowed.includes(value)) {
    throw new MetadataError([...path, "configuration", key], `expected one of ${allowed.map((a) => JSON.stringify(a)).join(", ")}, found ${describeJson(value)}`);
  }
  return value;
}

function integer(configuration: JsonObject, key: keyof PcodecConfiguration, min: number, max: number, path: CodecBuildContext["path"]): number {
  const value = configuration[key] ?? DEFAULT_PCODEC_CONFIGURATION[key];
  if (typeof value !== "number" || !Number.isInteger(value) || value < min || value > max) {
    throw new MetadataError([...path, "configuration", key], `expected an integer from ${min} to ${max}, found ${describeJson(value)}`);
  }
  return value;
}

/**
 * Validates a `numcodecs.pcodec` configuration as numcodecs writes it (every field
 * optional, numcodecs' defaults filled in; a numcodecs `id: "pcodec"` is tolerated) and
 * returns it complete.
 */
export function parsePcodecConfiguration(configuration: JsonObject, path: CodecBuildContext["path"]): PcodecConfiguration {
  for (const key of Object.keys(configuration)) {
    if (Object.hasOwn(DEFAULT_PCODEC_CONFIGURATION, key)) continue;
    if (key === "id" && configuration.id === "pcodec") continue;
    throw new MetadataError([...path, "configuration", key], `unknown pcodec codec option ${JSON.stringify(key)}`);
  }
  const order = configuration.delta_encoding_order ?? null;
  if (order !== null && (typeof order !== "number" || !Number.isInteger(order) || order < 0 || order > 7)) {
    throw new MetadataError([...path, "configuration", "delta_encoding_order"], `expected null or an integer from 0 to 7, found ${describeJson(order)}`);
  }
  return {
    level: integer(configuration, "level", 0, 12, path),
    mode_spec: oneOf(configuration, "mode_spec", MODE_SPECS, path),
    delta_spec: oneOf(configuration, "delta_spec", DELTA_SPECS, path),
    paging_spec: oneOf(configuration, "paging_spec", PAGING_SPECS, path),
    delta_encoding_order: order,
    equal_pages_up_to: integer(configuration, "equal_pages_up_to", 1, 2 ** 24, path),
  };
}

/**
 * The `numcodecs.pcodec` codec entry (alias `pcodec`, numcodecs' v2 id), an array→bytes
 * codec for arrays of 8- to 64-bit integers and 16- to 64-bit floats.
 *
 * @example
 * ```ts
 * const registry = createRegistry([pcodec]); // from @zarr/core
 * ```
 */
export const pcodec: CodecEntry = {
  type: "codec",
  name: PCODEC_CODEC_NAME,
  aliases: ["pcodec"],
  codecKind: "array_to_bytes",
  package: "@zarr/codec-pcodec",
  worker: { moduleUrl: ENTRY_MODULE, moduleName: "@zarr/codec-pcodec", exportName: "pcodec" },
  fromConfig(configuration: JsonObject, context: CodecBuildContext): PcodecCodec {
    const dataType = context.spec.dataType;
    const numberType = Object.hasOwn(ZARR_DATA_TYPES, dataType.name) ? ZARR_DATA_TYPES[dataType.name] : undefined;
    if (numberType === undefined) {
      throw new MetadataError(
        context.path,
        `the pcodec codec holds integers of 8 to 64 bits and floats of 16 to 64 bits, not the data type "${dataType.name}"`,
      );
    }
    return new PcodecCodec(numberType, parsePcodecConfiguration(configuration, context.path));
  },
};
