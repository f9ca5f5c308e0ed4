/**
 * A view of a store under a key prefix: every key `k` of the view is `prefix + k` in the
 * store. The GeoTIFF import stages a Zarr v3 Dataset this way when it builds a Zarr v2
 * pyramid: inside the view the staging hierarchy has its own root, so no `zarr.json` lands
 * on the v2 pyramid's ancestors (one hierarchy never mixes Zarr v2 and v3).
 */
import { type DirListing, isListable, isWritable, type Store, type StoreRequestOptions } from "@zarr/spec";

/**
 * The view of `store` below `prefix` (ending in `/`). Writes and listing are offered when
 * the store has them.
 */
export function prefixedStore(store: Store, prefix: string): Store {
  const view: Store = {
    get: (key, options) => store.get(prefix + key, options),
  };
  if (store.getRange) {
    const getRange = store.getRange.bind(store);
    view.getRange = (key, range, options) => getRange(prefix + key, range, options);
  }
  if (store.getSize) {
    const getSize = store.getSize.bind(store);
    view.getSize = (key, options) => getSize(prefix + key, options);
  }
  if (isWritable(store)) {
    view.set = (key, value, options) => store.set(prefix + key, value, options);
    view.delete = (key, options) => store.delete(prefix + key, options);
    if (store.deletePrefix) {
      const deletePrefix = store.deletePrefix.bind(store);
      view.deletePrefix = (p, options) => deletePrefix(prefix + p, options);
    }
  }
  if (isListable(store)) {
    const strip = async function* (keys: AsyncIterable<string>): AsyncIterable<string> {
      for await (const key of keys) yield key.slice(prefix.length);
    };
    view.listPrefix = (p: string, options?: StoreRequestOptions) => strip(store.listPrefix(prefix + p, options));
    view.list = (options?: StoreRequestOptions) => strip(store.listPrefix(prefix, options));
    view.listDir = (p: string, options?: StoreRequestOptions): Promise<DirListing> => store.listDir(prefix + p, options);
  }
  return view;
}
