// Child of bench/references.mjs: opens the reference set in argv[2] and reads one chunk;
// prints the seconds that took and the process's peak RSS.
import { FileSystemStore } from "@zarr/store-fs";
import { openReferences } from "@zarr/store-references";

const dir = process.argv[2];
let peak = process.memoryUsage().rss;
const sample = setInterval(() => (peak = Math.max(peak, process.memoryUsage().rss)), 5);
const t0 = performance.now();
const store = await openReferences(new FileSystemStore(dir), "refs.json", { openTarget: (folder) => new FileSystemStore(folder), base: dir });
const chunk = await store.get("v/12");
const openSeconds = (performance.now() - t0) / 1000;
clearInterval(sample);
peak = Math.max(peak, process.memoryUsage().rss);
if (chunk?.length !== 16) throw new Error("the chunk was not read");
console.log(JSON.stringify({ openSeconds, peakRss: peak }));
