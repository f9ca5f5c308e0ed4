/**
 * The numcodecs `lz4` codec: a 4-byte little-endian uncompressed size, then one LZ4
 * block. Registered as "numcodecs.lz4" (how zarr-python 3 writes it in v3 metadata)
 * with the alias "lz4" (the numcodecs id used in v2 metadata).
 */
import {
  type BytesToBytesCodec,
  type CodecEntry,
  decodedSizeExceeded,
  describeJson,
  type JsonObject,
  MetadataError,
  workerModuleUrl,
  ZarrError,
} from "@zarr/spec";
import { lz4DecompressBlockInto } from "./lz4-decode.js";
import { lz4CompressBlockInto, lz4CompressBound } from "./lz4-encode.js";
import { decodeBytes, decodeWithKernel, encodeBytes, encodeWithKernel, lz4Kernel, prepareLz4Kernel } from "./lz4-kernel.js";

/** Where worker threads find the decoder. */
const ENTRY_MODULE = workerModuleUrl(import.meta.url, "numcodecs-lz4.js");

/** LZ4 cannot expand data by more than this factor (a 1-byte match token covers at most ~255 bytes). */
const MAX_RATIO = 255;

/** The configuration of the numcodecs lz4 codec. */
export interface Lz4Config {
  /** LZ4 acceleration: 1 (default) compresses best; larger is faster. */
  acceleration: number;
}

/** Parses `{acceleration?}`; `id: "lz4"` (numcodecs' own field) is tolerated. */
function parseConfig(configuration: JsonObject, path: ReadonlyArray<string | number>): Lz4Config {
  for (const key of Object.keys(configuration)) {
    if (key === "acceleration") continue;
    if (key === "id" && configuration.id === "lz4") continue;
    throw new MetadataError([...path, "configuration", key], `unknown configuration field "${key}" for lz4`);
  }
  const acceleration = configuration.acceleration ?? 1;
  if (typeof acceleration !== "number" || !Number.isSafeInteger(acceleration)) {
    throw new MetadataError([...path, "configuration", "acceleration"], `expected an integer, got ${describeJson(acceleration)}`);
  }
  return { acceleration };
}

/**
 * Encodes bytes in the numcodecs lz4 framing (uint32 LE size + LZ4 block), with the
 * WebAssembly kernel where it runs (the same bytes as the TypeScript encoder).
 *
 * @example
 * ```ts
 * const framed = numcodecsLz4Encode(bytes, 1);
 * ```
 */
export function numcodecsLz4Encode(input: Uint8Array, acceleration = 1): Uint8Array {
  if (input.length > 0x7e000000) {
    throw new ZarrError("INVALID_ARGUMENT", `lz4 cannot compress ${input.length} bytes (the limit is 2113929216)`);
  }
  const kernel = lz4Kernel(encodeBytes(input.length));
  let out: Uint8Array;
  if (kernel !== undefined) {
    out = encodeWithKernel(kernel, input, acceleration, 4);
  } else {
    out = new Uint8Array(4 + lz4CompressBound(input.length));
    out = out.subarray(0, 4 + lz4CompressBlockInto(input, out, 4, out.length, acceleration));
  }
  new DataView(out.buffer, out.byteOffset).setUint32(0, input.length, true);
  return out;
}

/**
 * Decodes the numcodecs lz4 framing (with the WebAssembly kernel where it runs). Throws
 * `CODEC_FAILED` naming `key` for corrupt
 * input, including a size header larger than LZ4 could produce from the block or than
 * `maxSize` (both checked before allocating).
 *
 * @example
 * ```ts
 * const bytes = numcodecsLz4Decode(framed, "c/0");
 * ```
 */
export function numcodecsLz4Decode(input: Uint8Array, key = "(unknown)", maxSize = 0x7fffffff): Uint8Array {
  if (input.length < 5) {
    throw new ZarrError("CODEC_FAILED", `lz4 chunk "${key}" is ${input.length} bytes, too short for a size header and a block`, {
      key,
    });
  }
  const size = new DataView(input.buffer, input.byteOffset, 4).getUint32(0, true);
  const blockLength = input.length - 4;
  if (size > MAX_RATIO * blockLength + 16 || size > 0x7fffffff) {
    throw new ZarrError(
      "CODEC_FAILED",
      `lz4 chunk "${key}" claims ${size} decoded bytes, more than a ${blockLength}-byte LZ4 block can hold`,
      { key },
    );
  }
  if (size > maxSize) throw decodedSizeExceeded("lz4", { key, maxDecodedBytes: maxSize }, size);
  let out: Uint8Array;
  try {
    out = new Uint8Array(size);
  } catch (error) {
    throw new ZarrError("CODEC_FAILED", `lz4 chunk "${key}" needs ${size} bytes, which cannot be allocated`, { key, cause: error });
  }
  let written: number;
  try {
    const block = input.subarray(4);
    const kernel = lz4Kernel(decodeBytes(block.length, size));
    written = kernel !== undefined ? decodeWithKernel(kernel, block, out) : lz4DecompressBlockInto(block, out, 0, size);
  } catch (error) {
    const detail = error instanceof Error ? error.message : String(error);
    throw new ZarrError("CODEC_FAILED", `Cannot decode lz4 chunk "${key}": ${detail}`, { key, cause: error });
  }
  if (written !== size) {
    throw new ZarrError("CODEC_FAILED", `lz4 chunk "${key}" decoded to ${written} bytes, its header says ${size}`, { key });
  }
  return out;
}

/**
 * The numcodecs lz4 codec entry: name "numcodecs.lz4", alias "lz4", configuration
 * `{acceleration: integer}` (default 1).
 *
 * @example
 * ```ts
 * const registry = createRegistry([lz4]);
 * // codecs: [{name: "bytes", configuration: {endian: "little"}}, {name: "numcodecs.lz4", configuration: {acceleration: 1}}]
 * ```
 */
export const lz4: CodecEntry = {
  type: "codec",
  name: "numcodecs.lz4",
  aliases: ["lz4"],
  codecKind: "bytes_to_bytes",
  package: "@zarr/codec-lz4",
  worker: { moduleUrl: ENTRY_MODULE, moduleName: "@zarr/codec-lz4", exportName: "lz4" },
  fromConfig(configuration, { path }): BytesToBytesCodec {
    const { acceleration } = parseConfig(configuration, path);
    prepareLz4Kernel();
    return {
      kind: "bytes_to_bytes",
      name: "numcodecs.lz4",
      encode: (bytes) => numcodecsLz4Encode(bytes, acceleration),
      decode: (bytes, ctx) => numcodecsLz4Decode(bytes, ctx.key, ctx.maxDecodedBytes),
      toJSON: () => ({ name: "numcodecs.lz4", configuration: { acceleration } }),
    };
  },
};
