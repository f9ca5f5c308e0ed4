/**
 * A chunk cache and a worker pool together: the cache's misses are decoded whole in the
 * pool (`decodeChunk`) and kept on the calling thread, hits are copied without a worker
 * call or a store request, reads of a chunk already in flight wait for it, and cancelling
 * stops the store reads and the worker calls.
 */
import { setTimeout as sleep } from "node:timers/promises";
import { afterAll, describe, expect, it } from "vitest";
import {
  createChunkCache,
  createRegistry,
  get,
  MemoryStore,
  openArray,
  slice,
  throwIfAborted,
  type WorkerPool,
  ZarrError,
} from "../src/index.js";
import { createWorkerPool } from "../src/workers/index.js";
import { heavyCodec } from "./fixtures/slow-tasks.mjs";
import { writeHeavyArray } from "./heavy-array.js";

/** A memory store counting reads per key, each read waiting `delay` ms first (stopping when its signal aborts). */
class CountingStore extends MemoryStore {
  reads = new Map<string, number>();
  /** Keys whose read was cancelled while it waited. */
  aborted: string[] = [];
  delay = 0;
  override async get(key: string, options?: { signal?: AbortSignal }): Promise<Uint8Array | undefined> {
    if (!key.endsWith("zarr.json")) {
      this.reads.set(key, (this.reads.get(key) ?? 0) + 1);
      if (this.delay > 0)
        await sleep(this.delay, undefined, { signal: options?.signal }).catch(() => {
          this.aborted.push(key);
          throwIfAborted(options?.signal);
        });
    }
    return super.get(key, options);
  }
  total(): number {
    return [...this.reads.values()].reduce((a, b) => a + b, 0);
  }
}

/** The pool, counting its calls by export. */
function watched(inner: WorkerPool): WorkerPool & { calls: Map<string, number> } {
  const w = {
    size: inner.size,
    calls: new Map<string, number>(),
    run<R>(...args: Parameters<WorkerPool["run"]>): Promise<R> {
      w.calls.set(args[1], (w.calls.get(args[1]) ?? 0) + 1);
      return inner.run<R>(...args);
    },
    close: () => inner.close(),
  };
  return w;
}

/** Resolves once `check` holds, polling (fails after 20 s). */
async function until(check: () => boolean): Promise<void> {
  const end = Date.now() + 20_000;
  while (!check()) {
    if (Date.now() > end) throw new Error("timed out waiting");
    await sleep(2);
  }
}

function outcome(p: Promise<unknown>): Promise<unknown> {
  return p.then(
    () => "ok",
    (e: unknown) => (e instanceof ZarrError ? e.code : e),
  );
}

