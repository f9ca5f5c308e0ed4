import { mkdtempSync, readdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { MemoryStore } from "@zarr/core";
import type { ReadableStore, Store } from "@zarr/spec";
import { FileSystemStore } from "@zarr/store-fs";
import fc from "fast-check";
import { afterAll, describe, expect, it } from "vitest";
import { type CopyProgress, CountingStore, copy } from "../src/index.js";

const dirs: string[] = [];
afterAll(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});
const tempDir = () => {
  const d = mkdtempSync(join(tmpdir(), "zarr-copy-"));
  dirs.push(d);
  return d;
};

const filled = (n: number, seed = 1) => new Uint8Array(n).map((_, i) => (i * 13 + seed) & 255);

/** A small hierarchy: root group, an array with chunks, a nested group with v2 metadata. */
function hierarchy(): MemoryStore {
  const store = new MemoryStore();
  const text = (s: string) => new TextEncoder().encode(s);
  store.map.set("zarr.json", text('{"zarr_format":3,"node_type":"group","attributes":{}}'));
  store.map.set("t/zarr.json", text('{"zarr_format":3,"node_type":"array"}'));
  for (let i = 0; i < 20; i++) store.map.set(`t/c/${i}/0`, filled(100 + i * 10, i));
  store.map.set("g/.zgroup", text('{"zarr_format":2}'));
  store.map.set("g/x/.zarray", text("{}"));
  store.map.set("g/x/0.0", filled(33));
  store.map.set("empty", new Uint8Array(0));
  return store;
}

/** Every key of `store` with its value. */
async function contents(store: Store): Promise<Map<string, Uint8Array>> {
  const out = new Map<string, Uint8Array>();
  for await (const k of store.list!()) out.set(k, (await store.get(k))!);
  return out;
}

