/**
 * The header libzfp writes before the compressed blocks (`zfp_write_header` with
 * `ZFP_HEADER_FULL`, as zfpy's `compress_numpy` does): a 32-bit magic (`"zfp"` and the codec
 * version), 52 bits of field metadata (scalar type, dimensionality, sizes) and 12 or 64 bits
 * naming the compression mode. Every field is read least significant bit first.
 */
import { ZarrError } from "@zarr/spec";
import { BitReader } from "./bit-reader.js";

/** The codec version libzfp 0.5.x and 1.0 write (and the only one whose format this decoder knows). */
export const ZFP_CODEC_VERSION = 5;

/** Scalar types of a ZFP field, by their numbering in the header (`zfp_type` − 1). */
export const ZFP_TYPES = ["int32", "int64", "float32", "float64"] as const;
/** A ZFP field's scalar type. */
export type ZfpType = (typeof ZFP_TYPES)[number];

/** The compression modes, as `zfp_stream_compression_mode` classifies the parameters. */
export type ZfpMode = "fixed-rate" | "fixed-precision" | "fixed-accuracy" | "reversible" | "expert";

/** libzfp's limits on the parameters. */
export const ZFP_MIN_BITS = 1;
export const ZFP_MAX_BITS = 16658;
export const ZFP_MAX_PREC = 64;
export const ZFP_MIN_EXP = -1074;

/** The four parameters every ZFP mode comes down to. */
export interface ZfpParams {
  /** Fewest bits a block takes (a block that needs fewer is padded). */
  minbits: number;
  /** Most bits a block may take. */
  maxbits: number;
  /** Most bit planes coded per block. */
  maxprec: number;
  /** Smallest bit plane coded (absolute error ≈ 2^minexp); below ZFP_MIN_EXP means reversible. */
  minexp: number;
}

/** A parsed ZFP header. */
export interface ZfpHeader {
  type: ZfpType;
  /** Field sizes, x (fastest varying) first: 1 to 4 of them. */
  size: number[];
  params: ZfpParams;
  mode: ZfpMode;
  /** Bits the mode took: 12 for the common settings, 64 for the expert form (any other parameters). */
  modeBits: 12 | 64;
  /** Bit position of the first block. */
  dataBit: number;
}

function corrupt(message: string, key: string): ZarrError {
  return new ZarrError("CODEC_FAILED", `zfpy: chunk "${key}": ${message}`, { key });
}

/** Shortest header: magic, metadata and a short mode. */
const MIN_HEADER_BITS = 32 + 52 + 12;
/** Largest short mode value; 0xfff announces the 64-bit form. */
const MODE_SHORT_MAX = 4094;

/**
 * Reads the header of a ZFP stream (what zfpy's `compress_numpy` writes first): scalar
 * type, sizes, mode and its parameters. Throws a `CODEC_FAILED` `ZarrError` for bytes that
 * are not a ZFP stream, `UNSUPPORTED` for an unknown codec version.
 *
 * @example
 * ```ts
 * const { type, size, mode } = readZfpHeader(bytes); // "float32", [7, 5, 3] (x first), "fixed-accuracy"
 * ```
 */
export function readZfpHeader(bytes: Uint8Array, key = "<zfp stream>"): ZfpHeader {
  return readHeader(new BitReader(bytes), key);
}

/** Reads and checks the header at the reader's position; leaves the reader on the first block. */
export function readHeader(reader: BitReader, key: string): ZfpHeader {
  if (reader.length - reader.pos < MIN_HEADER_BITS) throw corrupt(`${reader.length / 8} bytes are too short for a ZFP header`, key);
  const magic = [reader.bits(8), reader.bits(8), reader.bits(8)];
  if (magic[0] !== 0x7a || magic[1] !== 0x66 || magic[2] !== 0x70) {
    throw corrupt(`not a ZFP stream (it starts with ${magic.map((b) => b.toString(16).padStart(2, "0")).join(" ")}, not "zfp")`, key);
  }
  const version = reader.bits(8);
  if (version !== ZFP_CODEC_VERSION) {
    throw new ZarrError("UNSUPPORTED", `zfpy: chunk "${key}" is ZFP codec version ${version}; only version ${ZFP_CODEC_VERSION} (libzfp 0.5.x and 1.x) is supported`, { key });
  }
  const type = ZFP_TYPES[reader.bits(2)];
  const dims = reader.bits(2) + 1;
  // 48 bits of sizes minus one, split evenly between the dimensions, x first.
  const width = 48 / dims;
  const size: number[] = [];
  for (let d = 0; d < dims; d++) size.push(readWide(reader, width) + 1);
  // libzfp keeps only the low 32 bits of a 1-D size (zfp_field_set_metadata).
  if (dims === 1) size[0] = ((size[0] - 1) % 2 ** 32) + 1;
  const modeStart = reader.pos;
  const params = readMode(reader, key);
  const modeBits = reader.pos - modeStart === 12 ? 12 : 64;
  return { type, size, params, mode: modeOf(params), modeBits, dataBit: reader.pos };
}

