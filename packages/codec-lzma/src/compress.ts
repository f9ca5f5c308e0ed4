/** Compression and decompression in the three numcodecs/Python `lzma` formats. */
import { type JsonPath, MetadataError, ZarrError } from "@zarr/spec";
import { CHECK_CRC64 } from "./check/check.js";
import { corrupt } from "./errors.js";
import { deltaDecode, deltaEncode } from "./filters/delta.js";
import { x86Convert } from "./filters/x86.js";
import { encodeLzma1, encodeLzma2 } from "./lzma/lzma-stream-encoder.js";
import { ALONE_HEADER_SIZE, decodeAlone, decodeLzma1 } from "./lzma/lzma1-decoder.js";
import { decodeLzma2, scanLzma2 } from "./lzma/lzma2-decoder.js";
import { propsByte } from "./lzma/model.js";
import { declaredDictSize, type LzmaEncoderSettings, presetSettings } from "./lzma/settings.js";
import {
  CHECK_DEFAULT,
  type FilterStep,
  FORMAT_ALONE,
  FORMAT_AUTO,
  FORMAT_RAW,
  FORMAT_XZ,
  type LzmaOptions,
  type OptionFailure,
  type ParsedOptions,
  parseOptions,
  validateChain,
} from "./options.js";
import { OutputBuffer } from "./output-buffer.js";
import { decodeXzFile } from "./xz/decoder.js";
import { type AppliedFilter, encodeXzStream } from "./xz/encoder.js";
import { hasXzMagic } from "./xz/format.js";

/** Options failures of the plain functions: `INVALID_ARGUMENT` naming the option. */
export function argumentFailure(path: JsonPath, problem: string): never {
  throw new ZarrError("INVALID_ARGUMENT", `lzma: invalid option ${path.join(".")}: ${problem}`);
}

/** Parses options given to the plain functions. */
export function parseArgumentOptions(options: LzmaOptions | undefined): ParsedOptions {
  return parseOptions({ ...(options ?? {}) } as Record<string, unknown>, argumentFailure);
}

/**
 * Compresses with parsed options. `fail` reports option combinations only invalid for
 * encoding (a preset together with filters, checks outside .xz, FORMAT_AUTO).
 */
export function compressWith(input: Uint8Array, options: ParsedOptions, key: string, fail: OptionFailure): Uint8Array {
  const { format, chain } = options;
  if (format === FORMAT_AUTO) fail(["format"], "format 0 (auto) can only decompress");
  if (options.preset !== null && chain !== null) fail(["preset"], "give either a preset or filters, not both");
  if (format !== FORMAT_XZ && options.check !== CHECK_DEFAULT && options.check !== 0) {
    fail(["check"], "integrity checks are only supported by format 1 (xz)");
  }
  const preset = options.preset ?? 6;
  if (format === FORMAT_XZ) {
    const checkId = options.check === CHECK_DEFAULT ? CHECK_CRC64 : options.check;
    if (chain === null) return encodeXzStream(input, input, [], presetSettings(preset), checkId, key);
    validateChain(chain, FORMAT_XZ, fail);
    const { filtered, applied } = applyFilters(input, chain, key);
    return encodeXzStream(input, filtered, applied, lastSettings(chain), checkId, key);
  }
  if (format === FORMAT_ALONE) {
    if (chain !== null) validateChain(chain, FORMAT_ALONE, fail);
    const settings = chain === null ? presetSettings(preset) : lastSettings(chain);
    const out = new OutputBuffer(ALONE_HEADER_SIZE + (input.length >>> 1) + 1024, key);
    const h = out.bytes;
    h[0] = propsByte(settings.lc, settings.lp, settings.pb);
    const dict = declaredDictSize(settings.dictSize, input.length);
    h[1] = dict & 0xff;
    h[2] = (dict >>> 8) & 0xff;
    h[3] = (dict >>> 16) & 0xff;
    h[4] = dict >>> 24;
    // Size unknown (all ones): the stream ends with an end marker, as liblzma writes it.
    h.fill(0xff, 5, ALONE_HEADER_SIZE);
    out.length = ALONE_HEADER_SIZE;
    encodeLzma1(input, settings, out);
    return out.result();
  }
  // Raw: the filter chain is the whole format.
  const rawChain = chain as FilterStep[];
  const { filtered } = applyFilters(input, rawChain, key);
  const last = rawChain[rawChain.length - 1];
  const out = new OutputBuffer((input.length >>> 1) + 1024, key);
  if (last.kind === "lzma2") encodeLzma2(filtered, last.settings, out);
  else encodeLzma1(filtered, lastSettings(rawChain), out);
  return out.result();
}

