// Compares ways of reading whole 1 MiB chunk files in parallel, as the read benchmark does.
// Run after building: `npx tsc -p tsconfig.build.json && node bench/get.mjs [concurrency]`.
// Each round runs every strategy once in random order; reports median and best wall time
// and the median CPU time (user+system over all threads, steadier on a busy machine).
import fs from "node:fs";
import fsp from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { FileSystemStore } from "../dist/index.js";

const FILES = 128;
const SIZE = 1 << 20;
const ROUNDS = 40;
const concurrency = Number(process.argv[2] ?? 8);

const root = fs.mkdtempSync(path.join(os.tmpdir(), "store-fs-bench-"));
const store = new FileSystemStore(root);
const keys = Array.from({ length: FILES }, (_, i) => `c/0/${i}`);
for (const [i, key] of keys.entries()) await store.set(key, new Uint8Array(SIZE).fill(i));
const paths = keys.map((key) => path.join(root, ...key.split("/")));

const strategies = {
  "store.get (open+fstat+read)": (i) => store.get(keys[i]),
  "fs.promises.readFile": (i) => fsp.readFile(paths[i]),
  "fs.readFile (callback)": (i) => new Promise((ok, fail) => fs.readFile(paths[i], (e, b) => (e ? fail(e) : ok(b)))),
};

const times = Object.fromEntries(Object.keys(strategies).map((name) => [name, []]));
const cpu = Object.fromEntries(Object.keys(strategies).map((name) => [name, []]));
for (let round = 0; round < ROUNDS; round++) {
  for (const name of Object.keys(strategies).sort(() => Math.random() - 0.5)) {
    const read = strategies[name];
    let next = 0;
    const start = performance.now();
    const cpuStart = process.cpuUsage();
    await Promise.all(
      Array.from({ length: concurrency }, async () => {
        while (next < FILES) {
          const bytes = await read(next++);
          if (bytes.length !== SIZE) throw new Error("short read");
        }
      }),
    );
    if (round >= 3) {
      times[name].push(performance.now() - start);
      const used = process.cpuUsage(cpuStart);
      cpu[name].push((used.user + used.system) / 1000);
    }
  }
}
console.log(`${FILES} files x 1 MiB, concurrency ${concurrency}, ${ROUNDS - 3} rounds (page cache warm)`);
for (const [name, t] of Object.entries(times)) {
  t.sort((a, b) => a - b);
  const c = cpu[name].sort((a, b) => a - b);
  const median = t[t.length >> 1];
  console.log(
    `${name.padEnd(30)} median ${median.toFixed(1)} ms (${((FILES / median) * 1000).toFixed(0)} files/s), ` +
      `best ${t[0].toFixed(1)} ms, CPU ${c[c.length >> 1].toFixed(1)} ms`,
  );
}
fs.rmSync(root, { recursive: true, force: true });
