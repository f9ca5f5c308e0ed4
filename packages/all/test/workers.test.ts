import { spawnSync } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { CountingStore } from "@zarr/store-utils";
import { afterAll, describe, expect, it } from "vitest";
import { createArray, FileSystemStore, get, MemoryStore, openArray, set, slice, type WorkerPool } from "../src/index.js";
import { createWorkerPool } from "../src/workers.js";

const CHAINS: Record<string, unknown[]> = {
  gzip: [{ name: "gzip", configuration: { level: 1 } }],
  zlib: [{ name: "numcodecs.zlib", configuration: { level: 1 } }],
  zstd: [{ name: "zstd", configuration: { level: 1, checksum: true } }],
  "blosc-lz4": [{ name: "blosc", configuration: { cname: "lz4", clevel: 5, shuffle: "shuffle", typesize: 8, blocksize: 0 } }],
  "blosc-zstd": [{ name: "blosc", configuration: { cname: "zstd", clevel: 3, shuffle: "bitshuffle", typesize: 8, blocksize: 0 } }],
  lz4: [{ name: "numcodecs.lz4", configuration: { acceleration: 1 } }],
  bz2: [{ name: "numcodecs.bz2", configuration: { level: 1 } }],
  lzma: [{ name: "numcodecs.lzma", configuration: { preset: 1 } }],
};

describe("decoding in worker threads gives the same values", () => {
  const workers = createWorkerPool({ size: 2 });
  afterAll(() => workers.close());
  it.each(Object.keys(CHAINS))("%s", async (name) => {
    const store = new MemoryStore();
    const arr = await createArray(store, name, {
      shape: [256, 512],
      chunkShape: [128, 256], // 256 KiB chunks: large enough to be sent to the workers
      dataType: "float64",
      codecs: [{ name: "bytes", configuration: { endian: "little" } }, ...(CHAINS[name] as never[])],
    });
    const values = Float64Array.from({ length: 256 * 512 }, (_, i) => Math.sin(i / 100) * 1000 + (i % 7));
    await set(arr, null, values);
    const here = await get(arr);
    const there = await get(arr, null, { workers });
    expect(Buffer.compare(Buffer.from((there.data as Float64Array).buffer), Buffer.from(values.buffer))).toBe(0);
    expect(Buffer.compare(Buffer.from((here.data as Float64Array).buffer), Buffer.from(values.buffer))).toBe(0);
    // The stored chunks are still intact after their copies went to the workers.
    expect((await get(arr, null, { workers })).data).toEqual(here.data);
  });

  it("numcodecs.zfpy (an array→bytes codec) decodes in the workers too", async () => {
    const arr = await createArray(new MemoryStore(), "zfpy", {
      shape: [256, 512],
      chunkShape: [128, 256],
      dataType: "float64",
      codecs: [{ name: "numcodecs.zfpy", configuration: { mode: 4, tolerance: -1, rate: -1, precision: -1 } }],
    });
    // Random bits: ZFP's lossless mode keeps the chunks about as large as the data, so they go to the workers.
    const values = Float64Array.from({ length: 256 * 512 }, (_, i) => Math.sin(i * 12.9898) * 43758.5453);
    await set(arr, null, values);
    const modules: (string | undefined)[] = [];
    const recording: WorkerPool = {
      size: workers.size,
      run(moduleUrl, exportName, args, transfer) {
        for (const m of (args[0] as { array: { modules: { moduleName?: string }[] } }).array.modules) modules.push(m.moduleName);
        return workers.run(moduleUrl, exportName, args, transfer);
      },
      close: () => workers.close(),
    };
    const there = await get(arr, null, { workers: recording });
    expect(Buffer.compare(Buffer.from((there.data as Float64Array).buffer), Buffer.from(values.buffer))).toBe(0);
    expect(modules).toContain("@zarr/codec-zfpy");
  });

  it("with callerTakesPart, the calling thread decodes and encodes chunks too while every worker is busy", async () => {
    const helped = createWorkerPool({ size: 1, callerTakesPart: true });
    const plain = createWorkerPool({ size: 1 });
    try {
      const counting = (pool: WorkerPool) => {
        const calls: string[] = [];
        const wrapped: WorkerPool = {
          size: pool.size,
          callerTakesPart: pool.callerTakesPart,
          run(moduleUrl, exportName, args, transfer, options) {
            calls.push(exportName);
            return pool.run(moduleUrl, exportName, args, transfer, options);
          },
          close: () => pool.close(),
        };
        return { calls, wrapped };
      };
      const arr = await createArray(new MemoryStore(), "helped", {
        shape: [1024, 512],
        chunkShape: [128, 256], // 16 chunks of 256 KiB
        dataType: "float64",
        codecs: [{ name: "bytes", configuration: { endian: "little" } }, ...(CHAINS.zstd as never[])],
      });
      const values = Float64Array.from({ length: 1024 * 512 }, (_, i) => Math.cos(i / 50) * 100 + (i % 11));
      const writing = counting(helped);
      await set(arr, null, values, { workers: writing.wrapped });
      const reading = counting(helped);
      const got = await get(arr, null, { workers: reading.wrapped });
      expect(Buffer.compare(Buffer.from((got.data as Float64Array).buffer), Buffer.from(values.buffer))).toBe(0);
      // Some chunks went to the worker, the others were done here while it was busy.
      for (const { calls } of [writing, reading]) {
        expect(calls.length).toBeGreaterThan(0);
        expect(calls.length).toBeLessThan(16);
      }
      // Without it, every chunk goes to the pool.
      const unhelped = counting(plain);
      expect((await get(arr, null, { workers: unhelped.wrapped })).data).toEqual(got.data);
      expect(unhelped.calls.length).toBe(16);
    } finally {
      await helped.close();
      await plain.close();
    }
  });

  it("reports corrupt chunks decoded in a worker with the chunk key", async () => {
    const store = new MemoryStore();
    const arr = await createArray(store, "bad", {
      shape: [256, 256],
      chunkShape: [256, 256],
      dataType: "float64",
      codecs: [{ name: "bytes", configuration: { endian: "little" } }, ...(CHAINS.zstd as never[])],
    });
    await set(arr, null, Float64Array.from({ length: 65536 }, (_, i) => i));
    const chunk = store.map.get("bad/c/0/0") as Uint8Array;
    chunk[chunk.length - 1] ^= 0xff; // the checksum
    await expect(get(arr, null, { workers })).rejects.toMatchObject({ code: "CHECKSUM_MISMATCH", message: expect.stringContaining("bad/c/0/0") });
  });
});

