// The float64 array the worker-pool tests read: chunks of 128×64 (64 KiB, each large enough
// for the pool) through the `test.heavy` codec of fixtures/slow-tasks.mjs.
import type { Store } from "@zarr/spec";
import { createArray, type Registry, set, type ZarrArray } from "../src/index.js";

/** Creates array "a" of `shape` in `store`, chunks 128×64 through `test.heavy`, and writes `values`. */
export async function writeHeavyArray(store: Store, registry: Registry, shape: number[], values: Float64Array): Promise<ZarrArray> {
  const arr = await createArray(store, "a", {
    shape,
    chunkShape: [128, 64],
    dataType: "float64",
    codecs: [{ name: "bytes", configuration: { endian: "little" } }, { name: "test.heavy" }],
    registry,
  });
  await set(arr, null, values);
  return arr;
}
