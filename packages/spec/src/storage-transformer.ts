/**
 * Storage transformers, the v3 spec's fourth extension point: a layer between an array
 * and its store that may change the keys and bytes of the array's chunks on their way to
 * the store and restore them on the way back. Named by the array's `storage_transformers`
 * metadata and stacked in that order (the first one is nearest the array).
 */
import type { JsonPath } from "./errors.js";
import type { JsonObject } from "./json.js";
import type { Store } from "./store.js";

/** Where a storage transformer is used: the array it serves. */
export interface StorageTransformerContext {
  /** Path of the array in the store (`""` for the root, no leading or trailing `/`). */
  readonly path: string;
  /** Store key of the array's metadata document (`"a/b/zarr.json"`). */
  readonly key: string;
  /** JSON path of the transformer's definition (`["storage_transformers", 0]`). */
  readonly jsonPath: JsonPath;
}

/**
 * A configured storage transformer: wraps the store below it (the next transformer, or the
 * real store) into the store the layer above sees. The array's chunk reads, writes,
 * deletions and listings go through the result, so it serves whatever capabilities it
 * chooses to forward (`getRange`, `readInto`, `listPrefix`, `lock`...). It must not
 * forward `workerStore` unless workers can rebuild the same stack.
 */
export type StorageTransformer = (store: Store) => Store;

/**
 * A storage transformer as registered.
 *
 * @example
 * ```ts
 * const noop: StorageTransformerEntry = {
 *   type: "storage_transformer", name: "noop",
 *   fromConfig: () => (store) => store,
 * };
 * ```
 */
export interface StorageTransformerEntry {
  readonly type: "storage_transformer";
  readonly name: string;
  readonly aliases?: readonly string[];
  readonly package?: string;
  /**
   * Checks `configuration` (throwing `MetadataError` at `[...context.jsonPath,
   * "configuration", ...]` for a bad one) and returns the transformer for this array.
   */
  fromConfig(configuration: JsonObject, context: StorageTransformerContext): StorageTransformer;
}
