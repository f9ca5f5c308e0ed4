// The @zarr bench page: reads a region of an array from an in-page store (MemoryStore,
// filled before timing) or over HTTP (HttpStore), on the main thread or with a pool of 2
// module Web Workers (zarr-worker.mjs), for browser.mjs.
import { get, MemoryStore, openArray, slice } from "@zarr/core";
import { createWorkerPool } from "@zarr/core/workers";
import { HttpStore } from "@zarr/store-http";
import { fetchKeys, installBench } from "./page-common.mjs";
import { registry } from "./zarr-registry.mjs";

/** The pool, made on its first use and kept for the page's life (as an app would). */
let pool;
const workers = () => (pool ??= createWorkerPool({ size: 2, url: new URL("./zarr-worker.js", import.meta.url) }));

installBench(async ({ url, keys, region }) => {
  const arrays = {
    http: await openArray(new HttpStore(url), "", { registry }),
    memory: await openArray(new MemoryStore(await fetchKeys(url, keys)), "", { registry }),
  };
  const selection = region && [slice(region[0], region[1]), slice(region[0], region[1])];
  return {
    read: async (source, mode) => (await get(arrays[source], selection, mode === "pool" ? { workers: workers() } : {})).data,
  };
});
