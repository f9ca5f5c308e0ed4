/**
 * Decompression of a whole ZFP stream as zfpy's `compress_numpy` writes it (header, then
 * the blocks in order, x fastest), into a C-order array shaped like the NumPy array that
 * was compressed: ZFP's x axis is NumPy's last.
 */
import { DEFAULT_MAX_CHUNK_BYTES, throwIfAborted, ZarrError } from "@zarr/spec";
import { BitReader } from "./bit-reader.js";
import { Block32Decoder } from "./block32.js";
import { Block64Decoder } from "./block64.js";
import { readHeader, type ZfpMode, type ZfpParams, type ZfpType } from "./header.js";

/** Options of {@link zfpDecompress}. */
export interface ZfpDecompressOptions {
  /** Names the data in error messages (a chunk key). */
  key?: string;
  /** Most bytes the decoded array may take; checked against the header before allocating. Default 2 GiB. */
  maxOutputBytes?: number;
  /** Stops between blocks when aborted. */
  signal?: AbortSignal;
}

/** A decompressed ZFP array. */
export interface ZfpArray {
  type: ZfpType;
  /** NumPy shape (slowest axis first): the header's sizes reversed. */
  shape: number[];
  /** The values in C order. */
  data: Float32Array | Float64Array | Int32Array | BigInt64Array;
  mode: ZfpMode;
  params: ZfpParams;
}

const ITEM_SIZE: Record<ZfpType, number> = { int32: 4, int64: 8, float32: 4, float64: 8 };

/**
 * Decompresses a ZFP stream with a full header (zfpy's `compress_numpy` output, the
 * `numcodecs.zfpy` / `zfpy` chunk format), matching libzfp 1.0's `decompress_numpy`
 * bit for bit. Corrupt or truncated input, and a header announcing more than
 * `maxOutputBytes`, throw a `CODEC_FAILED` `ZarrError`; an unknown codec version `UNSUPPORTED`;
 * an aborted `signal` stops it between rows of blocks with `ABORTED`.
 *
 * @example
 * ```ts
 * const { shape, data } = zfpDecompress(bytes, { key: "t2m/c/0/0" }); // e.g. [3, 5, 7], Float32Array(105)
 * ```
 */
export function zfpDecompress(bytes: Uint8Array, options: ZfpDecompressOptions = {}): ZfpArray {
  const key = options.key ?? "<zfp stream>";
  const reader = new BitReader(bytes);
  const header = readHeader(reader, key);
  const { type, size, params } = header;
  const count = size.reduce((a, b) => a * b, 1);
  const byteLength = count * ITEM_SIZE[type];
  const limit = options.maxOutputBytes ?? DEFAULT_MAX_CHUNK_BYTES;
  if (byteLength > limit) {
    throw new ZarrError(
      "CODEC_FAILED",
      `zfpy: chunk "${key}" would decode to ${byteLength} bytes, more than the ${limit} bytes it may hold (corrupt data, or a decompression bomb)`,
      { key },
    );
  }
  // Every block takes at least one bit: a stream too short for its blocks is cut off,
  // and is refused before the output is allocated.
  const dims = size.length;
  const blocksPerAxis = size.map((n) => Math.ceil(n / 4));
  const blocks = blocksPerAxis.reduce((a, b) => a * b, 1);
  if (blocks > reader.length - reader.pos) throw truncated(key);

  const wide = type === "int64" || type === "float64";
  const isFloat = type === "float32" || type === "float64";
  const decoder = wide ? new Block64Decoder(dims, params, isFloat) : new Block32Decoder(dims, params, isFloat);
  const data = allocate(type, count);
  // Values are moved as 32-bit words: reading a float into a JS number would quiet a
  // signalling NaN, and a NaN's bits must come out as libzfp leaves them.
  const words = wide ? 2 : 1;
  const block = decoder.words;
  const out = new Int32Array(data.buffer);
  const [nx, ny = 1, nz = 1, nw = 1] = size;
  const [bx, by = 1, bz = 1, bw = 1] = blocksPerAxis;
  const sy = nx;
  const sz = nx * ny;
  const sw = nx * ny * nz;
  for (let w = 0; w < bw; w++) {
    for (let z = 0; z < bz; z++) {
      for (let y = 0; y < by; y++) {
        throwIfAborted(options.signal);
        for (let x = 0; x < bx; x++) {
          decoder.decode(reader);
          if (reader.pos > reader.length) throw truncated(key);
          // Scatter the block's values that lie inside the field (edge blocks are partial).
          const cx = Math.min(4, nx - 4 * x);
          const cy = Math.min(4, ny - 4 * y);
          const cz = Math.min(4, nz - 4 * z);
          const cw = Math.min(4, nw - 4 * w);
          for (let l = 0; l < cw; l++) {
            for (let k = 0; k < cz; k++) {
              for (let j = 0; j < cy; j++) {
                const src = (4 * j + 16 * k + 64 * l) * words;
                const dst = (4 * x + (4 * y + j) * sy + (4 * z + k) * sz + (4 * w + l) * sw) * words;
                for (let i = 0; i < cx * words; i++) out[dst + i] = block[src + i];
              }
            }
          }
        }
      }
    }
  }
  return { type, shape: [...size].reverse(), data, mode: header.mode, params };
}

function allocate(type: ZfpType, count: number): ZfpArray["data"] {
  switch (type) {
    case "int32":
      return new Int32Array(count);
    case "int64":
      return new BigInt64Array(count);
    case "float32":
      return new Float32Array(count);
    case "float64":
      return new Float64Array(count);
  }
}

function truncated(key: string): ZarrError {
  return new ZarrError("CODEC_FAILED", `zfpy: chunk "${key}" is cut off: the ZFP stream ends before its last block`, { key });
}
