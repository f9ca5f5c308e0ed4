/**
 * A third-party storage transformer: `example.key_prefix` keeps an array's chunk keys under
 * a sub-prefix of the array (`t2m/c/0/0` is stored as `t2m/data/c/0/0` with
 * `{"prefix": "data"}`), the way an application might set its chunks apart from its
 * metadata. It changes keys only; bytes pass through untouched.
 */
import {
  type ByteRange,
  type DirListing,
  describeJson,
  MetadataError,
  type ReadIntoRange,
  type StorageTransformerEntry,
  type Store,
  type StoreRequestOptions,
  type VersionedReadOptions,
  validateKey,
} from "@zarr/spec";

/** The transformer's name as it appears in `storage_transformers`. */
export const KEY_PREFIX_NAME = "example.key_prefix";

/**
 * The view of `below` in which every key under `arrayPrefix` (the array's own keys, e.g.
 * `"t2m/"`) lives under `arrayPrefix + prefix + "/"` instead. Keys elsewhere pass through.
 * Every capability `below` has is forwarded with keys mapped, listings mapped back; the
 * `workerStore` recipe is not (a worker could not rebuild this view from it).
 *
 * @example
 * ```ts
 * const view = prefixedStore(new MemoryStore(), "t2m/", "data");
 * await view.set("t2m/c/0", bytes); // stored as "t2m/data/c/0"
 * ```
 */
export function prefixedStore(below: Store, arrayPrefix: string, prefix: string): Store {
  const moved = `${arrayPrefix}${prefix}/`;
  const down = (key: string): string => (key.startsWith(arrayPrefix) ? moved + key.slice(arrayPrefix.length) : key);
  // Only keys under the moved prefix are the array's: anything else below it is not listed.
  const up = (key: string): string | undefined => (key.startsWith(moved) ? arrayPrefix + key.slice(moved.length) : undefined);
  const view: Store = {
    get: (key, options) => below.get(down(key), options),
  };
  if (below.getRange) view.getRange = (key: string, range: ByteRange, o?: StoreRequestOptions) => below.getRange!(down(key), range, o);
  if (below.getSize) view.getSize = (key: string, o?: StoreRequestOptions) => below.getSize!(down(key), o);
  if (below.readInto) {
    view.readInto = (key: string, ranges: readonly ReadIntoRange[], o?: StoreRequestOptions) => below.readInto!(down(key), ranges, o);
  }
  if (below.getInto) view.getInto = (key: string, spare: Uint8Array, o?: StoreRequestOptions) => below.getInto!(down(key), spare, o);
  if (below.getVersioned) {
    view.getVersioned = (key: string, range: ByteRange | undefined, o?: VersionedReadOptions) => below.getVersioned!(down(key), range, o);
  }
  if (below.set) view.set = (key, value, o) => below.set!(down(key), value, o);
  if (below.delete) view.delete = (key, o) => below.delete!(down(key), o);
  if (below.deletePrefix) view.deletePrefix = (p, o) => below.deletePrefix!(p === "" ? p : down(p), o);
  if (below.lock) view.lock = (key, o) => below.lock!(down(key), o);
  if (below.setIfVersion) view.setIfVersion = (key, value, expected, o) => below.setIfVersion!(down(key), value, expected, o);
  if (below.list && below.listPrefix && below.listDir) {
    const { listPrefix, listDir } = below;
    view.listPrefix = async function* (p: string, o?: StoreRequestOptions) {
      // A prefix inside the array is looked up where its keys moved to.
      const from = p.startsWith(arrayPrefix) ? down(p) : p;
      for await (const key of listPrefix.call(below, from, o)) {
        const mapped = key.startsWith(arrayPrefix) ? up(key) : key;
        if (mapped?.startsWith(p)) yield mapped;
      }
    };
    view.list = (o?: StoreRequestOptions) => view.listPrefix!("", o);
    view.listDir = async (p: string, o?: StoreRequestOptions): Promise<DirListing> => {
      if (!p.startsWith(arrayPrefix)) return listDir.call(below, p, o);
      return listDir.call(below, down(p), o);
    };
  }
  return view;
}

/**
 * The `example.key_prefix` entry: add it to a registry (`createRegistry([keyPrefixTransformer])`)
 * to read and write arrays whose `storage_transformers` name it. Configuration:
 * `{"prefix": "<one key segment>"}`.
 *
 * @example
 * ```ts
 * const registry = createRegistry([keyPrefixTransformer]);
 * const arr = await createArray(store, "t2m", { shape: [4], chunkShape: [2], dataType: "int8",
 *   storageTransformers: [{ name: "example.key_prefix", configuration: { prefix: "data" } }], registry });
 * ```
 */
export const keyPrefixTransformer: StorageTransformerEntry = {
  type: "storage_transformer",
  name: KEY_PREFIX_NAME,
  package: "@zarr/example-storage-transformer-prefix",
  fromConfig(configuration, context) {
    const cpath = [...context.jsonPath, "configuration"];
    for (const k of Object.keys(configuration)) {
      if (k !== "prefix") throw new MetadataError([...cpath, k], `unknown key "${k}" (expected only "prefix")`);
    }
    const prefix = configuration.prefix;
    const oneSegment = typeof prefix === "string" && !prefix.includes("/") && isValidSegment(prefix);
    if (!oneSegment) {
      throw new MetadataError([...cpath, "prefix"], `expected one key segment (a non-empty string without "/"), got ${describeJson(prefix)}`);
    }
    const arrayPrefix = context.path === "" ? "" : `${context.path}/`;
    return (below) => prefixedStore(below, arrayPrefix, prefix);
  },
};

function isValidSegment(segment: string): boolean {
  try {
    validateKey(segment);
    return true;
  } catch {
    return false;
  }
}
