/**
 * Decompression bombs: for every compressor a small chunk that would decode to 1 GiB is
 * rejected with a coded error while the process's resident memory grows by less than
 * 64 MiB — on the calling thread, in worker threads, and where the decoded size comes from
 * `maxChunkBytes` (variable-length data). Each case runs in a child process of its own (on
 * the built packages), so the peak resident size (`resourceUsage().maxRSS`) is its alone.
 */
import { spawnSync } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { BOMB_BYTES, buildBombs } from "./bombs.js";

const MIB = 2 ** 20;
const MAX_GROWTH = 64 * MIB;
const ALL = new URL("../dist/index.js", import.meta.url).href;
const WORKERS = new URL("../dist/workers.js", import.meta.url).href;

/**
 * The child: creates a uint8 array of one chunk of `elements` (or a vlen-bytes one), stores
 * the bomb as that chunk, warms up on a valid chunk, then reads the bomb and reports the
 * outcome and the growth of its peak resident size over the resident size before.
 */
const CHILD = `
import { readFileSync } from "node:fs";
import { createArray, get, MemoryStore, openArray, set } from ${JSON.stringify(ALL)};
import { createWorkerPool } from ${JSON.stringify(WORKERS)};
const { file, codecs, elements, vlen, workers, maxChunkBytes } = JSON.parse(process.env.BOMB);
const store = new MemoryStore();
const head = vlen ? { name: "vlen-bytes" } : { name: "bytes" };
const dataType = vlen ? "bytes" : "uint8";
await createArray(store, "b", { shape: [elements], chunkShape: [elements], dataType, codecs: [head, ...codecs] });
const arr = await openArray(store, "b", { maxChunkBytes });
const pool = workers ? createWorkerPool({ size: 1 }) : undefined;
// Warm up (modules, JIT, the worker) on a valid chunk first.
await set(arr, null, vlen ? new Uint8Array([1]) : 1);
await get(arr, null, { workers: pool });
store.map.set("b/c/0", new Uint8Array(readFileSync(file)));
globalThis.gc();
const before = process.memoryUsage().rss;
const outcome = await get(arr, null, { workers: pool }).then(
  (r) => ({ resolved: r.data.length }),
  (e) => ({ name: e.name, code: e.code, message: String(e.message) }),
);
const growth = process.resourceUsage().maxRSS * 1024 - before;
await pool?.close();
console.log(JSON.stringify({ outcome, growth }));
`;

interface Report {
  outcome: { name?: string; code?: string; message?: string; resolved?: number };
  growth: number;
}

let dir = "";
let bombs: Awaited<ReturnType<typeof buildBombs>> = {};
beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), "zarr-bombs-"));
  bombs = await buildBombs();
}, 120_000);
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function runChild(name: string, options: { elements: number; vlen?: boolean; workers?: boolean; maxChunkBytes?: number }): Report {
  const bomb = bombs[name];
  const file = join(dir, `${name.replace(/\W+/g, "-")}.bin`);
  writeFileSync(file, bomb.bytes);
  const env = { ...process.env, BOMB: JSON.stringify({ file, codecs: bomb.codecs, ...options }) };
  const child = spawnSync(process.execPath, ["--expose-gc", "--input-type=module", "-e", CHILD], { env, encoding: "utf8", timeout: 120_000 });
  expect(child.stderr, `${name}: stderr`).toBe("");
  expect(child.status, `${name}: exit status`).toBe(0);
  return JSON.parse(child.stdout.trim().split("\n").pop() as string) as Report;
}

const NAMES = ["gzip", "zlib", "zstd (declared size)", "zstd (no declared size)", "bz2", "xz", "lz4", "blosc"];

describe("a chunk that would decode to 1 GiB", () => {
  it("is small: every bomb is under 5 MiB and really claims 1 GiB", () => {
    for (const name of NAMES) expect(bombs[name].bytes.length, name).toBeLessThan(5 * MIB);
    expect(BOMB_BYTES).toBe(2 ** 30);
  });

  it.each(NAMES)("%s: 4 KiB chunks, read on the calling thread: CODEC_FAILED, RSS grows < 64 MiB", (name) => {
    const { outcome, growth } = runChild(name, { elements: 4096 });
    expect(outcome, name).toMatchObject({ name: "ZarrError", code: "CODEC_FAILED", message: expect.stringContaining("b/c/0") });
    expect(growth, `${name}: RSS growth ${(growth / MIB).toFixed(1)} MiB`).toBeLessThan(MAX_GROWTH);
  });

  it.each(NAMES)("%s: 256 KiB chunks, read in a worker thread: CODEC_FAILED, RSS grows < 64 MiB", (name) => {
    const { outcome, growth } = runChild(name, { elements: 256 * 1024, workers: true });
    expect(outcome, name).toMatchObject({ name: "ZarrError", code: "CODEC_FAILED" });
    expect(growth, `${name}: RSS growth ${(growth / MIB).toFixed(1)} MiB`).toBeLessThan(MAX_GROWTH);
  });

  it.each(["gzip", "zstd (no declared size)", "bz2"])(
    "%s: variable-length chunks, bounded by maxChunkBytes (16 MiB): CODEC_FAILED, RSS grows < 64 MiB",
    (name) => {
      const { outcome, growth } = runChild(name, { elements: 16, vlen: true, maxChunkBytes: 16 * MIB });
      expect(outcome, name).toMatchObject({ name: "ZarrError", code: "CODEC_FAILED", message: expect.stringContaining("16777216") });
      expect(growth, `${name}: RSS growth ${(growth / MIB).toFixed(1)} MiB`).toBeLessThan(MAX_GROWTH);
    },
  );
});
