import { MemoryStore } from "@zarr/core";
import { type ByteRange, isListable, isWritable, resolveByteRange, supportsRanges } from "@zarr/spec";
import { HttpStore } from "@zarr/store-http";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { CACHE_ENTRY_OVERHEAD, CachingStore, CountingStore } from "../src/index.js";

const filled = (n: number, seed = 1) => new Uint8Array(n).map((_, i) => (i * 31 + seed) & 255);

function setup(values: Record<string, Uint8Array>, maxBytes = 1 << 20) {
  const memory = new MemoryStore(Object.entries(values));
  const counted = new CountingStore(memory);
  const cached = new CachingStore(counted, { maxBytes });
  return { memory, counted, cached };
}

describe("CachingStore", () => {
  it("serves repeated gets from memory", async () => {
    const { counted, cached } = setup({ a: filled(100), b: filled(50, 2) });
    expect(await cached.get("a")).toEqual(filled(100));
    expect(await cached.get("a")).toEqual(filled(100));
    expect(await cached.get("b")).toEqual(filled(50, 2));
    expect(await cached.get("a")).toEqual(filled(100));
    expect(counted.count("get", "a")).toBe(1);
    expect(counted.count("get", "b")).toBe(1);
    expect(cached.hits).toBe(2);
    expect(cached.misses).toBe(2);
    expect(cached.entries).toBe(2);
    expect(cached.bytes).toBe(150 + 2 * CACHE_ENTRY_OVERHEAD);
  });

  it("remembers missing keys (unless told not to)", async () => {
    const { counted, cached } = setup({});
    expect(await cached.get("gone")).toBeUndefined();
    expect(await cached.get("gone")).toBeUndefined();
    expect(await cached.getRange!("gone", { offset: 0, length: 1 })).toBeUndefined();
    expect(counted.reads).toBe(1);
    const other = setup({});
    const noMiss = new CachingStore(other.counted, { maxBytes: 1000, cacheMissing: false });
    await noMiss.get("gone");
    await noMiss.get("gone");
    expect(other.counted.reads).toBe(2);
  });

  it("evicts the least recently used entries once maxBytes is reached", async () => {
    const o = CACHE_ENTRY_OVERHEAD;
    const { counted, cached } = setup({ a: filled(100), b: filled(100, 2), c: filled(100, 3), big: filled(1000) }, 2 * (100 + o));
    await cached.get("a");
    await cached.get("b");
    await cached.get("a"); // a is now the most recently used
    await cached.get("c"); // evicts b
    expect(cached.entries).toBe(2);
    expect(cached.bytes).toBe(2 * (100 + o));
    counted.reset();
    await cached.get("a");
    await cached.get("c");
    expect(counted.reads).toBe(0);
    await cached.get("b");
    expect(counted.count("get", "b")).toBe(1);
    // Larger than the whole cache: passed through, nothing evicted for it.
    counted.reset();
    expect(await cached.get("big")).toEqual(filled(1000));
    expect(await cached.get("big")).toEqual(filled(1000));
    expect(counted.count("get", "big")).toBe(2);
    expect(cached.entries).toBe(2);
  });

  it("caches ranges per (key, range) and cuts ranges from a cached whole value", async () => {
    const v = filled(1000);
    const { counted, cached } = setup({ k: v });
    const ranges: ByteRange[] = [{ offset: 10, length: 20 }, { suffixLength: 16 }, { offset: 990 }];
    for (const r of ranges) {
      const [s, e] = resolveByteRange(r, v.length);
      expect(await cached.getRange!("k", r)).toEqual(v.slice(s, e));
      expect(await cached.getRange!("k", r)).toEqual(v.slice(s, e));
    }
    expect(counted.counts.getRange).toBe(3);
    await cached.getRange!("k", { offset: 10, length: 21 }); // a different range: a new request
    expect(counted.counts.getRange).toBe(4);
    expect(cached.entries).toBe(4);
    // Once the whole value is cached, its ranges are dropped and every range is cut from it.
    await cached.get("k");
    expect(cached.entries).toBe(1);
    counted.reset();
    expect(await cached.getRange!("k", { offset: 500, length: 7 })).toEqual(v.slice(500, 507));
    expect(await cached.getRange!("k", { suffixLength: 2000 })).toEqual(v);
    expect(await cached.getSize!("k")).toBe(1000);
    expect(counted.total).toBe(0);
  });

  it("answers a range inside a cached range result without a request, clamping at the value's end", async () => {
    const v = filled(1000);
    const { counted, cached } = setup({ k: v });
    await cached.getRange!("k", { offset: 100, length: 400 });
    await cached.getRange!("k", { offset: 900, length: 500 }); // reaches the end: holds 900..1000
    counted.reset();
    expect(await cached.getRange!("k", { offset: 100, length: 400 })).toEqual(v.slice(100, 500));
    expect(await cached.getRange!("k", { offset: 250, length: 10 })).toEqual(v.slice(250, 260));
    expect(await cached.getRange!("k", { offset: 450, length: 50 })).toEqual(v.slice(450, 500));
    expect(await cached.getRange!("k", { offset: 950 })).toEqual(v.slice(950));
    expect(await cached.getRange!("k", { offset: 990, length: 100 })).toEqual(v.slice(990));
    expect(await cached.getRange!("k", { offset: 2000, length: 5 })).toEqual(new Uint8Array(0));
    expect(counted.total).toBe(0);
    // Not held: partly outside a cached range, before it, or a suffix.
    expect(await cached.getRange!("k", { offset: 450, length: 51 })).toEqual(v.slice(450, 501));
    expect(await cached.getRange!("k", { offset: 50, length: 60 })).toEqual(v.slice(50, 110));
    expect(await cached.getRange!("k", { suffixLength: 10 })).toEqual(v.slice(990));
    expect(counted.counts.getRange).toBe(3);
  });

  it("keeps a copy of a value that is a view into a larger buffer, so maxBytes is what is held", async () => {
    const big = filled(10_000);
    const view = big.subarray(100, 200);
    const cached = new CachingStore({ get: async () => view }, { maxBytes: 1000 });
    const got = await cached.get("k");
    expect(got).toEqual(view);
    expect(cached.bytes).toBe(100 + CACHE_ENTRY_OVERHEAD);
    const again = await cached.get("k");
    expect(again).toEqual(view);
    expect(again!.buffer.byteLength).toBe(100);
  });

  it("drops entries on set, delete and deletePrefix through it", async () => {
    const { memory, counted, cached } = setup({ "a/1": filled(10), "a/2": filled(10, 2), b: filled(10, 3) });
    for (const k of ["a/1", "a/2", "b"]) {
      await cached.get(k);
      await cached.getRange!(k, { offset: 0, length: 2 });
    }
    await cached.set!("a/1", filled(5, 9));
    expect(await cached.get("a/1")).toEqual(filled(5, 9));
    expect(await cached.getRange!("a/1", { offset: 0, length: 2 })).toEqual(filled(5, 9).slice(0, 2));
    await cached.delete!("b");
    expect(await cached.get("b")).toBeUndefined();
    await cached.deletePrefix!("a/");
    expect(await cached.get("a/1")).toBeUndefined();
    expect(await cached.getRange!("a/2", { offset: 0, length: 2 })).toBeUndefined();
    expect(memory.keys()).toEqual([]);
    expect(counted.count("get", "a/1")).toBe(3);
  });

  it("does not see writes made behind its back until invalidated (as documented)", async () => {
    const { memory, cached } = setup({ k: filled(10) });
    await cached.get("k");
    await memory.set("k", filled(10, 5));
    expect(await cached.get("k")).toEqual(filled(10)); // stale
    cached.invalidate("k");
    expect(await cached.get("k")).toEqual(filled(10, 5));
    await memory.set("k", filled(10, 6));
    cached.clear();
    expect(await cached.get("k")).toEqual(filled(10, 6));
    expect(cached.entries).toBe(1);
  });

  it("does not cache a read that was in flight while the key was written", async () => {
    const memory = new MemoryStore([["k", filled(10)]]);
    let release!: () => void;
    const gate = new Promise<void>((r) => (release = r));
    const inner = {
      get: async (key: string) => {
        const v = await memory.get(key); // the old value, read before the write
        await gate;
        return v;
      },
      set: (key: string, v: Uint8Array) => memory.set(key, v),
      delete: (key: string) => memory.delete(key),
    };
    const cached = new CachingStore(inner, { maxBytes: 1000 });
    const reading = cached.get("k");
    await cached.set!("k", filled(10, 7));
    release();
    expect(await reading).toEqual(filled(10)); // that read saw the old value...
    expect(cached.entries).toBe(0); // ...and did not cache it
    inner.get = (key) => memory.get(key);
    expect(await cached.get("k")).toEqual(filled(10, 7));
  });

  it("passes listing through and offers only what the inner store offers", async () => {
    const { cached } = setup({ "x/1": filled(1), y: filled(1) });
    const keys: string[] = [];
    for await (const k of cached.list!()) keys.push(k);
    expect(keys.sort()).toEqual(["x/1", "y"]);
    expect((await cached.listDir!("")).keys).toEqual(["y"]);
    expect(isListable(cached)).toBe(true);
    expect(isWritable(cached)).toBe(true);
    expect("readInto" in cached).toBe(false);
    expect("getInto" in cached).toBe(false);
    expect("workerStore" in cached).toBe(false);
    const httpStore = new HttpStore("http://127.0.0.1:9/");
    const http = new CachingStore(httpStore, { maxBytes: 10 });
    expect(isListable(http)).toBe(false);
    expect(isWritable(http)).toBe(isWritable(httpStore));
    expect(supportsRanges(http)).toBe(true);
    const getOnly = new CachingStore({ get: async () => undefined }, { maxBytes: 10 });
    expect(supportsRanges(getOnly)).toBe(false);
    expect(typeof getOnly.getSize).toBe("undefined");
  });

  it("rejects a bad maxBytes", () => {
    for (const maxBytes of [-1, Number.NaN, Number.POSITIVE_INFINITY, "10" as unknown as number]) {
      expect(() => new CachingStore(new MemoryStore(), { maxBytes })).toThrow(expect.objectContaining({ code: "INVALID_ARGUMENT" }));
    }
  });

  it("answers like the inner store for any sequence of reads and writes through it, within maxBytes", async () => {
    const keys = ["a", "b", "c/d"];
    const op = fc.oneof(
      fc.record({ kind: fc.constant("get" as const), key: fc.constantFrom(...keys) }),
      fc.record({
        kind: fc.constant("range" as const),
        key: fc.constantFrom(...keys),
        range: fc.oneof(
          fc.record({ offset: fc.nat(60), length: fc.option(fc.nat(60), { nil: undefined }) }),
          fc.record({ suffixLength: fc.nat(60) }),
        ),
      }),
      fc.record({ kind: fc.constant("set" as const), key: fc.constantFrom(...keys), n: fc.nat(50), seed: fc.nat(255) }),
      fc.record({ kind: fc.constant("delete" as const), key: fc.constantFrom(...keys) }),
      fc.record({ kind: fc.constant("deletePrefix" as const), prefix: fc.constantFrom("", "c/") }),
      fc.record({ kind: fc.constant("size" as const), key: fc.constantFrom(...keys) }),
    );
    await fc.assert(
      fc.asyncProperty(fc.array(op, { maxLength: 40 }), fc.integer({ min: 0, max: 400 }), async (ops, maxBytes) => {
        const reference = new MemoryStore();
        const cached = new CachingStore(new MemoryStore(), { maxBytes });
        for (const o of ops) {
          switch (o.kind) {
            case "get":
              expect(await cached.get(o.key)).toEqual(await reference.get(o.key));
              break;
            case "range":
              expect(await cached.getRange!(o.key, o.range as ByteRange)).toEqual(await reference.getRange(o.key, o.range as ByteRange));
              break;
            case "size":
              expect(await cached.getSize!(o.key)).toEqual(await reference.getSize(o.key));
              break;
            case "set":
              await cached.set!(o.key, filled(o.n, o.seed));
              await reference.set(o.key, filled(o.n, o.seed));
              break;
            case "delete":
              await cached.delete!(o.key);
              await reference.delete(o.key);
              break;
            case "deletePrefix":
              await cached.deletePrefix!(o.prefix);
              await reference.deletePrefix(o.prefix);
              break;
          }
          expect(cached.bytes).toBeLessThanOrEqual(maxBytes);
        }
      }),
      { numRuns: 200 },
    );
  });
});
