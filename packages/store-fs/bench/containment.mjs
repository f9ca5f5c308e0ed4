#!/usr/bin/env node
// The cost of read containment (symlink checks): reads 4096 files of 16 KiB (64 directories)
// with the default store and with `followSymlinks: true` (no checks), taking turns, and
// prints the median time of each. Build first; `node bench/containment.mjs [reps]`.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { FileSystemStore } from "../dist/index.js";

const REPS = Number(process.argv[2] ?? 9);
const root = fs.mkdtempSync(path.join(os.tmpdir(), "zarr-containment-"));
const keys = [];
const value = new Uint8Array(16 << 10).fill(7);
for (let i = 0; i < 64; i++) {
  fs.mkdirSync(path.join(root, "c", String(i)), { recursive: true });
  for (let j = 0; j < 64; j++) {
    fs.writeFileSync(path.join(root, "c", String(i), String(j)), value);
    keys.push(`c/${i}/${j}`);
  }
}
const median = (xs) => xs.slice().sort((a, b) => a - b)[xs.length >> 1];
const modes = {
  "get (async)": (s) => Promise.all(keys.map((k) => s.get(k))),
  "getInto (blocking)": async (s) => {
    const spare = new Uint8Array(32 << 10);
    for (const k of keys) await s.getInto(k, spare);
  },
};
try {
  for (const [label, run] of Object.entries(modes)) {
    const times = { checked: [], unchecked: [] };
    for (let r = 0; r < REPS; r++) {
      for (const which of r % 2 ? ["checked", "unchecked"] : ["unchecked", "checked"]) {
        // A fresh store per run: the directory memory starts empty, as in a new process.
        const store = new FileSystemStore(root, { readOnly: true, blockingReads: true, followSymlinks: which === "unchecked" });
        const t0 = performance.now();
        await run(store);
        times[which].push(performance.now() - t0);
      }
    }
    const c = median(times.checked);
    const u = median(times.unchecked);
    console.log(`${label}: checked ${c.toFixed(1)} ms, followSymlinks ${u.toFixed(1)} ms (${((c / u - 1) * 100).toFixed(1)}%)`);
  }
} finally {
  fs.rmSync(root, { recursive: true, force: true });
}