function lastSettings(chain: FilterStep[]): LzmaEncoderSettings {
  const last = chain[chain.length - 1];
  if (last.kind !== "lzma1" && last.kind !== "lzma2") throw new Error("unreachable: chain validated");
  return last.settings;
}

/** Applies the non-last filters of a chain to a copy of the input. */
function applyFilters(
  input: Uint8Array,
  chain: FilterStep[],
  key: string,
): { filtered: Uint8Array; applied: AppliedFilter[] } {
  if (chain.length === 1) return { filtered: input, applied: [] };
  const buf = input.slice();
  const applied: AppliedFilter[] = [];
  for (let i = 0; i < chain.length - 1; i++) {
    const f = chain[i];
    if (f.kind === "delta") {
      deltaEncode(buf, f.distance);
      applied.push(f);
    } else if (f.kind === "x86") {
      x86Convert(buf, 0, buf.length, f.startOffset, true);
      applied.push(f);
    } else {
      throw unsupportedFilter(f, key);
    }
  }
  return { filtered: buf, applied };
}

function unsupportedFilter(f: FilterStep, key: string): ZarrError {
  const id = f.kind === "unsupported" ? f.id : 0;
  return new ZarrError(
    "UNSUPPORTED",
    `lzma: "${key}": BCJ filter ${id} is not supported (only delta and x86 are)`,
    { key },
  );
}

/**
 * Decompresses with parsed options. Like Python's `lzma.decompress`, concatenated streams
 * are all decoded; .xz additionally allows stream padding between and after streams.
 * Output past `maxSize` fails before it is allocated (declared sizes are checked first).
 */
export function decompressWith(input: Uint8Array, options: ParsedOptions, key: string, maxSize?: number): Uint8Array {
  const format = options.format;
  if (format === FORMAT_RAW) return decompressRaw(input, options.chain as FilterStep[], key, maxSize);
  if (hasXzMagic(input)) return decodeXzFile(input, key, maxSize);
  if (format === FORMAT_XZ) throw corrupt(key, "not .xz data (bad magic bytes)");
  // .lzma (FORMAT_ALONE, or FORMAT_AUTO without the .xz magic).
  const output = new OutputBuffer(0, key, maxSize);
  let pos = 0;
  do {
    pos = decodeAlone(input, pos, input.length, output, key);
  } while (pos < input.length);
  return output.result();
}

function decompressRaw(input: Uint8Array, chain: FilterStep[], key: string, maxSize?: number): Uint8Array {
  const last = chain[chain.length - 1];
  for (let i = 0; i < chain.length - 1; i++) {
    if (chain[i].kind === "unsupported") throw unsupportedFilter(chain[i], key);
  }
  const output = new OutputBuffer(0, key, maxSize);
  let pos = 0;
  do {
    const streamStart = output.length;
    if (last.kind === "lzma2") {
      const scan = scanLzma2(input, pos, input.length, key);
      output.ensure(output.length + scan.size);
      pos = decodeLzma2(input, pos, scan.end, output, key);
    } else {
      const s = lastSettings(chain);
      pos = decodeLzma1(input, pos, input.length, output, key, s.lc, s.lp, s.pb, -1);
    }
    for (let i = chain.length - 2; i >= 0; i--) {
      const f = chain[i];
      if (f.kind === "delta") deltaDecode(output.bytes, streamStart, output.length, f.distance);
      else if (f.kind === "x86") x86Convert(output.bytes, streamStart, output.length, f.startOffset, false);
    }
  } while (pos < input.length);
  return output.result();
}

/** Wraps failures that are not already `ZarrError`s (e.g. allocation failures) as CODEC_FAILED. */
export function guard<T>(key: string, action: string, run: () => T): T {
  try {
    return run();
  } catch (error) {
    if (error instanceof ZarrError) throw error;
    const detail = error instanceof Error ? error.message : String(error);
    throw new ZarrError("CODEC_FAILED", `lzma: cannot ${action} "${key}": ${detail}`, { key, cause: error });
  }
}

/** MetadataError reporter for a codec configuration at `path`. */
export function metadataFailure(path: JsonPath): OptionFailure {
  return (sub, problem) => {
    throw new MetadataError([...path, "configuration", ...sub], problem);
  };
}
