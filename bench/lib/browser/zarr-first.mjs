// A page that reads one value of an array over HTTP with @zarr as soon as it loads
// (`?store=URL`), for browser.mjs's time to first value.
import { get, openArray } from "@zarr/core";
import { HttpStore } from "@zarr/store-http";
import { reportFirstValue, storeUrl } from "./first-value.mjs";
import { registry } from "./zarr-registry.mjs";

// A module's body runs once its static imports have loaded and run: the entry module starts here.
const entryStarted = performance.now();
const array = await openArray(new HttpStore(storeUrl()), "", { registry });
const { data } = await get(array, [0, 0]);
reportFirstValue(entryStarted, performance.now(), data[0]);
