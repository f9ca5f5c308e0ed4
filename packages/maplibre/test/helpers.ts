/** Small GeoZarr stores for the tests. */
import { createArray, MemoryStore, set } from "@zarr/core";
import { createDataset } from "@zarr/geozarr";
import type { JsonObject } from "@zarr/spec";

/** A Dataset in EPSG:4326 over lon [0, 40), lat (−20, 20] at 0.1°: `v` = column index + 1000 × time. */
export async function lonLatDataset(options: { times?: number; attributes?: JsonObject; crs?: string; transform?: number[] } = {}): Promise<MemoryStore> {
  const store = new MemoryStore();
  const T = options.times ?? 1;
  await createDataset(store, "", {
    crs: { code: options.crs ?? "EPSG:4326" },
    spatial: { dimensions: ["lat", "lon"], transform: (options.transform ?? [0.1, 0, 0, 0, -0.1, 20]) as never, shape: [400, 400] },
  });
  const arr = await createArray(store, "v", {
    shape: [T, 400, 400],
    chunkShape: [1, 100, 100],
    dataType: "float32",
    dimensionNames: ["time", "lat", "lon"],
    fillValue: Number.NaN,
    attributes: options.attributes ?? {},
  });
  await set(arr, null, Float32Array.from({ length: T * 400 * 400 }, (_, i) => (i % 400) + 1000 * Math.floor(i / 160000)));
  return store;
}

/** A store that counts the chunk reads that reach it. */
export function countingStore(inner: MemoryStore): MemoryStore & { chunkReads: string[] } {
  const reads: string[] = [];
  return new Proxy(inner, {
    get(target, prop, receiver) {
      if (prop === "chunkReads") return reads;
      const value = Reflect.get(target, prop, receiver);
      if (typeof value !== "function") return value;
      if (prop === "get" || prop === "getRange" || prop === "readInto")
        return (key: string, ...rest: unknown[]) => {
          if (!key.endsWith("zarr.json")) reads.push(key);
          return value.call(target, key, ...rest);
        };
      return value.bind(target);
    },
  }) as MemoryStore & { chunkReads: string[] };
}