describe("copy", () => {
  it("copies every key byte for byte, reporting progress after listing and after each key", async () => {
    const src = hierarchy();
    const dst = new MemoryStore();
    const events: CopyProgress[] = [];
    const result = await copy(src, dst, { onProgress: (p) => events.push(p) });
    expect(await contents(dst)).toEqual(await contents(src));
    const total = src.map.size;
    const bytes = [...src.map.values()].reduce((s, v) => s + v.length, 0);
    expect(result).toEqual({ total, copied: total, skipped: 0, bytes });
    expect(events[0]).toEqual({ done: 0, total, bytes: 0, skipped: 0 });
    expect(events.length).toBe(total + 1);
    expect(events.map((e) => e.done)).toEqual([...Array(total + 1).keys()]);
    expect(events.at(-1)).toEqual({ done: total, total, bytes, skipped: 0 });
  });

  it("copies only the keys under a prefix, keeping their names", async () => {
    const src = hierarchy();
    const dst = new MemoryStore();
    const result = await copy(src, dst, { prefix: "g" });
    expect(dst.keys()).toEqual(["g/.zgroup", "g/x/.zarray", "g/x/0.0"]);
    expect(result.total).toBe(3);
    await expect(copy(src, dst, { prefix: "../x/" })).rejects.toMatchObject({ code: "KEY_INVALID" });
  });

  it("writes data keys before metadata documents", async () => {
    const order: string[] = [];
    const dst = new MemoryStore();
    const spy: Store = {
      get: (k) => dst.get(k),
      delete: (k) => dst.delete(k),
      set: (k, v) => {
        order.push(k);
        return dst.set(k, v);
      },
    };
    await copy(hierarchy(), spy, { concurrency: 3 });
    const firstMeta = order.findIndex((k) => /(zarr\.json|\.zgroup|\.zarray)$/.test(k));
    expect(firstMeta).toBe(order.length - 4);
  });

  it("keeps at most `concurrency` keys in flight", async () => {
    let inFlight = 0;
    let most = 0;
    const src = hierarchy();
    const slow: Store = {
      get: async (k) => {
        inFlight++;
        most = Math.max(most, inFlight);
        await new Promise((r) => setTimeout(r, 5));
        inFlight--;
        return src.get(k);
      },
      list: () => src.list(),
      listPrefix: (p) => src.listPrefix(p),
      listDir: (p) => src.listDir(p),
    };
    await copy(slow, new MemoryStore(), { concurrency: 3 });
    expect(most).toBe(3);
    most = 0;
    await copy(slow, new MemoryStore());
    expect(most).toBe(8); // the default
  });

  it("resumes: skips keys already present with the same size, using getSize when both stores have it", async () => {
    const src = new CountingStore(hierarchy());
    const dst = new MemoryStore();
    dst.map.set("t/c/0/0", filled(100, 0)); // same size and value: skipped
    dst.map.set("t/c/1/0", filled(3)); // wrong size: rewritten
    const result = await copy(src, dst, { resume: true });
    expect(result.skipped).toBe(1);
    expect(result.copied).toBe(result.total - 1);
    expect(src.count("get", "t/c/0/0")).toBe(0); // decided by size alone
    expect(await contents(dst)).toEqual(await contents(src.inner));
    // A second resume copies nothing and reads no values.
    src.reset();
    const again = await copy(src, dst, { resume: true });
    expect(again).toMatchObject({ copied: 0, skipped: again.total, bytes: 0 });
    expect(src.counts.get).toBe(0);
  });

  it("resumes by comparing lengths after reading when a store has no getSize", async () => {
    const inner = hierarchy();
    const src: Store = { get: (k) => inner.get(k), list: () => inner.list(), listPrefix: (p) => inner.listPrefix(p), listDir: (p) => inner.listDir(p) };
    const memory = new MemoryStore([["t/c/0/0", filled(100, 0)]]);
    const dst = new CountingStore({ get: (k) => memory.get(k), set: (k, v) => memory.set(k, v), delete: (k) => memory.delete(k) });
    const result = await copy(src, dst, { resume: true });
    expect(result.skipped).toBe(1);
    expect(dst.counts.set).toBe(result.total - 1);
    expect(await contents(memory)).toEqual(await contents(inner));
  });

  it("without resume, overwrites what is there", async () => {
    const dst = new MemoryStore([["t/c/0/0", filled(100, 99)]]);
    const result = await copy(hierarchy(), dst);
    expect(result.skipped).toBe(0);
    expect(dst.map.get("t/c/0/0")).toEqual(filled(100, 0));
  });

  it("says clearly when the source cannot list or the destination cannot write", async () => {
    const getOnly: ReadableStore = { get: async () => undefined };
    await expect(copy(getOnly, new MemoryStore())).rejects.toMatchObject({ code: "UNSUPPORTED", message: expect.stringContaining("list") });
    await expect(copy(hierarchy(), getOnly)).rejects.toMatchObject({ code: "STORE_READ_ONLY" });
    const readOnlyDir = new FileSystemStore(tempDir(), { readOnly: true });
    await expect(copy(hierarchy(), readOnlyDir)).rejects.toMatchObject({ code: "STORE_READ_ONLY" });
    await expect(copy(hierarchy(), new MemoryStore(), { concurrency: 0 })).rejects.toMatchObject({ code: "INVALID_ARGUMENT" });
  });

  it("fails with STORE_FAILED naming the key when a listed key has no value", async () => {
    const inner = hierarchy();
    const src: Store = { ...inner, list: () => inner.list(), listPrefix: (p) => inner.listPrefix(p), listDir: (p) => inner.listDir(p), get: async (k) => (k === "t/c/5/0" ? undefined : inner.get(k)) };
    await expect(copy(src, new MemoryStore())).rejects.toMatchObject({ code: "STORE_FAILED", key: "t/c/5/0" });
  });

  it("stops on abort with ABORTED and leaves every destination key complete or absent (file system)", async () => {
    const src = hierarchy();
    const dir = tempDir();
    const dst = new FileSystemStore(dir);
    const controller = new AbortController();
    const error = await copy(src, dst, {
      concurrency: 4,
      signal: controller.signal,
      onProgress: (p) => {
        if (p.done === 5) controller.abort();
      },
    }).catch((e) => e);
    expect(error.code).toBe("ABORTED");
    const copied = await contents(dst);
    expect(copied.size).toBeGreaterThanOrEqual(5);
    expect(copied.size).toBeLessThan(src.map.size);
    for (const [k, v] of copied) expect(v, k).toEqual(src.map.get(k));
    // No metadata document yet (data goes first), and no temporary files left behind.
    expect([...copied.keys()].filter((k) => k.endsWith("zarr.json"))).toEqual([]);
    const files = readdirSync(dir, { recursive: true }).map(String);
    expect(files.filter((f) => f.includes("zarr-tmp"))).toEqual([]);
  });

  it("rejects with ABORTED at once for an aborted signal", async () => {
    const dst = new MemoryStore();
    await expect(copy(hierarchy(), dst, { signal: AbortSignal.abort() })).rejects.toMatchObject({ code: "ABORTED" });
    expect(dst.keys()).toEqual([]);
  });

  it("copies any set of keys and values exactly, at any concurrency", async () => {
    const key = fc.array(fc.constantFrom("a", "b", "c", "zarr.json", "0"), { minLength: 1, maxLength: 3 }).map((s) => s.join("/"));
    await fc.assert(
      fc.asyncProperty(fc.dictionary(key, fc.uint8Array({ maxLength: 64 })), fc.integer({ min: 1, max: 10 }), async (entries, concurrency) => {
        // "a" and "a/b" cannot both be keys of a file system; in memory they can.
        const src = new MemoryStore(Object.entries(entries));
        const dst = new MemoryStore();
        const r = await copy(src, dst, { concurrency });
        expect(r.copied).toBe(src.map.size);
        expect(dst.map).toEqual(src.map);
      }),
      { numRuns: 100 },
    );
  });
});
