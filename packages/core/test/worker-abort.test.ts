/**
 * Cancelling worker-pool calls (`WorkerPool.run`'s `options.signal`) with real worker
 * threads: queued calls are dropped, calls in a worker stop mid-task, and a `get` over a
 * pool stops when its signal aborts. The worker side is `fixtures/slow-tasks.mjs`, whose
 * exports count in shared memory how far they got.
 */

import { getEventListeners } from "node:events";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { createArray, createRegistry, get, MemoryStore, openArray, set, type WorkerPool, type WorkerStoreRecipe, ZarrError } from "../src/index.js";
import { createWorkerPool } from "../src/workers/index.js";
import { heavyCodec } from "./fixtures/slow-tasks.mjs";
import { writeHeavyArray } from "./heavy-array.js";

const FIXTURE = new URL("./fixtures/slow-tasks.mjs", import.meta.url).href;
const STARTED = 0;
const FINISHED = 1;
const READS_STARTED = 2;
const READS_DONE = 3;

function counters(): Int32Array {
  return new Int32Array(new SharedArrayBuffer(16));
}

/** Resolves once `check` holds, polling (fails after `ms`). */
async function until(check: () => boolean, ms = 20_000): Promise<void> {
  const end = Date.now() + ms;
  while (!check()) {
    if (Date.now() > end) throw new Error("timed out waiting");
    await new Promise((r) => setTimeout(r, 5));
  }
}

/** How the promise settled: its value, or the error's code. */
function outcome(p: Promise<unknown>): Promise<unknown> {
  return p.then(
    (value) => ({ value }),
    (error: unknown) => (error instanceof ZarrError ? error.code : error),
  );
}

describe("cancelling calls of a worker pool", () => {
  // One worker: it takes two calls at once (CALLS_PER_WORKER), the others queue.
  const pool = createWorkerPool({ size: 1 });
  afterAll(() => pool.close());

  it("drops queued calls when their signal aborts, without running them", async () => {
    const c = counters();
    const busy = [pool.run<number>(FIXTURE, "steps", [c, 10, 30]), pool.run<number>(FIXTURE, "steps", [c, 10, 30])];
    const controller = new AbortController();
    const queued = [1, 2, 3].map(() => outcome(pool.run<number>(FIXTURE, "steps", [c, 1, 0], [], { signal: controller.signal })));
    await until(() => Atomics.load(c, STARTED) === 2);
    controller.abort();
    // At once, while the calls before them still run.
    expect(await Promise.all(queued)).toEqual(["ABORTED", "ABORTED", "ABORTED"]);
    expect(Atomics.load(c, FINISHED)).toBe(0);
    expect(await Promise.all(busy)).toEqual([10, 10]);
    expect([Atomics.load(c, STARTED), Atomics.load(c, FINISHED)]).toEqual([2, 2]); // never ran
    expect(getEventListeners(controller.signal, "abort")).toHaveLength(0);
  });

  it("stops a call a worker runs mid-task and rejects it with ABORTED", async () => {
    const c = counters();
    const controller = new AbortController();
    const started = Date.now();
    const call = outcome(pool.run<number>(FIXTURE, "steps", [c, 200, 25], [], { signal: controller.signal })); // 5 s uncancelled
    await until(() => Atomics.load(c, STARTED) === 1);
    controller.abort();
    expect(await call).toBe("ABORTED");
    expect(Atomics.load(c, FINISHED)).toBe(0); // it never reached its end
    expect(Date.now() - started).toBeLessThan(4000);
    // The worker is free again.
    expect(await pool.run<number>(FIXTURE, "steps", [c, 1, 0])).toBe(1);
  });

  it("rejects a started call only once the worker answers, even when the export cannot stop", async () => {
    const c = counters();
    const controller = new AbortController();
    const call = outcome(pool.run<number>(FIXTURE, "stepsBlind", [c, 10, 30], [], { signal: controller.signal }));
    await until(() => Atomics.load(c, STARTED) === 1);
    controller.abort();
    expect(await call).toBe("ABORTED");
    // The export ran to its end before the call settled: the caller's memory was the worker's until then.
    expect(Atomics.load(c, FINISHED)).toBe(1);
  });

  it("rejects at once, posting nothing, when the signal is aborted already", async () => {
    const c = counters();
    const input = new Uint8Array(8);
    const reason = new Error("user gave up");
    const e = await pool.run(FIXTURE, "steps", [c, 1, 0], [input.buffer], { signal: AbortSignal.abort(reason) }).catch((x: unknown) => x);
    expect(e).toBeInstanceOf(ZarrError);
    expect(e).toMatchObject({ code: "ABORTED", cause: reason });
    expect(input.byteLength).toBe(8); // not moved: nothing was sent
    await new Promise((r) => setTimeout(r, 50));
    expect(Atomics.load(c, STARTED)).toBe(0);
  });

  it("keeps no listener on the signal once calls settle (10,000 calls)", async () => {
    const { signal } = new AbortController();
    const calls = Array.from({ length: 10_000 }, (_, i) => pool.run<number>(FIXTURE, "echo", [i], [], { signal }));
    expect(getEventListeners(signal, "abort")).toHaveLength(1); // one for all its calls
    const values = await Promise.all(calls);
    expect(values[9999]).toBe(9999);
    expect(getEventListeners(signal, "abort")).toHaveLength(0);
    // Failed calls let go of it too.
    await expect(pool.run(FIXTURE, "nope", [], [], { signal })).rejects.toMatchObject({ code: "CODEC_FAILED" });
    expect(getEventListeners(signal, "abort")).toHaveLength(0);
  });

  it("rejects a pool's pending calls with ABORTED when it closes, and lets go of their signals", async () => {
    const one = createWorkerPool({ size: 1 });
    const c = counters();
    const { signal } = new AbortController();
    const calls = [1, 2, 3].map(() => outcome(one.run(FIXTURE, "steps", [c, 100, 20], [], { signal })));
    await until(() => Atomics.load(c, STARTED) === 2);
    await one.close();
    expect(await Promise.all(calls)).toEqual(["ABORTED", "ABORTED", "ABORTED"]);
    expect(getEventListeners(signal, "abort")).toHaveLength(0);
  });
});

