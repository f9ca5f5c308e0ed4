/**
 * Instrumenting a store: a wrapper object with exactly the methods the inner store has,
 * each reporting its call and outcome to an observer. `CountingStore` and `LoggingStore`
 * are built on it, so both stay transparent: `isListable`, `supportsRanges` and
 * `isWritable` answer for the wrapper what they answer for the inner store.
 */
import type { ByteRange, DirListing, ReadIntoRange, Store, StoreRequestOptions, VersionedBytes, VersionedReadOptions } from "@zarr/spec";

/** Every method of the store contract, in the order they are usually reported. */
export const STORE_METHODS = [
  "get",
  "getRange",
  "getSize",
  "readInto",
  "set",
  "delete",
  "deletePrefix",
  "list",
  "listPrefix",
  "listDir",
] as const;

/**
 * The members of a wrapper built on {@link instrumentStore}: those of the store it wraps,
 * except `workerStore` (a worker's own store: the wrapper could not see its reads) and
 * `getInto` (reads go through `get`, which the wrapper observes).
 */
export type InstrumentedMembers = Omit<Store, "workerStore" | "getInto">;

/** The name of a store method. */
export type StoreMethod = (typeof STORE_METHODS)[number];

/** The methods that read values (one request each on a remote store). */
export const READ_METHODS: ReadonlySet<StoreMethod> = new Set(["get", "getRange", "getSize", "readInto"]);

/** One call of a store method. */
export interface StoreCall {
  method: StoreMethod;
  /** The key; the prefix for `deletePrefix`, `listPrefix` and `listDir`; `""` for `list`. */
  key: string;
  /** The byte range of a `getRange` call. */
  range?: ByteRange;
  /**
   * True for a versioned read (`getVersioned`): it is reported as the read it is, `getRange`
   * with a range or `get` without, so counts do not depend on whether the store has versions.
   */
  versioned?: boolean;
}

/** How a call ended. */
export interface CallOutcome {
  /** Bytes delivered by a read (`get`, `getRange`, `readInto`) or passed to `set`. */
  bytes?: number;
  /** The value's total size, as `getSize` and `readInto` resolve it. */
  size?: number;
  /** A read found no value under the key. */
  missing?: boolean;
  /** Keys yielded by `list`/`listPrefix`, or keys plus prefixes returned by `listDir`. */
  entries?: number;
  /** What the call threw, if it failed. */
  error?: unknown;
}

/** Told about each call as it starts; returns the function told how it ended. */
export type CallObserver = (call: StoreCall) => (outcome: CallOutcome) => void;

type Methods = Partial<Store>;

async function observed<T>(end: (outcome: CallOutcome) => void, run: () => Promise<T>, describe: (result: T) => CallOutcome): Promise<T> {
  let result: T;
  try {
    result = await run();
  } catch (error) {
    end({ error });
    throw error;
  }
  end(describe(result));
  return result;
}

/** Yields what `iterable` yields, reporting how many keys it gave when iteration stops. */
async function* observedKeys(iterable: AsyncIterable<string>, end: (outcome: CallOutcome) => void): AsyncGenerator<string> {
  let entries = 0;
  let failure: { error: unknown } | undefined;
  try {
    for await (const key of iterable) {
      entries++;
      yield key;
    }
  } catch (error) {
    failure = { error };
    throw error;
  } finally {
    end(failure === undefined ? { entries } : { entries, error: failure.error });
  }
}

const valueOutcome = (value: Uint8Array | undefined): CallOutcome =>
  value === undefined ? { missing: true } : { bytes: value.length };

/**
 * The methods of `inner`, each reporting to `observe`. Methods `inner` lacks are absent
 * (not stubs).
 */
export function instrumentStore(inner: Store, observe: CallObserver): Methods & Pick<Store, "get"> {
  const out: Methods & Pick<Store, "get"> = {
    get: (key: string, options?: StoreRequestOptions) =>
      observed(observe({ method: "get", key }), () => inner.get(key, options), valueOutcome),
  };
  // The wrapper resolves the inner store's own arrays, so what it promises of them holds here too.
  if (inner.returnedBytes !== undefined) Object.assign(out, { returnedBytes: inner.returnedBytes });
  const { getRange, getSize, readInto, getVersioned, set, delete: del, deletePrefix, list, listPrefix, listDir } = inner;
  if (typeof getRange === "function") {
    out.getRange = (key: string, range: ByteRange, options?: StoreRequestOptions) =>
      observed(observe({ method: "getRange", key, range }), () => getRange.call(inner, key, range, options), valueOutcome);
  }
  if (typeof getVersioned === "function") {
    // Passed on so that code under the wrapper takes the same (consistent) path as without it.
    out.getVersioned = (key: string, range: ByteRange | undefined, options?: VersionedReadOptions) =>
      observed(
        observe(range === undefined ? { method: "get", key, versioned: true } : { method: "getRange", key, range, versioned: true }),
        () => getVersioned.call(inner, key, range, options),
        (read: VersionedBytes | undefined) => valueOutcome(read?.bytes),
      );
  }
  if (typeof getSize === "function") {
    out.getSize = (key: string, options?: StoreRequestOptions) =>
      observed(observe({ method: "getSize", key }), () => getSize.call(inner, key, options), (size) =>
        size === undefined ? { missing: true } : { size },
      );
  }
  if (typeof readInto === "function") {
    out.readInto = (key: string, ranges: readonly ReadIntoRange[], options?: StoreRequestOptions) =>
      observed(observe({ method: "readInto", key }), () => readInto.call(inner, key, ranges, options), (size) => {
        if (size === undefined) return { missing: true };
        let bytes = 0;
        for (const r of ranges) bytes += Math.max(0, Math.min(r.target.length, size - r.offset));
        return { bytes, size };
      });
  }
  if (typeof set === "function") {
    out.set = (key: string, value: Uint8Array, options?: StoreRequestOptions) =>
      observed(observe({ method: "set", key }), () => set.call(inner, key, value, options), () => ({ bytes: value.length }));
  }
  if (typeof del === "function") {
    out.delete = (key: string, options?: StoreRequestOptions) =>
      observed(observe({ method: "delete", key }), () => del.call(inner, key, options), () => ({}));
  }
  if (typeof deletePrefix === "function") {
    out.deletePrefix = (prefix: string, options?: StoreRequestOptions) =>
      observed(observe({ method: "deletePrefix", key: prefix }), () => deletePrefix.call(inner, prefix, options), () => ({}));
  }
  if (typeof list === "function") {
    out.list = (options?: StoreRequestOptions) => observedKeys(list.call(inner, options), observe({ method: "list", key: "" }));
  }
  if (typeof listPrefix === "function") {
    out.listPrefix = (prefix: string, options?: StoreRequestOptions) =>
      observedKeys(listPrefix.call(inner, prefix, options), observe({ method: "listPrefix", key: prefix }));
  }
  if (typeof listDir === "function") {
    out.listDir = (prefix: string, options?: StoreRequestOptions) =>
      observed(observe({ method: "listDir", key: prefix }), () => listDir.call(inner, prefix, options), (l: DirListing) => ({
        entries: l.keys.length + l.prefixes.length,
      }));
  }
  return out;
}
