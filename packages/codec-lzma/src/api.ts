/** Plain compress/decompress functions, for use outside a codec pipeline. */
import { argumentFailure as fail, compressWith, decompressWith, guard, parseArgumentOptions } from "./compress.js";
import { FORMAT_XZ, type LzmaFilterSpec, type LzmaOptions } from "./options.js";

/** What error messages call the input of the plain functions (they have no chunk key). */
const KEY = "(input)";

/** Options of {@link xzCompress}. */
export interface XzCompressOptions {
  /** -1 (default: CRC64), 0 none, 1 CRC32, 4 CRC64, 10 SHA-256. */
  check?: number;
  /** 0-9 (default 6), optionally | PRESET_EXTREME. Not together with `filters`. */
  preset?: number | null;
  /** Filter chain ending with LZMA2, e.g. `[{ id: 3, dist: 4 }, { id: 33, preset: 1 }]`. */
  filters?: readonly LzmaFilterSpec[] | null;
}

/**
 * Compresses `input` into an .xz stream (LZMA2, CRC64 check by default), readable by
 * `xz`, liblzma and Python's `lzma.decompress`.
 */
export function xzCompress(input: Uint8Array, options: XzCompressOptions = {}): Uint8Array {
  const parsed = parseArgumentOptions({ ...options, format: FORMAT_XZ });
  return guard(KEY, "encode", () => compressWith(input, parsed, KEY, fail));
}

/**
 * Decompresses .xz data (concatenated streams and stream padding included), verifying every
 * block check. Throws `ZarrError` `CODEC_FAILED` or `CHECKSUM_MISMATCH`.
 */
export function xzDecompress(input: Uint8Array): Uint8Array {
  const parsed = parseArgumentOptions({ format: FORMAT_XZ });
  return guard(KEY, "decode", () => decompressWith(input, parsed, KEY));
}

/** Compresses in any numcodecs/Python `lzma` format: `{format: 1 | 2 | 3, check, preset, filters}`. */
export function lzmaCompress(input: Uint8Array, options: LzmaOptions = {}): Uint8Array {
  const parsed = parseArgumentOptions(options);
  return guard(KEY, "encode", () => compressWith(input, parsed, KEY, fail));
}

/** Decompresses any numcodecs/Python `lzma` format (raw needs `filters`; format 0 detects .xz/.lzma). */
export function lzmaDecompress(input: Uint8Array, options: LzmaOptions = {}): Uint8Array {
  const parsed = parseArgumentOptions(options);
  return guard(KEY, "decode", () => decompressWith(input, parsed, KEY));
}
