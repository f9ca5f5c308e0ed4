import { decodeInto } from "../../packages/codec-gzip/dist/decode-task.js";
import { readFileSync } from "node:fs";
const f = readFileSync("bench/data/full/gzip/v3.zarr/c/0/0");
const scratch = new Uint8Array((1 << 20) + 64);
const out = decodeInto(f, scratch, "gzip", "k");
console.log(out.buffer === scratch.buffer, out.length);
let c0 = process.cpuUsage(); for (let i = 0; i < 100; i++) decodeInto(f, scratch, "gzip", "k"); let c = process.cpuUsage(c0); console.log("into", c.user/1000|0, c.system/1000|0);
const { decode } = await import("../../packages/codec-gzip/dist/decode-task.js");
c0 = process.cpuUsage(); for (let i = 0; i < 100; i++) await decode(f, "gzip", "k"); c = process.cpuUsage(c0); console.log("fresh", c.user/1000|0, c.system/1000|0);
