/**
 * `set(…, { lock: true })` on a store that writes conditionally instead of locking
 * (`getVersioned` + `setIfVersion`, as S3 with `If-Match`): each partial chunk write is an
 * optimistic read-modify-write, retried when another writer changed the chunk meanwhile.
 */
import { describe, expect, it } from "vitest";
import {
  type ByteRange,
  createArray,
  get,
  MemoryStore,
  openArray,
  resolveByteRange,
  type StoreRequestOptions,
  set,
  storeChanged,
  type VersionedBytes,
  type VersionedReadOptions,
} from "../src/index.js";

const raw = [{ name: "bytes", configuration: { endian: "little" } }];

/**
 * A store of versioned values with conditional writes and no lock, as an object store is:
 * every write makes a new version; reads and writes take a little time, so writers interleave.
 */
class ConditionalStore {
  readonly inner: MemoryStore;
  readonly versions: Map<string, number>;
  readonly counts: { conflicts: number; next: number };
  /** With `of`, another handle on the same values (as a second process would have). */
  constructor(of?: ConditionalStore) {
    this.inner = of?.inner ?? new MemoryStore();
    this.versions = of?.versions ?? new Map();
    this.counts = of?.counts ?? { conflicts: 0, next: 1 };
  }
  #pause = () => new Promise((resolve) => setTimeout(resolve, Math.random() * 2));
  async get(key: string, options?: StoreRequestOptions) {
    await this.#pause();
    return this.inner.get(key, options);
  }
  async getVersioned(key: string, range: ByteRange | undefined, options?: VersionedReadOptions): Promise<VersionedBytes | undefined> {
    await this.#pause();
    const bytes = await this.inner.get(key);
    if (bytes === undefined) return undefined;
    const version = String(this.versions.get(key));
    if (options?.ifVersion !== undefined && options.ifVersion !== version) throw storeChanged(key, options.ifVersion, version);
    const [from, to] = range === undefined ? [0, bytes.length] : resolveByteRange(range, bytes.length);
    return { bytes: bytes.subarray(from, to), version };
  }
  async set(key: string, value: Uint8Array) {
    await this.#pause();
    await this.inner.set(key, value);
    this.versions.set(key, this.counts.next++);
  }
  async setIfVersion(key: string, value: Uint8Array, expected: string | null) {
    await this.#pause();
    // The check and the write are one step (nothing awaited in between), as on the server.
    const now = this.inner.map.has(key) ? String(this.versions.get(key)) : null;
    if (now !== expected) {
      this.counts.conflicts++;
      throw storeChanged(key, expected ?? "(absent)", now ?? "(absent)");
    }
    this.inner.map.set(key, value.slice());
    this.versions.set(key, this.counts.next++);
  }
  async delete(key: string) {
    await this.inner.delete(key);
  }
}

async function concurrentSets(store: ConditionalStore, n: number, lock: boolean): Promise<number> {
  const arr = await createArray(store, "a", { shape: [n], chunkShape: [n], dataType: "int32", codecs: raw });
  // Two store handles (two "processes": separate in-process queues) writing alternate elements.
  const other = await openArray(new ConditionalStore(store), "a");
  await Promise.all(Array.from({ length: n }, (_, i) => set(i % 2 ? arr : other, [i], i + 1, { lock })));
  const data = (await get(arr)).data as Int32Array;
  return data.reduce((lost, v, i) => (v === i + 1 ? lost : lost + 1), 0);
}

describe("set with lock: true on a store with conditional writes", () => {
  it("loses nothing: conflicting read-modify-writes are retried", async () => {
    const store = new ConditionalStore();
    expect(await concurrentSets(store, 100, true)).toBe(0);
    expect(store.counts.conflicts).toBeGreaterThan(0); // they did collide, and were retried
  });

  it("without the lock the same writes lose elements", async () => {
    expect(await concurrentSets(new ConditionalStore(), 100, false)).toBeGreaterThan(0);
  });

  it("writes a chunk that ends up all fill value instead of deleting it (a delete would not be conditional)", async () => {
    const store = new ConditionalStore();
    const arr = await createArray(store, "e", { shape: [4], chunkShape: [4], dataType: "int32", codecs: raw });
    await set(arr, [0], 5, { lock: true });
    await set(arr, [0], 0, { lock: true });
    expect(store.inner.keys()).toContain("e/c/0");
    expect(Array.from((await get(arr)).data as Int32Array)).toEqual([0, 0, 0, 0]);
  });
});
