import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { ByteLruCache, ZarrError } from "../src/index.js";

describe("ByteLruCache", () => {
  it("evicts the least recently used entry first; get marks use, has does not", () => {
    const evicted: string[] = [];
    const cache = new ByteLruCache<string, number>({ maxBytes: 30, onEvict: (k) => evicted.push(k) });
    cache.set("a", 1, 10);
    cache.set("b", 2, 10);
    cache.set("c", 3, 10);
    expect(cache.get("a")).toBe(1); // order now b, c, a
    expect(cache.has("b")).toBe(true); // does not count as use
    cache.set("d", 4, 10);
    expect(evicted).toEqual(["b"]);
    cache.set("e", 5, 10);
    expect(evicted).toEqual(["b", "c"]);
    expect([cache.get("a"), cache.get("d"), cache.get("e")]).toEqual([1, 4, 5]);
  });

  it("keeps the byte bound, evicting as many entries as a big one needs", () => {
    const cache = new ByteLruCache<string, string>({ maxBytes: 100 });
    for (const k of ["a", "b", "c", "d"]) cache.set(k, k, 25);
    expect(cache.bytes).toBe(100);
    expect(cache.set("big", "big", 60)).toBe(true);
    expect(cache.bytes).toBe(85);
    expect(cache.size).toBe(2);
    expect(cache.has("a") || cache.has("b") || cache.has("c")).toBe(false);
    expect(cache.get("d")).toBe("d");
  });

  it("keeps the entry bound", () => {
    const cache = new ByteLruCache<number, number>({ maxBytes: Number.POSITIVE_INFINITY, maxEntries: 2 });
    cache.set(1, 1, 1);
    cache.set(2, 2, 1);
    cache.get(1);
    cache.set(3, 3, 1);
    expect([cache.has(1), cache.has(2), cache.has(3)]).toEqual([true, false, true]);
    const none = new ByteLruCache<number, number>({ maxBytes: 100, maxEntries: 0 });
    expect(none.set(1, 1, 1)).toBe(false);
    expect(none.size).toBe(0);
  });

  it("does not store an oversize entry, evicts nothing for it, and drops the old value of its key", () => {
    const evicted: string[] = [];
    const cache = new ByteLruCache<string, string>({ maxBytes: 50, onEvict: (k) => evicted.push(k) });
    cache.set("a", "old", 10);
    cache.set("b", "b", 10);
    expect(cache.set("a", "new", 51)).toBe(false);
    expect(cache.has("a")).toBe(false);
    expect(cache.get("b")).toBe("b");
    expect(cache.bytes).toBe(10);
    expect(evicted).toEqual([]);
    expect(cache.set("c", "exact", 50)).toBe(true); // exactly maxBytes fits
    expect(evicted).toEqual(["b"]);
  });

  it("replacing a key charges the new size only and does not call onEvict", () => {
    const evicted: string[] = [];
    const cache = new ByteLruCache<string, number>({ maxBytes: 100, onEvict: (k) => evicted.push(k) });
    cache.set("a", 1, 40);
    cache.set("a", 2, 70);
    expect(cache.bytes).toBe(70);
    expect(cache.size).toBe(1);
    expect(cache.get("a")).toBe(2);
    expect(evicted).toEqual([]);
  });

  it("delete and clear drop entries and their bytes without onEvict", () => {
    const evicted: string[] = [];
    const cache = new ByteLruCache<string, number | undefined>({ maxBytes: 100, onEvict: (k) => evicted.push(k) });
    cache.set("a", 1, 30);
    cache.set("missing", undefined, 5);
    expect(cache.lookup("missing")).toEqual({ value: undefined, bytes: 5 });
    expect(cache.lookup("nope")).toBeUndefined();
    expect(cache.delete("a")).toBe(true);
    expect(cache.delete("a")).toBe(false);
    expect([cache.size, cache.bytes]).toEqual([1, 5]);
    cache.set("b", 2, 20);
    cache.clear();
    expect([cache.size, cache.bytes, cache.get("b")]).toEqual([0, 0, undefined]);
    expect(evicted).toEqual([]);
  });

  it("rejects bad bounds with a ZarrError naming the option", () => {
    expect(() => new ByteLruCache({ maxBytes: -1 })).toThrow(ZarrError);
    expect(() => new ByteLruCache({ maxBytes: Number.NaN })).toThrow(/"maxBytes"/);
    expect(() => new ByteLruCache({ maxBytes: 1, maxEntries: -2 })).toThrow(/"maxEntries"/);
  });

  it("matches a naive model: bytes and size add up, bounds hold, the survivors are the most recent", () => {
    const op = fc.oneof(
      fc.record({ t: fc.constant("set" as const), k: fc.nat(6), b: fc.nat(40) }),
      fc.record({ t: fc.constant("get" as const), k: fc.nat(6) }),
      fc.record({ t: fc.constant("del" as const), k: fc.nat(6) }),
    );
    fc.assert(
      fc.property(fc.array(op, { maxLength: 60 }), fc.nat(4), (ops, maxEntries) => {
        const cache = new ByteLruCache<number, number>({ maxBytes: 60, maxEntries: maxEntries + 1 });
        // Model: an array of [key, bytes], least recently used first.
        let model: [number, number][] = [];
        for (const o of ops) {
          if (o.t === "set") {
            cache.set(o.k, o.k, o.b);
            model = model.filter(([k]) => k !== o.k);
            if (o.b <= 60) {
              model.push([o.k, o.b]);
              const total = () => model.reduce((s, [, b]) => s + b, 0);
              while (total() > 60 || model.length > maxEntries + 1) model.shift();
            }
          } else if (o.t === "get") {
            const i = model.findIndex(([k]) => k === o.k);
            expect(cache.get(o.k)).toBe(i < 0 ? undefined : o.k);
            if (i >= 0) model.push(...model.splice(i, 1));
          } else {
            cache.delete(o.k);
            model = model.filter(([k]) => k !== o.k);
          }
          expect(cache.size).toBe(model.length);
          expect(cache.bytes).toBe(model.reduce((s, [, b]) => s + b, 0));
          expect(cache.bytes).toBeLessThanOrEqual(60);
        }
        for (const [k] of model) expect(cache.has(k)).toBe(true);
      }),
    );
  });
});
