// The zarrita.js bench page: reads a region of an array from an in-page store (a Map,
// filled before timing) or over HTTP (FetchStore), on the main thread, with zarrita.js's
// default codecs (numcodecs.js, loaded on first use), for browser.mjs.
import * as zarr from "zarrita";
import { fetchKeys, installBench } from "./page-common.mjs";

installBench(async ({ url, keys, region }) => {
  // zarrita.js asks its stores for absolute keys ("/zarr.json").
  const memory = new Map([...(await fetchKeys(url, keys))].map(([key, bytes]) => [`/${key}`, bytes]));
  const arrays = {
    http: await zarr.open(zarr.root(new zarr.FetchStore(url)), { kind: "array" }),
    memory: await zarr.open(zarr.root(memory), { kind: "array" }),
  };
  const selection = region && [zarr.slice(region[0], region[1]), zarr.slice(region[0], region[1])];
  return {
    read: async (source) => (await zarr.get(arrays[source], selection)).data,
  };
});