/** Reads up to 48 bits as a number. */
function readWide(reader: BitReader, n: number): number {
  if (n <= 32) return reader.bits(n);
  const low = reader.bits(32);
  return low + reader.bits(n - 32) * 2 ** 32;
}

/** Reads the mode (`zfp_stream_set_mode`): 12 bits for the common modes, else 64. */
function readMode(reader: BitReader, key: string): ZfpParams {
  const short = reader.bits(12);
  let params: ZfpParams;
  if (short < 2048) {
    params = { minbits: short + 1, maxbits: short + 1, maxprec: ZFP_MAX_PREC, minexp: ZFP_MIN_EXP };
  } else if (short < 2048 + 128) {
    params = { minbits: ZFP_MIN_BITS, maxbits: ZFP_MAX_BITS, maxprec: short + 1 - 2048, minexp: ZFP_MIN_EXP };
  } else if (short === 2048 + 128) {
    params = { minbits: ZFP_MIN_BITS, maxbits: ZFP_MAX_BITS, maxprec: ZFP_MAX_PREC, minexp: ZFP_MIN_EXP - 1 };
  } else if (short <= MODE_SHORT_MAX) {
    params = { minbits: ZFP_MIN_BITS, maxbits: ZFP_MAX_BITS, maxprec: ZFP_MAX_PREC, minexp: short + ZFP_MIN_EXP - (2048 + 128 + 1) };
  } else {
    // Expert form: minbits (15 bits), maxbits (15), maxprec (7), minexp + 16495 (15).
    if (reader.length - reader.pos < 52) throw corrupt("the stream ends inside the ZFP header", key);
    const minbits = reader.bits(15) + 1;
    const maxbits = reader.bits(15) + 1;
    const maxprec = reader.bits(7) + 1;
    const minexp = reader.bits(15) - 16495;
    params = { minbits, maxbits, maxprec, minexp };
  }
  // What zfp_stream_set_params refuses.
  if (params.minbits > params.maxbits || params.maxprec > ZFP_MAX_PREC) {
    throw corrupt(`invalid ZFP mode (minbits ${params.minbits}, maxbits ${params.maxbits}, maxprec ${params.maxprec})`, key);
  }
  return params;
}

/** The mode name `zfp_stream_compression_mode` gives these parameters. */
export function modeOf(p: ZfpParams): ZfpMode {
  if (p.minbits === ZFP_MIN_BITS && p.maxbits === ZFP_MAX_BITS && p.maxprec === ZFP_MAX_PREC && p.minexp === ZFP_MIN_EXP) return "expert";
  if (p.minbits === p.maxbits && p.maxbits >= 1 && p.maxbits <= ZFP_MAX_BITS && p.maxprec >= ZFP_MAX_PREC && p.minexp === ZFP_MIN_EXP) return "fixed-rate";
  const open = p.minbits <= ZFP_MIN_BITS && p.maxbits >= ZFP_MAX_BITS;
  if (open && p.maxprec >= 1 && p.minexp === ZFP_MIN_EXP) return "fixed-precision";
  if (open && p.maxprec >= ZFP_MAX_PREC && p.minexp >= ZFP_MIN_EXP) return "fixed-accuracy";
  if (open && p.maxprec >= ZFP_MAX_PREC && p.minexp < ZFP_MIN_EXP) return "reversible";
  return "expert";
}
