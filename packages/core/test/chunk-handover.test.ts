/**
 * Chunk bytes handed to pool workers: moved when the store declares them its caller's own
 * (`returnedBytes: "owned"`), shared when they are on a SharedArrayBuffer the store never
 * changes (`"immutable"`), and otherwise copied, onto spare buffers the workers give back,
 * leaving the store's bytes intact.
 */
import { afterAll, describe, expect, it } from "vitest";
import { handOver, SpareBuffers } from "../src/engine/chunk-handover.js";
import {
  createChunkCache,
  createRegistry,
  get,
  MemoryStore,
  openArray,
  type ReturnedBytes,
  type StoreRequestOptions,
  type WorkerPool,
} from "../src/index.js";
import { createWorkerPool } from "../src/workers/index.js";
import { heavyCodec } from "./fixtures/slow-tasks.mjs";
import { writeHeavyArray } from "./heavy-array.js";

describe("handOver", () => {
  it("moves owned bytes that span their buffer, without a copy", () => {
    const bytes = Uint8Array.of(1, 2, 3);
    const sent = handOver(bytes, "owned");
    expect(sent.bytes).toBe(bytes);
    expect(sent.transfer).toEqual([bytes.buffer]);
    expect(sent.spare).toBe(false);
  });

  it("copies owned bytes that are a view of a larger buffer (moving it would take the rest too)", () => {
    const bytes = Uint8Array.of(0, 1, 2, 3).subarray(1);
    const sent = handOver(bytes, "owned");
    expect(sent.bytes.buffer).not.toBe(bytes.buffer);
    expect([...sent.bytes]).toEqual([1, 2, 3]);
    expect(sent.transfer).toEqual([sent.bytes.buffer]);
  });

  it("copies bytes of a store that declares nothing, even on shared memory", () => {
    const plain = Uint8Array.of(1, 2, 3);
    expect(handOver(plain, undefined).bytes.buffer).not.toBe(plain.buffer);
    const shared = new Uint8Array(new SharedArrayBuffer(3));
    const sent = handOver(shared, undefined);
    expect(sent.bytes.buffer).toBeInstanceOf(ArrayBuffer);
    expect(sent.transfer).toEqual([sent.bytes.buffer]);
  });

  it("shares immutable bytes on shared memory as they are, and copies immutable bytes that are not", () => {
    const shared = new Uint8Array(new SharedArrayBuffer(8), 2, 4);
    const sent = handOver(shared, "immutable");
    expect(sent.bytes).toBe(shared);
    expect(sent.transfer).toEqual([]);
    const plain = Uint8Array.of(1, 2, 3);
    expect(handOver(plain, "immutable").bytes.buffer).not.toBe(plain.buffer);
  });

  it("copies onto a spare buffer when given spares, and reuses one given back", () => {
    const spares = new SpareBuffers(2);
    const bytes = Uint8Array.of(9, 8, 7);
    const sent = handOver(bytes, undefined, spares);
    expect(sent.spare).toBe(true);
    expect([...sent.bytes]).toEqual([9, 8, 7]);
    expect(sent.transfer).toEqual([sent.bytes.buffer]);
    spares.give(sent.bytes.buffer as ArrayBuffer);
    expect(handOver(bytes, undefined, spares).bytes.buffer).toBe(sent.bytes.buffer);
    expect(spares.size).toBe(0);
  });

  it("keeps at most `keep` spares (the largest), and drops detached ones", () => {
    const spares = new SpareBuffers(2);
    for (const n of [100, 300, 200]) spares.give(new ArrayBuffer(n));
    expect(spares.size).toBe(2);
    expect(spares.take(150).byteLength).toBe(200);
    expect(spares.take(150).byteLength).toBe(300);
    spares.give(new ArrayBuffer(0));
    expect(spares.size).toBe(0);
  });
});

/** A read-only store over `inner` whose `get` resolves a fresh copy of each chunk, declaring `returned`; it keeps every array it returned. */
class CopyingStore {
  returned: Uint8Array[] = [];
  constructor(
    readonly inner: MemoryStore,
    readonly returnedBytes: ReturnedBytes | undefined,
  ) {}
  async get(key: string, options?: StoreRequestOptions): Promise<Uint8Array | undefined> {
    const value = await this.inner.get(key, options);
    if (value === undefined || key.endsWith("zarr.json")) return value;
    const copy = value.slice();
    this.returned.push(copy);
    return copy;
  }
}

