/**
 * The binary layout of one shard shape: how many inner chunks it has, where its index
 * is, and how the index is decoded (validating every entry) and encoded.
 *
 * The index is a uint64 array of shape `[...chunksPerShard, 2]` holding `(offset, nbytes)`
 * per inner chunk in C order; both `2^64 − 1` marks an empty inner chunk. In memory it is
 * a Float64Array (offsets and sizes are validated to be below 2^53, so they are exact).
 */
import {
  type ByteRange,
  type ChunkSpec,
  type CodecCallContext,
  type CodecPipeline,
  cStrides,
  type DataType,
  type NdArray,
  shapeSize,
  toCContiguous,
  ZarrError,
} from "@zarr/spec";
import type { IndexLocation } from "./configuration.js";
import { corruptShard } from "./errors.js";

/** The uint64 value 2^64 − 1, marking an empty inner chunk. */
export const EMPTY_U64 = 0xffff_ffff_ffff_ffffn;

/** Offset stored in {@link ShardIndex.entries} for an empty inner chunk. */
export const EMPTY = -1;

const LITTLE_ENDIAN_HOST = new Uint8Array(new Uint16Array([1]).buffer)[0] === 1;
/** Position of the low and high 32-bit word of a uint64 in a Uint32Array view. */
const LO = LITTLE_ENDIAN_HOST ? 0 : 1;
const HI = 1 - LO;
const TWO_32 = 2 ** 32;
/** High words at or above this make a value ≥ 2^53 (not exactly representable). */
const HI_LIMIT = 2 ** 21;

/** A decoded, validated shard index. */
export interface ShardIndex {
  /** `[offset, nbytes]` per inner chunk in C order; offset {@link EMPTY} marks an empty inner chunk. */
  readonly entries: Float64Array;
  /** Largest `offset + nbytes` of a non-empty inner chunk (0 when every one is empty). */
  readonly maxEnd: number;
  /** Number of non-empty inner chunks. */
  readonly filled: number;
}

/** The layout of shards of one shape. */
export class ShardFormat {
  /** Inner chunks per shard along each dimension. */
  readonly chunksPerShard: readonly number[];
  /** C-order strides of the inner chunk grid. */
  readonly gridStrides: readonly number[];
  /** Number of inner chunks. */
  readonly count: number;
  /** The index as an array: uint64 of shape `[...chunksPerShard, 2]`. */
  readonly indexSpec: ChunkSpec;

  constructor(
    readonly shardShape: readonly number[],
    readonly chunkShape: readonly number[],
    readonly location: IndexLocation,
    private readonly indexCodecs: CodecPipeline,
    private readonly uint64: DataType,
    /** Encoded size of the index in bytes. */
    readonly indexBytes: number,
  ) {
    this.chunksPerShard = shardShape.map((n, d) => n / chunkShape[d]);
    this.gridStrides = cStrides(this.chunksPerShard);
    this.count = shapeSize(this.chunksPerShard);
    this.indexSpec = { shape: [...this.chunksPerShard, 2], dataType: uint64, fillValue: EMPTY_U64 };
  }

  /** Grid coordinates of inner chunk `linear` (for messages and keys). */
  coords(linear: number): number[] {
    const out = new Array<number>(this.chunksPerShard.length);
    for (let d = 0; d < out.length; d++) {
      out[d] = Math.floor(linear / this.gridStrides[d]) % this.chunksPerShard[d];
    }
    return out;
  }

  /** The byte range of the index in a shard of unknown length. */
  indexRange(): ByteRange {
    return this.location === "end" ? { suffixLength: this.indexBytes } : { offset: 0, length: this.indexBytes };
  }

  /** The encoded index inside a whole shard (which must be at least `indexBytes` long). */
  indexIn(shard: Uint8Array): Uint8Array {
    return this.location === "end"
      ? shard.subarray(shard.length - this.indexBytes)
      : shard.subarray(0, this.indexBytes);
  }

  /** An index with every inner chunk empty. */
  emptyIndex(): ShardIndex {
    const entries = new Float64Array(2 * this.count);
    for (let i = 0; i < entries.length; i += 2) entries[i] = EMPTY;
    return { entries, maxEnd: 0, filled: 0 };
  }

  /** Throws unless a shard read as `length` bytes can hold the index. */
  checkHoldsIndex(length: number, key: string): void {
    if (length < this.indexBytes) {
      throw corruptShard(key, `the shard is ${length} bytes long, too short for its ${this.indexBytes}-byte index`);
    }
  }