describe("whole-chunk decoding in workers (shared result)", () => {
  const workers = createWorkerPool({ size: 2 });
  afterAll(() => workers.close());
  it("matches main-thread decoding for transposed, ragged chunks and partial selections", async () => {
    const store = new MemoryStore();
    const arr = await createArray(store, "t", {
      shape: [37, 70, 90],
      chunkShape: [20, 32, 64],
      dataType: "int32",
      fillValue: -7,
      codecs: [
        { name: "transpose", configuration: { order: [2, 0, 1] } },
        { name: "bytes", configuration: { endian: "little" } },
        { name: "blosc", configuration: { cname: "lz4", clevel: 1, shuffle: "shuffle", typesize: 4, blocksize: 0 } },
      ],
    });
    const n = 37 * 70 * 90;
    // random-ish values so chunks stay big after compression
    await set(arr, null, Int32Array.from({ length: n }, (_, i) => (i * 2654435761) | 0));
    await set(arr, [slice(0, 5)], -7); // a region back to the fill value
    const selections = [null, [slice(3, 30), slice(null, null, 3), 5], [[36, 0, 17], slice(60, 70), slice(null, null, -1)]];
    for (const sel of selections) {
      const here = await get(arr, sel as never);
      const there = await get(arr, sel as never, { workers });
      expect((there.data as Int32Array).buffer).toBeInstanceOf(SharedArrayBuffer);
      expect(there.shape).toEqual(here.shape);
      expect(Array.from(there.data as Int32Array)).toEqual(Array.from(here.data as Int32Array));
      // Into a caller's buffer, shared (workers write into it) or not (decoded here, then copied).
      for (const out of [new Int32Array(new SharedArrayBuffer(here.data.length * 4)), new Int32Array(here.data.length)]) {
        out.fill(123456);
        const into = await get(arr, sel as never, { workers, out });
        expect(into.data).toBe(out);
        expect(Array.from(out)).toEqual(Array.from(here.data as Int32Array));
      }
    }
  });
});

