/**
 * Stacks an array's storage transformers (its metadata's `storage_transformers`) around
 * the store its chunks are read from and written to. `resolveArray` loads this module only
 * for arrays that name transformers, so opening any other array never pulls it in.
 */
import type { ExtensionObject, JsonPath, Store } from "@zarr/spec";
import type { Registry } from "./registry.js";
import { formatJsonPath, ZarrError } from "./up-front.js";

/** What {@link stackStorageTransformers} built. */
export interface StorageTransformerStack {
  /** The store the array's chunk I/O goes through: the transformers wrapped around `store`. */
  chunkStore: Store;
  /** Names of the transformers skipped because none is registered and they carry `"must_understand": false`. */
  ignored: string[];
}

/**
 * Wraps `store` in the transformers `definitions` name, looked up in `registry`: the first
 * definition ends up outermost (nearest the array), the last one next to the store, as the
 * spec's stack reads. A transformer the registry lacks is an `UNSUPPORTED` error naming it
 * and its JSON path, unless it says `"must_understand": false`; then it is skipped and
 * listed in `ignored`.
 */
export async function stackStorageTransformers(
  store: Store,
  definitions: readonly ExtensionObject[],
  registry: Registry,
  site: { path: string; key: string },
): Promise<StorageTransformerStack> {
  const layers: { wrap: (below: Store) => Store; jsonPath: JsonPath; name: string }[] = [];
  const ignored: string[] = [];
  for (const [i, definition] of definitions.entries()) {
    const jsonPath = ["storage_transformers", i];
    if (!registry.has("storage_transformer", definition.name) && definition.must_understand === false) {
      ignored.push(definition.name);
      continue;
    }
    const entry = await registry.storageTransformer(definition.name, { key: site.key, path: jsonPath });
    const wrap = entry.fromConfig(definition.configuration, { path: site.path, key: site.key, jsonPath });
    layers.push({ wrap, jsonPath, name: definition.name });
  }
  let chunkStore = store;
  for (let i = layers.length - 1; i >= 0; i--) {
    const { wrap, jsonPath, name } = layers[i];
    chunkStore = wrap(chunkStore);
    if (chunkStore === null || typeof chunkStore !== "object" || typeof chunkStore.get !== "function") {
      const where = formatJsonPath(jsonPath);
      throw new ZarrError("UNSUPPORTED", `Storage transformer "${name}" (at ${where} in "${site.key}") did not return a store`, {
        key: site.key,
        jsonPath: where,
      });
    }
  }
  return { chunkStore, ignored };
}
