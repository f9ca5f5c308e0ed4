/**
 * The kinds of `ByteSource` that are not a store's: bytes already in memory (a shard read
 * whole, a chunk's bytes handed to a worker), a window onto part of another source (an
 * inner shard of a shard), and a source pinned to one version of its value (a shard whose
 * index was read from that version). Codecs and core build on these rather than on
 * copies of their own.
 */
import { resolveByteRange } from "./byte-ranges.js";
import type { ByteSource } from "./codec.js";
import { ZarrError } from "./errors.js";
import type { ByteRange } from "./store.js";

/** How {@link memorySource} presents its bytes. */
export interface MemorySourceOptions {
  /**
   * What the source reports as `rangesAreCheap`. Default `true`: range reads are free
   * views. `false` presents the bytes as a snapshot of a whole value, as a store without
   * range reads would: codecs then take the value whole and keep no per-key state (such
   * as a cached shard index) from it, which could disagree with the snapshot.
   */
  rangesAreCheap?: boolean;
}

/**
 * A source over `bytes` already in memory, or over a missing value when `bytes` is
 * `undefined` (every read then resolves `undefined`). Range reads are views of `bytes`,
 * clamped to it like a store's; a negative or non-integer range throws `INVALID_ARGUMENT`.
 *
 * @example
 * ```ts
 * const source = memorySource(new Uint8Array([1, 2, 3, 4]));
 * await source.get({ suffixLength: 2 }); // Uint8Array [3, 4]
 * await memorySource(undefined).get(); // undefined: nothing stored
 * ```
 */
export function memorySource(bytes: Uint8Array | undefined, options: MemorySourceOptions = {}): ByteSource {
  return {
    rangesAreCheap: options.rangesAreCheap ?? true,
    async get(range?: ByteRange): Promise<Uint8Array | undefined> {
      if (bytes === undefined || range === undefined) return bytes;
      const [start, end] = resolveByteRange(range, bytes.length);
      return bytes.subarray(start, end);
    },
  };
}

/**
 * The window `[offset, offset + length)` of `source`, seen as a value of its own: ranges
 * (suffix ranges included) are relative to the window and clamped to it, so no read
 * reaches outside it. Versioned reads pass through when `source` has them.
 *
 * @example
 * ```ts
 * const inner = windowSource(memorySource(shardBytes), 16, 8); // bytes 16..24 of the shard
 * await inner.get({ suffixLength: 4 }); // bytes 20..24 of the shard
 * ```
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
 * `source` read only from version `version` of its value: every read, versioned or not,
 * rejects with `STORE_CHANGED` once the value is another version (so an index and the
 * inner chunks it locates always come from one version). `source` must have
 * `getVersioned`; without it this throws `INVALID_ARGUMENT`.
 *
 * @example
 * ```ts
 * const read = await store.getVersioned("a/c/0", { suffixLength: 16 });
 * const shard = pinnedSource(storeSourceOfTheShard, read.version);
 * await shard.get({ offset: 0, length: 8 }); // STORE_CHANGED if the shard was rewritten since
 * ```
 */
export function pinnedSource(source: ByteSource, version: string): ByteSource {
  const getVersioned = source.getVersioned;
  if (getVersioned === undefined) {
    throw new ZarrError("INVALID_ARGUMENT", `Cannot pin a byte source to version ${JSON.stringify(version)}: it has no versioned reads`);
  }
  return {
    rangesAreCheap: source.rangesAreCheap,
    async get(range, signal) {
      return (await getVersioned.call(source, range, version, signal))?.bytes;
    },
    getVersioned: (range, ifVersion, signal, spare) => getVersioned.call(source, range, ifVersion ?? version, signal, spare),
  };
}
