/**
 * The stored value of one chunk as a `ByteSource`: what codecs read from, whole, by
 * ranges, by scatter reads straight into a result, into a reused buffer, or by versioned
 * reads (so a shard's index and inner chunks come from one version), whatever the store can do. Failures become `STORE_FAILED` errors naming the key.
 */
import { asZarrError, type ByteSource, type ReadIntoRange, type Store, supportsRanges } from "@zarr/spec";

/** A store's failure to read `key` as `STORE_FAILED` naming the key (a ZarrError passes through). */
export function readFailed(error: unknown, key: string): Error {
  return asZarrError(error, "STORE_FAILED", `Could not read "${key}"`, key);
}

/** The value at `key` of `store`, read lazily. */
export function storeSource(store: Store, key: string, signal: AbortSignal | undefined): ByteSource {
  const source: ByteSource = {
    rangesAreCheap: supportsRanges(store),
    async get(range, rangeSignal) {
      const s = rangeSignal ?? signal;
      try {
        if (range === undefined) return await store.get(key, { signal: s });
        if (store.getRange) return await store.getRange(key, range, { signal: s });
        // No range support: slice the whole value.
        const whole = await store.get(key, { signal: s });
        if (whole === undefined) return undefined;
        if ("suffixLength" in range) return whole.subarray(Math.max(0, whole.length - range.suffixLength));
        return whole.subarray(range.offset, range.length === undefined ? undefined : range.offset + range.length);
      } catch (error) {
        throw readFailed(error, key);
      }
    },
  };
  const { readInto, getInto, getVersioned } = store;
  if (readInto !== undefined) {
    source.readInto = async (ranges: readonly ReadIntoRange[], rangeSignal?: AbortSignal) => {
      try {
        return await readInto.call(store, key, ranges, { signal: rangeSignal ?? signal });
      } catch (error) {
        throw readFailed(error, key);
      }
    };
  }
  if (getInto !== undefined) {
    source.getInto = async (spare: Uint8Array, rangeSignal?: AbortSignal) => {
      try {
        return await getInto.call(store, key, spare, { signal: rangeSignal ?? signal });
      } catch (error) {
        throw readFailed(error, key);
      }
    };
  }
  if (getVersioned !== undefined) {
    source.getVersioned = async (range, ifVersion, rangeSignal, spare) => {
      try {
        return await getVersioned.call(store, key, range, { signal: rangeSignal ?? signal, ifVersion, spare });
      } catch (error) {
        throw readFailed(error, key); // keeps STORE_CHANGED: it is a ZarrError already
      }
    };
  }
  return source;
}
