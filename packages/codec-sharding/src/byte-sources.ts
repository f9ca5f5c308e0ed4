/**
 * `ByteSource`s derived from others: a window onto part of a source (an inner chunk of
 * a shard, for nested sharding), one over bytes already in memory, and one pinned to a
 * version of its value.
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
  const inWindow = (range: ByteRange | undefined): ByteRange => {
    const [start, end] = range === undefined ? [0, length] : resolveByteRange(range, length);
    return { offset: offset + start, length: end - start };
  };
  const window: ByteSource = {
    rangesAreCheap: source.rangesAreCheap,
    get: (range, signal) => source.get(inWindow(range), signal),
  };
  const getVersioned = source.getVersioned;
  if (getVersioned !== undefined) {
    window.getVersioned = (range, ifVersion, signal, spare) => getVersioned.call(source, inWindow(range), ifVersion, signal, spare);
  }
  return window;
}

/**
 * `source` read only from version `version` of its value (a shard whose index was read
 * from that version): every read, versioned or not, rejects with `STORE_CHANGED` once
 * the value is another version. `source` must have `getVersioned`.
 */
export function pinnedSource(source: ByteSource, version: string): ByteSource {
  const getVersioned = source.getVersioned as NonNullable<ByteSource["getVersioned"]>;
  return {
    rangesAreCheap: source.rangesAreCheap,
    async get(range, signal) {
      return (await getVersioned.call(source, range, version, signal))?.bytes;
    },
    getVersioned: (range, ifVersion, signal, spare) => getVersioned.call(source, range, ifVersion ?? version, signal, spare),
  };
}
