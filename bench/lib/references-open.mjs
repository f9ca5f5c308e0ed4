// Child of bench/references.mjs: opens the reference set in argv[2] and reads one chunk;
// prints the wall and CPU seconds that took, the RSS once the modules are loaded (before the
// document is read), and the process's peak RSS (the kernel's high-water mark, which also
// catches peaks between samples).
import { FileSystemStore } from "@zarr/store-fs";
import { openReferences } from "@zarr/store-references";

const dir = process.argv[2];
const loadedRss = process.memoryUsage().rss;
let peak = loadedRss;
const sample = setInterval(() => (peak = Math.max(peak, process.memoryUsage().rss)), 5);
const cpu0 = process.cpuUsage();
const t0 = performance.now();
const store = await openReferences(new FileSystemStore(dir), "refs.json", { openTarget: (folder) => new FileSystemStore(folder), base: dir });
const chunk = await store.get("v/12");
const openSeconds = (performance.now() - t0) / 1000;
const cpu = process.cpuUsage(cpu0);
clearInterval(sample);
peak = Math.max(peak, process.memoryUsage().rss, process.resourceUsage().maxRSS * 1024);
if (chunk?.length !== 16) throw new Error("the chunk was not read");
console.log(JSON.stringify({ openSeconds, cpuSeconds: (cpu.user + cpu.system) / 1e6, loadedRss, peakRss: peak }));
