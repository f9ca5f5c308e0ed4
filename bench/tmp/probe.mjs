import { createWorkerPool } from "@zarr/all/workers";
import { get, openArray } from "@zarr/all";
import { FileSystemStore } from "@zarr/store-fs";
import { readdirSync as rd, readFileSync as rf } from "node:fs";
const name = process.argv[2] ?? "gzip";
const w = Number(process.argv[3] ?? 2);
const pool = w ? createWorkerPool({ size: w }) : undefined;
const arr = await openArray(new FileSystemStore(`bench/data/full/${name}/v3.zarr`, { readOnly: true }), "");
const threads = () => Object.fromEntries(rd("/proc/self/task").map((t) => { const s = rf(`/proc/self/task/${t}/stat`, "utf8"); const f = s.slice(s.lastIndexOf(")") + 2).split(" "); return [t, [+f[11], +f[12]]]; }));
await get(arr, null, { workers: pool });
const before = threads();
const R = 5;
let wall = 0;
for (let r = 0; r < R; r++) { const t0 = performance.now(); await get(arr, null, { workers: pool }); wall += performance.now() - t0; }
const after = threads();
console.log(`wall/run ${(wall / R).toFixed(0)} ms`);
for (const t of Object.keys(after)) { const b = before[t] ?? [0, 0]; const u = (after[t][0] - b[0]) * 10 / R, s = (after[t][1] - b[1]) * 10 / R; if (u + s > 5) console.log(t, `user ${u.toFixed(0)} sys ${s.toFixed(0)} ms/run`); }
await pool?.close();
