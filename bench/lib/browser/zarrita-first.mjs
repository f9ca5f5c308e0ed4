// A page that reads one value of an array over HTTP with zarrita.js as soon as it loads
// (`?store=URL`), for browser.mjs's time to first value.
import * as zarr from "zarrita";
import { reportFirstValue, storeUrl } from "./first-value.mjs";

// A module's body runs once its static imports have loaded and run: the entry module starts here.
const entryStarted = performance.now();
const array = await zarr.open(zarr.root(new zarr.FetchStore(storeUrl())), { kind: "array" });
const value = await zarr.get(array, [0, 0]); // a number for an all-integer selection
reportFirstValue(entryStarted, performance.now(), typeof value === "number" ? value : value.data[0]);