describe("workers read chunks of a FileSystemStore themselves", () => {
  const workers = createWorkerPool({ size: 2 });
  const root = mkdtempSync(join(tmpdir(), "zarr-worker-read-"));
  afterAll(async () => {
    await workers.close();
    rmSync(root, { recursive: true, force: true });
  });

  async function makeArray(name: string) {
    const arr = await createArray(new FileSystemStore(root), name, {
      shape: [300, 500],
      chunkShape: [128, 256], // 256 KiB chunks, ragged at the edges
      dataType: "float64",
      fillValue: -1.5,
      codecs: [
        { name: "bytes", configuration: { endian: "little" } },
        { name: "gzip", configuration: { level: 1 } },
        { name: "crc32c" }, // its decoder returns a view of the bytes the worker read
      ],
    });
    const values = Float64Array.from({ length: 300 * 500 }, (_, i) => Math.sin(i / 50) * 1e3 + (i % 13));
    await set(arr, null, values);
    return values;
  }

  it("reads the same values, fills missing chunks, and never reads on the calling thread", async () => {
    const values = await makeArray("a");
    rmSync(join(root, "a", "c", "1", "0")); // a missing chunk reads as the fill value
    const expected = Float64Array.from(values, (v, i) => (Math.floor(i / 500) >= 128 && Math.floor(i / 500) < 256 && i % 500 < 256 ? -1.5 : v));
    const arr = await openArray(new FileSystemStore(root), "a");
    const store = new FileSystemStore(root);
    const opened = await openArray(store, "a");
    store.get = () => Promise.reject(new Error("read on the calling thread")); // only workers may read now
    for (const sel of [null, [slice(100, 290), slice(null, null, 7)]] as const) {
      const here = await get(arr, sel as never);
      const there = await get(opened, sel as never, { workers });
      expect(Array.from(there.data as Float64Array)).toEqual(Array.from(here.data as Float64Array));
    }
    expect(Buffer.compare(Buffer.from(((await get(opened, null, { workers })).data as Float64Array).buffer), Buffer.from(expected.buffer))).toBe(0);
  });

  it("reports chunks that cannot be read or decoded with their key", async () => {
    await makeArray("bad");
    writeFileSync(join(root, "bad", "c", "0", "1"), new Uint8Array(300_000).fill(7)); // garbage, larger than the others
    const arr = await openArray(new FileSystemStore(root), "bad");
    await expect(get(arr, null, { workers })).rejects.toMatchObject({ code: "CHECKSUM_MISMATCH", message: expect.stringContaining("bad/c/0/1") });
    rmSync(join(root, "bad", "c", "0", "1"));
    mkdirSync(join(root, "bad", "c", "0", "1", "x"), { recursive: true }); // a directory where the chunk should be: missing
    const filled = await get(arr, [0, 300], { workers });
    expect(filled.data[0]).toBe(-1.5);
  });

  it("reads through the calling thread when a wrapper hides the store's workerStore", async () => {
    await makeArray("counted");
    const counting = new CountingStore(new FileSystemStore(root));
    expect((counting as { workerStore?: unknown }).workerStore).toBeUndefined();
    const arr = await openArray(counting, "counted");
    counting.reset();
    await get(arr, null, { workers });
    expect(counting.reads).toBe(6);
  });
});

/** A pool that counts the calls it runs (what the executor decided to send to workers). */
function countingPool(inner: WorkerPool): WorkerPool & { calls: number } {
  const counted = {
    calls: 0,
    size: inner.size,
    run<R>(moduleUrl: string, exportName: string, args: readonly unknown[], transfer?: readonly ArrayBuffer[]): Promise<R> {
      counted.calls++;
      return inner.run<R>(moduleUrl, exportName, args, transfer);
    },
    close: () => inner.close(),
  };
  return counted;
}