  /**
   * Decodes and validates an encoded index: every entry must be the empty marker or an
   * exactly representable `(offset, nbytes)` with `nbytes ≤ maxInnerChunkBytes` that
   * does not overlap an index at the start. (Checks against the shard's length are
   * separate; see {@link checkLength}.)
   */
  async decodeIndex(bytes: Uint8Array, ctx: CodecCallContext, maxInnerChunkBytes: number): Promise<ShardIndex> {
    if (bytes.length !== this.indexBytes) {
      throw corruptShard(ctx.key, `the index is ${bytes.length} bytes long, expected ${this.indexBytes}`);
    }
    let decoded: NdArray;
    try {
      decoded = toCContiguous(await this.indexCodecs.decode(bytes, this.indexSpec, { key: ctx.key, signal: ctx.signal }), this.uint64);
    } catch (error) {
      // Keep the code (CHECKSUM_MISMATCH stays CHECKSUM_MISMATCH), say it was the index.
      if (error instanceof ZarrError && error.code === "ABORTED") throw error;
      const code = error instanceof ZarrError ? error.code : "CODEC_FAILED";
      const detail = error instanceof Error ? error.message : String(error);
      throw new ZarrError(code, `Corrupt shard "${ctx.key}": its index could not be decoded: ${detail}`, {
        key: ctx.key,
        cause: error,
      });
    }
    const data = decoded.data;
    const n = this.count;
    if (!(data instanceof BigUint64Array) || data.length !== 2 * n) {
      throw corruptShard(ctx.key, `the index codecs produced ${data.length} values, expected ${2 * n} uint64 values`);
    }
    // Read the uint64s as pairs of 32-bit words: no BigInt work per entry.
    const words = new Uint32Array(data.buffer, data.byteOffset, 4 * n);
    const entries = new Float64Array(2 * n);
    const ib = this.indexBytes;
    const startIndex = this.location === "start";
    let maxEnd = 0;
    let filled = 0;
    for (let i = 0; i < n; i++) {
      const w = 4 * i;
      const offLo = words[w + LO];
      const offHi = words[w + HI];
      const nbLo = words[w + 2 + LO];
      const nbHi = words[w + 2 + HI];
      const offEmpty = offLo === 0xffffffff && offHi === 0xffffffff;
      const nbEmpty = nbLo === 0xffffffff && nbHi === 0xffffffff;
      if (offEmpty && nbEmpty) {
        entries[2 * i] = EMPTY;
        continue;
      }
      if (offEmpty || nbEmpty || offHi >= HI_LIMIT || nbHi >= HI_LIMIT) {
        const shown = `offset ${u64Text(offHi, offLo)}, nbytes ${u64Text(nbHi, nbLo)}`;
        throw corruptShard(ctx.key, `the index entry (${shown}) is not a valid position`, this.coords(i));
      }
      const offset = offHi * TWO_32 + offLo;
      const nbytes = nbHi * TWO_32 + nbLo;
      const end = offset + nbytes;
      if (nbytes > maxInnerChunkBytes || end > Number.MAX_SAFE_INTEGER) {
        throw corruptShard(
          ctx.key,
          `the index entry (offset ${offset}, nbytes ${nbytes}) is implausibly large (at most ${maxInnerChunkBytes} bytes per inner chunk)`,
          this.coords(i),
        );
      }
      if (startIndex && nbytes > 0 && offset < ib) {
        throw corruptShard(
          ctx.key,
          `bytes ${offset}–${end} overlap the ${ib}-byte index at the start of the shard`,
          this.coords(i),
        );
      }
      entries[2 * i] = offset;
      entries[2 * i + 1] = nbytes;
      if (end > maxEnd) maxEnd = end;
      filled++;
    }
    return { entries, maxEnd, filled };
  }

  /**
   * Checks every entry against a shard of `length` bytes: no inner chunk may reach past
   * the end or into an index at the end.
   */
  checkLength(index: ShardIndex, length: number, key: string): void {
    const limit = this.location === "end" ? length - this.indexBytes : length;
    if (index.maxEnd <= limit) return;
    const e = index.entries;
    for (let i = 0; i < this.count; i++) {
      if (e[2 * i] === EMPTY) continue;
      this.checkEntry(i, e[2 * i], e[2 * i] + e[2 * i + 1], length, key);
    }
  }

  /** Checks one inner chunk `[offset, end)` against a shard of `length` bytes. */
  checkEntry(linear: number, offset: number, end: number, length: number, key: string): void {
    if (end > length) {
      throw corruptShard(
        key,
        `bytes ${offset}–${end} reach past the end of the shard (${length} bytes)`,
        this.coords(linear),
      );
    }
    if (this.location === "end" && end > length - this.indexBytes && end > offset) {
      throw corruptShard(
        key,
        `bytes ${offset}–${end} overlap the ${this.indexBytes}-byte index at the end of the shard (${length} bytes)`,
        this.coords(linear),
      );
    }
  }

  /** Encodes an index; `entries` as in {@link ShardIndex.entries}. */
  async encodeIndex(entries: Float64Array, ctx: CodecCallContext): Promise<Uint8Array> {
    const n = this.count;
    const data = new BigUint64Array(2 * n);
    const words = new Uint32Array(data.buffer);
    for (let i = 0; i < n; i++) {
      const w = 4 * i;
      const offset = entries[2 * i];
      if (offset === EMPTY) {
        words.fill(0xffffffff, w, w + 4);
        continue;
      }
      const nbytes = entries[2 * i + 1];
      words[w + LO] = offset % TWO_32;
      words[w + HI] = Math.floor(offset / TWO_32);
      words[w + 2 + LO] = nbytes % TWO_32;
      words[w + 2 + HI] = Math.floor(nbytes / TWO_32);
    }
    const shape = this.indexSpec.shape;
    const bytes = await this.indexCodecs.encode({ data, shape, stride: cStrides(shape) }, this.indexSpec, {
      key: ctx.key,
      signal: ctx.signal,
    });
    if (bytes.length !== this.indexBytes) {
      throw corruptShard(ctx.key, `the index codecs produced ${bytes.length} bytes, expected ${this.indexBytes}`);
    }
    return bytes;
  }
}

function u64Text(hi: number, lo: number): string {
  return ((BigInt(hi) << 32n) | BigInt(lo)).toString();
}
