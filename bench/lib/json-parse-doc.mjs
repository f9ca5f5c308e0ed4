// Yardstick of bench/references.mjs: what reading the document as text and JSON.parse-ing it
// costs a process (the way reference sets were opened before, minus building the table):
// wall and CPU seconds and peak RSS.
import { readFileSync } from "node:fs";

const cpu0 = process.cpuUsage();
const t0 = performance.now();
const doc = JSON.parse(new TextDecoder().decode(readFileSync(process.argv[2])));
const seconds = (performance.now() - t0) / 1000;
const cpu = process.cpuUsage(cpu0);
if (typeof doc !== "object") throw new Error("not a document");
console.log(JSON.stringify({ seconds, cpuSeconds: (cpu.user + cpu.system) / 1e6, peakRss: process.resourceUsage().maxRSS * 1024 }));