describe("sharded arrays go through the same executor", () => {
  const pool = createWorkerPool({ size: 2 });
  afterAll(() => pool.close());
  const values = Float32Array.from({ length: 512 * 512 }, (_, i) => Math.sin(i / 77) * 300 + (i % 11));
  const zstd = { name: "zstd", configuration: { level: 1, checksum: false } };

  async function write(store: MemoryStore | FileSystemStore, name: string, sharded: boolean) {
    const arr = await createArray(store, name, {
      shape: [512, 512],
      chunkShape: [256, 256], // 4 chunks (or shards) of 256 KiB
      dataType: "float32",
      fillValue: 0,
      codecs: sharded
        ? [{ name: "sharding_indexed", configuration: { chunk_shape: [64, 64], codecs: [{ name: "bytes", configuration: { endian: "little" } }, zstd] } }]
        : [{ name: "bytes", configuration: { endian: "little" } }, zstd],
    });
    await set(arr, null, values);
    await set(arr, [slice(0, 64), slice(64, 128)], 0); // one inner chunk back to the fill value (not stored)
    return arr;
  }

  it("sends one task per chunk or shard to the workers, and reads the same values", async () => {
    const root = mkdtempSync(join(tmpdir(), "zarr-sharded-workers-"));
    try {
      for (const store of [new MemoryStore(), new FileSystemStore(root)]) {
        for (const sharded of [false, true]) {
          const workers = countingPool(pool);
          const arr = await write(store, sharded ? "s" : "u", sharded);
          const here = await get(arr);
          const there = await get(arr, null, { workers });
          expect(workers.calls, `sharded=${sharded}`).toBe(4);
          expect(Buffer.compare(Buffer.from((there.data as Float32Array).buffer), Buffer.from((here.data as Float32Array).buffer))).toBe(0);
          const expected = Float32Array.from(values, (v, i) => (Math.floor(i / 512) < 64 && i % 512 >= 64 && i % 512 < 128 ? 0 : v));
          expect(Buffer.compare(Buffer.from((there.data as Float32Array).buffer), Buffer.from(expected.buffer))).toBe(0);
          // A strided, reversed sub-selection crossing shards, into a caller's shared buffer with stale values.
          const sel = [slice(500, 10, -3), slice(30, 480, 5)] as const;
          const sub = await get(arr, sel as never);
          const out = new Float32Array(new SharedArrayBuffer(sub.data.length * 4)).fill(-9);
          await get(arr, sel as never, { workers, out });
          expect(Array.from(out)).toEqual(Array.from(sub.data as Float32Array));
        }
      }
    } finally {
      rmSync(root, { recursive: true, force: true });
    }
  });

  it("keeps small chunks and lightweight chains on the calling thread", async () => {
    const workers = countingPool(pool);
    const store = new MemoryStore();
    const small = await createArray(store, "small", { shape: [64, 64], chunkShape: [32, 32], dataType: "float32", codecs: [{ name: "bytes", configuration: { endian: "little" } }, zstd] });
    await set(small, null, 1);
    const raw = await createArray(store, "raw", { shape: [512, 512], chunkShape: [256, 256], dataType: "float32", codecs: [{ name: "bytes", configuration: { endian: "little" } }, { name: "crc32c" }] });
    await set(raw, null, 2);
    expect((await get(small, null, { workers })).data[5]).toBe(1);
    expect((await get(raw, null, { workers })).data[5]).toBe(2);
    expect(workers.calls).toBe(0);
  });
});

describe("writes go through the same executor", () => {
  const pool = createWorkerPool({ size: 2 });
  afterAll(() => pool.close());
  const values = Float32Array.from({ length: 512 * 512 }, (_, i) => Math.sin(i / 77) * 300 + (i % 11));
  const zstd = { name: "zstd", configuration: { level: 1, checksum: true } };
  const bytes = { name: "bytes", configuration: { endian: "little" } };
  const chains = {
    zstd: [bytes, zstd],
    sharded: [{ name: "sharding_indexed", configuration: { chunk_shape: [64, 64], codecs: [bytes, zstd] } }],
  };

  it.each(Object.keys(chains))("%s: chunks are encoded in the workers, to the same bytes", async (name) => {
    const codecs = chains[name as keyof typeof chains];
    const here = new MemoryStore();
    const there = new MemoryStore();
    const options = { shape: [512, 512], chunkShape: [256, 256], dataType: "float32" as const, codecs };
    const a = await createArray(here, "a", options);
    const b = await createArray(there, "a", options);
    await set(a, null, values);
    const workers = countingPool(pool);
    await set(b, null, values, { workers });
    expect(workers.calls).toBe(4);
    expect([...there.map.keys()].sort()).toEqual([...here.map.keys()].sort());
    for (const [key, value] of here.map) expect(Buffer.compare(there.map.get(key) as Uint8Array, value), key).toBe(0);
    expect(Buffer.compare(Buffer.from(((await get(b)).data as Float32Array).buffer), Buffer.from(values.buffer))).toBe(0);
  });

  it("read-modify-write of partly covered chunks reads and encodes in the workers", async () => {
    const store = new MemoryStore();
    const arr = await createArray(store, "rmw", { shape: [512, 512], chunkShape: [256, 256], dataType: "float32", codecs: chains.zstd });
    await set(arr, null, values);
    const workers = countingPool(pool);
    await set(arr, [slice(10, 300), 7], -5, { workers }); // touches 2 chunks partly
    expect(workers.calls).toBe(4); // 2 reads + 2 encodes
    const got = (await get(arr)).data as Float32Array;
    const want = Float32Array.from(values, (v, i) => (i % 512 === 7 && i >= 10 * 512 && i < 300 * 512 ? -5 : v));
    expect(Buffer.compare(Buffer.from(got.buffer), Buffer.from(want.buffer))).toBe(0);
  });
});

