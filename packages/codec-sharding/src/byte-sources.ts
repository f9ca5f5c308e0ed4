/**
 * `ByteSource`s derived from others: a window onto part of a source (an inner chunk of
 * a shard, for nested sharding), and one over bytes already in memory.
 */
import { type ByteRange, type ByteSource, resolveByteRange } from "@zarr/spec";

/** A source over bytes in memory; range reads are free subarray views. */
export function memorySource(bytes: Uint8Array): ByteSource {
  return {
    rangesAreCheap: true,
    async get(range?: ByteRange): Promise<Uint8Array> {
      if (range === undefined) return bytes;
      const [start, end] = resolveByteRange(range, bytes.length);
      return bytes.subarray(start, end);
    },
  };
}

/** A source holding nothing (every read resolves `undefined`). */
export const missingSource: ByteSource = {
  rangesAreCheap: true,
  async get(): Promise<undefined> {
    return undefined;
  },
};

/**
 * The window `[offset, offset + length)` of `source`, seen as a value of its own: ranges
 * (including suffix ranges) are relative to the window and clamped to it.
 */
export function windowSource(source: ByteSource, offset: number, length: number): ByteSource {
  return {
    rangesAreCheap: source.rangesAreCheap,
    get(range?: ByteRange, signal?: AbortSignal): Promise<Uint8Array | undefined> {
      const [start, end] = range === undefined ? [0, length] : resolveByteRange(range, length);
      return source.get({ offset: offset + start, length: end - start }, signal);
    },
  };
}