/** The pool, recording what each call moved and what it answered. */
function watched(inner: WorkerPool): WorkerPool & { moved: ArrayBuffer[]; answers: unknown[] } {
  const w = {
    size: inner.size,
    moved: [] as ArrayBuffer[],
    answers: [] as unknown[],
    async run<R>(...args: Parameters<WorkerPool["run"]>): Promise<R> {
      w.moved.push(...(args[3] ?? []));
      const answer = await inner.run<R>(...args);
      w.answers.push(answer);
      return answer;
    },
    close: () => inner.close(),
  };
  return w;
}

describe("chunk reads in a pool", () => {
  const pool = createWorkerPool({ size: 1 });
  afterAll(() => pool.close());
  const registry = createRegistry([heavyCodec]);
  // Four 64 KiB chunks of float64: each large enough for the pool.
  const values = Float64Array.from({ length: 256 * 128 }, (_, i) => i * 0.5);

  /** Writes the array into a memory store. */
  async function written(): Promise<MemoryStore> {
    const store = new MemoryStore();
    await writeHeavyArray(store, registry, [256, 128], values);
    return store;
  }

  /** The array written, read through a {@link CopyingStore} declaring `returned`. */
  async function copying(returned: ReturnedBytes | undefined) {
    const store = new CopyingStore(await written(), returned);
    return { store, arr: await openArray(store, "a", { registry }) };
  }

  const same = (data: unknown) => expect(Buffer.from(new Float64Array(data as Float64Array).buffer).equals(Buffer.from(values.buffer))).toBe(true);

  it("moves the bytes of a store declaring them owned: they are detached after the read", async () => {
    const { store, arr } = await copying("owned");
    const workers = watched(pool);
    same((await get(arr, null, { workers })).data);
    expect(store.returned.length).toBe(4);
    for (const bytes of store.returned) {
      expect(bytes.buffer.byteLength).toBe(0);
      expect(workers.moved).toContain(bytes.buffer);
    }
    // Nothing to give back: the answers are plain.
    expect(workers.answers).toEqual([true, true, true, true]);
  });

  it("copies the bytes of a store declaring nothing: they stay intact, and the copies' buffers come back for reuse", async () => {
    const { store, arr } = await copying(undefined);
    const workers = watched(pool);
    same((await get(arr, null, { workers })).data);
    same((await get(arr, null, { workers })).data);
    expect(store.returned.length).toBe(8);
    for (const bytes of store.returned) {
      expect(bytes.byteLength).toBe(128 * 64 * 8);
      expect(workers.moved).not.toContain(bytes.buffer);
    }
    const spares = workers.answers.map((a) => (a as { spare: Uint8Array }).spare.buffer);
    expect(spares.length).toBe(8);
    expect(spares.every((b) => b instanceof ArrayBuffer)).toBe(true);
    // The second read copied onto buffers the first one got back.
    expect(workers.moved.slice(4).some((b) => spares.slice(0, 4).includes(b))).toBe(true);
  });

  it("shares a memory store's values on shared memory with no copy and no move", async () => {
    const store = await written();
    for (const [key, value] of store.map) {
      if (key.endsWith("zarr.json")) continue;
      const shared = new Uint8Array(new SharedArrayBuffer(value.length));
      shared.set(value);
      store.map.set(key, shared);
    }
    const arr = await openArray(store, "a", { registry });
    const workers = watched(pool);
    same((await get(arr, null, { workers })).data);
    expect(workers.moved).toEqual([]);
    expect(workers.answers).toEqual([true, true, true, true]);
  });

  it("moves owned bytes to the pool's decodeChunk behind a chunk cache", async () => {
    const { store, arr } = await copying("owned");
    const workers = watched(pool);
    same((await get(arr, null, { workers, chunkCache: createChunkCache({ maxBytes: 1 << 20 }) })).data);
    expect(store.returned.length).toBe(4);
    for (const bytes of store.returned) expect(bytes.buffer.byteLength).toBe(0);
  });
});