describe("worker threads and the process's Node flags", () => {
  it("inherit per-process flags Node refuses when passed explicitly (--max-old-space-size)", () => {
    const poolModule = new URL("../../core/dist/workers/index.js", import.meta.url).href;
    const script = `import { createWorkerPool } from ${JSON.stringify(poolModule)};
const pool = createWorkerPool({ size: 1 });
const cpus = await pool.run("node:os", "availableParallelism", []);
await pool.close();
console.log("ran in a worker:", typeof cpus);`;
    const r = spawnSync(process.execPath, ["--max-old-space-size=512", "--input-type=module", "-e", script], { encoding: "utf8" });
    expect(r.stderr).toBe("");
    expect(r.stdout.trim()).toBe("ran in a worker: number");
  });

  /**
   * Reads zstd chunks of 256 KiB (worth a worker) with a pool, and reports the heap limit
   * the pool's workers run with, in a child started with `args` and `env`.
   */
  function readWithWorkers(args: string[], env: Record<string, string> = {}) {
    const all = new URL("../dist/index.js", import.meta.url).href;
    const workersModule = new URL("../dist/workers.js", import.meta.url).href;
    const script = `import { createArray, get, MemoryStore, set } from ${JSON.stringify(all)};
import { createWorkerPool } from ${JSON.stringify(workersModule)};
const store = new MemoryStore();
const arr = await createArray(store, "a", { shape: [4, 65536], chunkShape: [1, 65536], dataType: "float32",
  codecs: [{ name: "bytes", configuration: { endian: "little" } }, { name: "zstd", configuration: { level: 1, checksum: true } }] });
await set(arr, null, 2.5);
let calls = 0;
const pool = createWorkerPool({ size: 2 });
const counting = { run: (...a) => { calls++; return pool.run(...a); }, close: () => pool.close() };
const data = (await get(arr, null, { workers: counting })).data;
const heap = await pool.run("node:v8", "getHeapStatistics", []);
await pool.close();
console.log(JSON.stringify({ calls, sum: data.reduce((a, b) => a + b, 0), heapLimitMiB: Math.round(heap.heap_size_limit / 2 ** 20) }));`;
    const r = spawnSync(process.execPath, [...args, "--input-type=module", "-e", script], {
      encoding: "utf8",
      env: { ...process.env, ...env },
      timeout: 60_000,
    });
    expect(r.stderr).toBe("");
    expect(r.status).toBe(0);
    return JSON.parse(r.stdout.trim()) as { calls: number; sum: number; heapLimitMiB: number };
  }

  // V8's heap flags are process-wide: workers run with the limit the user set, though the
  // flag itself is refused in a worker's execArgv.
  it("read with workers under node --max-old-space-size=4096, with that heap limit", () => {
    const out = readWithWorkers(["--max-old-space-size=4096"]);
    expect(out.calls).toBe(4); // every chunk went to a worker
    expect(out.sum).toBe(4 * 65536 * 2.5);
    expect(out.heapLimitMiB).toBeGreaterThanOrEqual(4096);
  });

  it("read with workers under a smaller heap limit too (flag or NODE_OPTIONS), with V8 flags mixed in", () => {
    for (const [args, env] of [
      [["--max-old-space-size=300", "--stack-size=2000", "--max-semi-space-size=16"], {}],
      [[], { NODE_OPTIONS: "--max-old-space-size=300" }],
    ] as const) {
      const out = readWithWorkers([...args], env);
      expect(out.calls).toBe(4);
      expect(out.sum).toBe(4 * 65536 * 2.5);
      // The old generation's 300 MiB plus the young generation.
      expect(out.heapLimitMiB).toBeGreaterThanOrEqual(300);
      expect(out.heapLimitMiB).toBeLessThan(400);
    }
  });
});