describe("get with a chunk cache and workers", () => {
  const pool = createWorkerPool({ size: 1 });
  afterAll(() => pool.close());
  const registry = createRegistry([heavyCodec]);
  // Four 64 KiB chunks of float64: each large enough for the pool.
  const values = Float64Array.from({ length: 256 * 128 }, (_, i) => i * 0.25);

  async function setup() {
    const store = new CountingStore();
    await writeHeavyArray(store, registry, [256, 128], values);
    store.reads.clear();
    return { store, arr: await openArray(store, "a", { registry }) };
  }

  it("decodes misses in the pool, keeps them, and serves hits with no worker call or store read", async () => {
    const { store, arr } = await setup();
    const chunkCache = createChunkCache({ maxBytes: 1 << 20 });
    const workers = watched(pool);
    const first = await get(arr, null, { workers, chunkCache });
    expect(Buffer.compare(Buffer.from(new Float64Array(first.data as Float64Array).buffer), Buffer.from(values.buffer))).toBe(0);
    expect(workers.calls.get("decodeChunk")).toBe(4);
    expect(workers.calls.get("readChunk")).toBeUndefined();
    expect(chunkCache.entries).toBe(4);
    expect(store.total()).toBe(4);

    const part = await get(arr, [slice(100, 150), slice(60, 70)], { workers, chunkCache });
    expect(part.data[0]).toBe(values[100 * 128 + 60]);
    expect(part.data[part.data.length - 1]).toBe(values[149 * 128 + 69]);
    expect(workers.calls.get("decodeChunk")).toBe(4);
    expect(store.total()).toBe(4);
    expect(chunkCache.hits).toBe(4);
  });

  it("reads a chunk once when reads of it overlap in time", async () => {
    const { store, arr } = await setup();
    store.delay = 100;
    const chunkCache = createChunkCache({ maxBytes: 1 << 20 });
    const workers = watched(pool);
    // Three neighbouring windows, all in the first chunk, requested together (as map tiles are).
    const reads = await Promise.all([0, 20, 40].map((r) => get(arr, [slice(r, r + 20), slice(0, 30)], { workers, chunkCache })));
    expect(reads.map((r) => r.data[0])).toEqual([0, 20, 40].map((r) => values[r * 128]));
    expect(store.reads.get("a/c/0/0")).toBe(1);
    expect(workers.calls.get("decodeChunk")).toBe(1);
  });

  it("keeps fetching a chunk for the reads still waiting when one is cancelled, and stops when all are", async () => {
    const { store, arr } = await setup();
    store.delay = 100;
    const chunkCache = createChunkCache({ maxBytes: 1 << 20 });
    const workers = watched(pool);
    const first = new AbortController();
    const a = outcome(get(arr, [slice(0, 10), slice(0, 10)], { workers, chunkCache, signal: first.signal }));
    // Each read looks the chunk up (a miss) just before it starts or joins the fetch.
    await until(() => chunkCache.misses === 1);
    const b = get(arr, [slice(10, 20), slice(0, 10)], { workers, chunkCache });
    await until(() => chunkCache.misses === 2);
    first.abort();
    expect(await a).toBe("ABORTED");
    expect((await b).data[0]).toBe(values[10 * 128]);
    expect(workers.calls.get("decodeChunk")).toBe(1);
    expect(store.reads.get("a/c/0/0")).toBe(1);

    // Both cancelled: the fetch stops (the store read sees the abort) and nothing is cached.
    const c1 = new AbortController();
    const c2 = new AbortController();
    const reads = [c1, c2].map((c, i) => outcome(get(arr, [slice(200, 210), slice(i * 10, i * 10 + 10)], { workers, chunkCache, signal: c.signal })));
    await until(() => chunkCache.misses === 4);
    c1.abort();
    c2.abort();
    expect(await Promise.all(reads)).toEqual(["ABORTED", "ABORTED"]);
    await sleep(150);
    expect(store.aborted).toEqual(["a/c/1/0"]);
    expect(workers.calls.get("decodeChunk")).toBe(1);
    expect(chunkCache.entries).toBe(1);
    // And the chunk reads afterwards.
    expect((await get(arr, [200, 0], { workers, chunkCache })).data[0]).toBe(values[200 * 128]);
  });

  it("lets a waiting read go at once when its own signal aborts, and the read it waited for still fills the cache", async () => {
    const { store, arr } = await setup();
    store.delay = 150;
    const chunkCache = createChunkCache({ maxBytes: 1 << 20 });
    const a = get(arr, [slice(0, 10), slice(0, 10)], { workers: pool, chunkCache });
    await until(() => chunkCache.misses === 1);
    const waiting = new AbortController();
    const b = outcome(get(arr, [slice(10, 20), slice(0, 10)], { workers: pool, chunkCache, signal: waiting.signal }));
    await until(() => chunkCache.misses === 2);
    waiting.abort();
    // Rejected before the read it waited for finishes (that one still waits on the store).
    expect(await Promise.race([b, a.then(() => "the awaited read finished first")])).toBe("ABORTED");
    expect((await a).data[0]).toBe(0);
    expect(chunkCache.entries).toBe(1);
    expect(store.reads.get("a/c/0/0")).toBe(1);
  });

  it("cancels its decode calls in the pool with the read's signal, caching nothing", async () => {
    const { arr } = await setup();
    const chunkCache = createChunkCache({ maxBytes: 1 << 20 });
    const controller = new AbortController();
    const signals: (AbortSignal | undefined)[] = [];
    const workers: WorkerPool = {
      size: pool.size,
      run<R>(...args: Parameters<WorkerPool["run"]>): Promise<R> {
        signals.push(args[4]?.signal);
        controller.abort(); // MapLibre gives up on the tile while its chunk is being decoded
        return pool.run<R>(...args);
      },
      close: () => pool.close(),
    };
    expect(await outcome(get(arr, [slice(0, 10), slice(0, 10)], { workers, chunkCache, signal: controller.signal }))).toBe("ABORTED");
    // The pool call carries the chunk read's own signal, aborted since its only reader was.
    expect(signals.map((s) => s?.aborted)).toEqual([true]);
    expect(chunkCache.entries).toBe(0);
    // The next read of the chunk is not stuck behind the cancelled one.
    expect((await get(arr, [slice(0, 10), slice(0, 10)], { workers: pool, chunkCache })).data[1]).toBe(values[1]);
  });
});
