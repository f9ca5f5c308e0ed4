/**
 * `set(…, { lock: true })` within one process: concurrent `set` calls on one chunk queue
 * per key (KeyMutex, then the store's own lock) instead of losing each other's elements.
 */
import { describe, expect, it } from "vitest";
import {
  createArray,
  get,
  KeyMutex,
  MemoryStore,
  openArray,
  type Store,
  type StoreLock,
  type StoreRequestOptions,
  set,
  ZarrError,
} from "../src/index.js";

const raw = [{ name: "bytes", configuration: { endian: "little" } }];
const N = 200;

/** A MemoryStore whose reads and writes take a few ms, as a disk or network would, and which records locks. */
class SlowStore extends MemoryStore {
  locked: string[] = [];
  override async get(key: string, options?: StoreRequestOptions): Promise<Uint8Array | undefined> {
    await new Promise((resolve) => setTimeout(resolve, Math.random() * 2));
    return super.get(key, options);
  }
  override async set(key: string, value: Uint8Array, options?: StoreRequestOptions): Promise<void> {
    const copy = value.slice();
    await new Promise((resolve) => setTimeout(resolve, Math.random() * 2));
    return super.set(key, copy, options);
  }
  override async lock(key: string, options?: StoreRequestOptions): Promise<StoreLock> {
    this.locked.push(key);
    return super.lock(key, options);
  }
}

/** `N` concurrent single-element sets into one chunk; resolves how many elements were lost. */
async function concurrentSets(store: Store, lock: boolean): Promise<number> {
  const arr = await createArray(store, "a", { shape: [N], chunkShape: [N], dataType: "int32", codecs: raw });
  await Promise.all(Array.from({ length: N }, (_, i) => set(arr, [i], i + 1, { lock })));
  const data = (await get(arr)).data as Int32Array;
  return data.reduce((lost, v, i) => (v === i + 1 ? lost : lost + 1), 0);
}

describe("set with lock: true in one process", () => {
  it(`${N} concurrent single-element sets on one chunk lose nothing`, async () => {
    const store = new SlowStore();
    expect(await concurrentSets(store, true)).toBe(0);
    expect(store.locked).toHaveLength(N);
    expect(new Set(store.locked)).toEqual(new Set(["a/c/0"]));
  });

  it("without the lock the same sets lose elements (why it exists)", async () => {
    expect(await concurrentSets(new SlowStore(), false)).toBeGreaterThan(0);
  });

  it("locks whole-chunk writes too (they would otherwise land inside another writer's read-modify-write)", async () => {
    const store = new SlowStore();
    const arr = await createArray(store, "b", { shape: [4], chunkShape: [2], dataType: "int32", codecs: raw });
    await set(arr, null, new Int32Array([1, 2, 3, 4]), { lock: true });
    expect(store.locked.sort()).toEqual(["b/c/0", "b/c/1"]);
  });

  it("releases the store lock when a chunk write fails, so the next writer gets in", async () => {
    let fail = true;
    const store = new (class extends MemoryStore {
      override async set(key: string, value: Uint8Array, options?: StoreRequestOptions): Promise<void> {
        if (fail && key.includes("/c/")) throw new Error("disk full");
        return super.set(key, value, options);
      }
    })();
    const arr = await createArray(store, "a", { shape: [4], chunkShape: [4], dataType: "int32", codecs: raw });
    await expect(set(arr, [0], 1, { lock: true })).rejects.toMatchObject({ code: "STORE_FAILED" });
    fail = false;
    await set(arr, [1], 2, { lock: true }); // would wait forever on a leaked lock
    expect(Array.from((await get(arr)).data as Int32Array)).toEqual([0, 2, 0, 0]);
  });

  it("refuses with UNSUPPORTED, before writing, a store that cannot lock", async () => {
    const store = new MemoryStore();
    await createArray(store, "a", { shape: [4], chunkShape: [2], dataType: "int32", codecs: raw });
    const unlockable: Store = { get: (k, o) => store.get(k, o), set: (k, v, o) => store.set(k, v, o), delete: (k, o) => store.delete(k, o) };
    const viaPlain = await openArray(unlockable, "a");
    const error = await set(viaPlain, [0], 5, { lock: true }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ZarrError);
    expect((error as ZarrError).code).toBe("UNSUPPORTED");
    expect((error as ZarrError).message).toContain('"a"');
    expect(store.keys()).not.toContain("a/c/0");
    await set(viaPlain, [0], 5); // without the lock it writes
    expect(store.keys()).toContain("a/c/0");
  });
});

describe("KeyMutex", () => {
  it("runs holders of one key one at a time, in order; other keys do not wait", async () => {
    const mutex = new KeyMutex();
    const order: string[] = [];
    const hold = async (key: string, name: string, ms: number) => {
      const release = await mutex.acquire(key);
      order.push(`${name}+`);
      await new Promise((resolve) => setTimeout(resolve, ms));
      order.push(`${name}-`);
      release();
    };
    await Promise.all([hold("k", "a", 10), hold("k", "b", 1), hold("k", "c", 1), hold("other", "x", 1)]);
    expect(order.filter((e) => e !== "x+" && e !== "x-")).toEqual(["a+", "a-", "b+", "b-", "c+", "c-"]);
    expect(order.indexOf("x-")).toBeLessThan(order.indexOf("a-"));
    expect(mutex.size).toBe(0);
  });

  it("a waiter that is aborted gives up its turn without blocking the next one; release twice is harmless", async () => {
    const mutex = new KeyMutex();
    const first = await mutex.acquire("k");
    const controller = new AbortController();
    const aborted = mutex.acquire("k", controller.signal);
    const third = mutex.acquire("k");
    controller.abort();
    await expect(aborted).rejects.toMatchObject({ code: "ABORTED" });
    first();
    first();
    (await third)();
    expect(mutex.size).toBe(0);
    await expect(mutex.acquire("k", AbortSignal.abort())).rejects.toMatchObject({ code: "ABORTED" });
  });
});