describe("get over a worker pool with a signal", () => {
  const dir = mkdtempSync(join(tmpdir(), "zarr-worker-abort-"));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));
  const pool = createWorkerPool({ size: 1 });
  afterAll(() => pool.close());
  const registry = createRegistry([heavyCodec]);

  /** A memory store whose chunks workers read from files under `dir`, slowly (see `slowFileStore`). */
  class SlowInWorkers extends MemoryStore {
    constructor(readonly recipe: WorkerStoreRecipe) {
      super();
    }
    workerStore(): WorkerStoreRecipe {
      return this.recipe;
    }
  }

  /** Every call the pool runs for a `get`, and how many have settled. */
  function watched(inner: WorkerPool): WorkerPool & { runs: number; settled: number } {
    const w = {
      size: inner.size,
      runs: 0,
      settled: 0,
      run<R>(...args: Parameters<WorkerPool["run"]>): Promise<R> {
        w.runs++;
        return inner.run<R>(...args).finally(() => w.settled++);
      },
      close: () => inner.close(),
    };
    return w;
  }

  it("stops reading when the signal aborts after the first chunk, leaves the pool idle and usable", async () => {
    const c = counters();
    const store = new SlowInWorkers({ moduleUrl: FIXTURE, exportName: "slowFileStore", args: [dir, c, 800] });
    // Six 64 KiB chunks: each large enough for the pool.
    const values = Float64Array.from({ length: 768 * 64 }, (_, i) => i * 0.5);
    await writeHeavyArray(store, registry, [768, 64], values);
    for (const [key, bytes] of store.map) {
      mkdirSync(dirname(join(dir, key)), { recursive: true });
      writeFileSync(join(dir, key), bytes);
    }
    const opened = await openArray(store, "a", { registry });
    const workers = watched(pool);

    const controller = new AbortController();
    const reading = outcome(get(opened, null, { workers, signal: controller.signal }));
    await until(() => Atomics.load(c, READS_DONE) >= 1);
    controller.abort();
    const done = Atomics.load(c, READS_DONE);
    expect(await reading).toBe("ABORTED");
    await until(() => workers.settled === workers.runs);
    expect(workers.runs).toBeGreaterThan(2); // some were queued, or in the worker, when it aborted
    // The queued reads never began and the worker stopped the ones it ran. A read the worker
    // was finishing as the cancel message travelled may still complete (on a loaded
    // machine the abort can come late): at most the two the worker holds at once.
    const settled = Atomics.load(c, READS_DONE);
    expect(settled).toBeLessThanOrEqual(done + 2);
    expect(settled).toBeLessThan(6);
    expect(Atomics.load(c, READS_STARTED)).toBeLessThan(6);

    // The same pool reads the whole array afterwards.
    const again = await get(opened, null, { workers });
    expect(Buffer.compare(Buffer.from((again.data as Float64Array).buffer), Buffer.from(values.buffer))).toBe(0);
    expect(Atomics.load(c, READS_DONE)).toBe(settled + 6);
  });

  it("stops encoding chunks of a set in the workers when its signal aborts", async () => {
    const store = new MemoryStore();
    // Six 64 KiB chunks whose encoding takes 2 s each, two at a time in the one worker.
    const arr = await createArray(store, "slow", {
      shape: [768, 64],
      chunkShape: [128, 64],
      dataType: "float64",
      codecs: [{ name: "bytes", configuration: { endian: "little" } }, { name: "test.heavy", configuration: { encodeMs: 2000 } }],
      registry,
    });
    const workers = watched(pool);
    const controller = new AbortController();
    const writing = outcome(set(arr, null, Float64Array.from({ length: 768 * 64 }, (_, i) => i), { workers, signal: controller.signal }));
    await until(() => workers.runs >= 2);
    controller.abort();
    const aborted = Date.now();
    expect(await writing).toBe("ABORTED");
    // The encodes in the worker stopped (2 s each otherwise) and the queued ones never ran.
    await until(() => workers.settled === workers.runs);
    expect(Date.now() - aborted).toBeLessThan(1500);
    expect([...store.map.keys()].filter((k) => k.startsWith("slow/c/"))).toEqual([]);
  });
});
