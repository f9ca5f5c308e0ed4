/**
 * The stored value of one chunk as a `ByteSource`: what codecs read from, whole, by
 * ranges, by scatter reads straight into a result, into a reused buffer, or by versioned
 * reads (so a shard's index and inner chunks come from one version), whatever the store can do. Failures become `STORE_FAILED` errors naming the key.
 */
import { asZarrError, type ByteRange, type ByteSource, type ReadIntoRange, type Store, supportsRanges } from "@zarr/spec";

/** A store's failure to read `key` as `STORE_FAILED` naming the key (a ZarrError passes through). */
export function readFailed(error: unknown, key: string): Error {
  return asZarrError(error, "STORE_FAILED", `Could not read "${key}"`, key);
}

/** The value at `key` of `store`, read lazily. */
export function storeSource(store: Store, key: string, signal: AbortSignal | undefined): ByteSource {
  // Every read's failure becomes the key's STORE_FAILED (a ZarrError, such as STORE_CHANGED, passes through).
  const guarded =
    <A extends unknown[], R>(read: (...args: A) => Promise<R>) =>
    async (...args: A): Promise<R> => {
      try {
        return await read(...args);
      } catch (error) {
        throw readFailed(error, key);
      }
    };
  const source: ByteSource = {
    rangesAreCheap: supportsRanges(store),
    get: guarded(async (range, rangeSignal) => {
      const s = rangeSignal ?? signal;
      if (range === undefined) return store.get(key, { signal: s });
      if (store.getRange) return store.getRange(key, range, { signal: s });
      // No range support: slice the whole value.
      const whole = await store.get(key, { signal: s });
      if (whole === undefined) return undefined;
      if ("suffixLength" in range) return whole.subarray(Math.max(0, whole.length - range.suffixLength));
      return whole.subarray(range.offset, range.length === undefined ? undefined : range.offset + range.length);
    }),
  };
  const { readInto, getInto, getVersioned } = store;
  if (readInto !== undefined) {
    source.readInto = guarded((ranges: readonly ReadIntoRange[], rangeSignal?: AbortSignal) =>
      readInto.call(store, key, ranges, { signal: rangeSignal ?? signal }),
    );
  }
  if (getInto !== undefined) {
    source.getInto = guarded((spare: Uint8Array, rangeSignal?: AbortSignal) => getInto.call(store, key, spare, { signal: rangeSignal ?? signal }));
  }
  if (getVersioned !== undefined) {
    source.getVersioned = guarded((range: ByteRange | undefined, ifVersion: string | undefined, rangeSignal?: AbortSignal) =>
      getVersioned.call(store, key, range, { signal: rangeSignal ?? signal, ifVersion }),
    );
  }
  return source;
}
