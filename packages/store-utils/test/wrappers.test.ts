import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createArray, get, MemoryStore, openArray, set, slice } from "@zarr/core";
import { isListable, isWritable, type ReadableStore, type Store, supportsRanges, supportsVersions, ZarrError } from "@zarr/spec";
import { FileSystemStore } from "@zarr/store-fs";
import { HttpStore } from "@zarr/store-http";
import { afterAll, describe, expect, it } from "vitest";
import { CachingStore, CountingStore, formatCall, LoggingStore, STORE_METHODS } from "../src/index.js";

const dirs: string[] = [];
afterAll(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});
const tempDir = () => {
  const d = mkdtempSync(join(tmpdir(), "zarr-utils-"));
  dirs.push(d);
  return d;
};

const bytes = (...v: number[]) => new Uint8Array(v);
const collect = async (it: AsyncIterable<string>) => {
  const out: string[] = [];
  for await (const k of it) out.push(k);
  return out.sort();
};

/** Which contract methods `store` has. */
function capabilities(store: Store): string[] {
  return STORE_METHODS.filter((m) => typeof (store as unknown as Record<string, unknown>)[m] === "function");
}

describe("transparency", () => {
  const getOnly: ReadableStore = { get: async () => undefined };
  const stores: [string, () => Store][] = [
    ["MemoryStore", () => new MemoryStore()],
    ["FileSystemStore", () => new FileSystemStore(tempDir())],
    ["HttpStore", () => new HttpStore("http://127.0.0.1:9/")],
    ["a get-only store", () => getOnly],
  ];
  for (const [name, make] of stores) {
    it(`CountingStore and LoggingStore have exactly the methods of a ${name}`, () => {
      const inner = make();
      for (const wrapped of [new CountingStore(inner), new LoggingStore(inner, () => {})]) {
        expect(capabilities(wrapped)).toEqual(capabilities(inner));
        expect(isListable(wrapped)).toBe(isListable(inner));
        expect(isWritable(wrapped)).toBe(isWritable(inner));
        expect(supportsRanges(wrapped)).toBe(supportsRanges(inner));
      }
    });
  }

  it("the HTTP store wrapped is still not listable, a file store wrapped still reads into buffers", () => {
    expect(isListable(new CountingStore(new HttpStore("http://127.0.0.1:9/")))).toBe(false);
    const fs = new CountingStore(new FileSystemStore(tempDir()));
    expect(typeof fs.readInto).toBe("function");
  });

  it("hides workerStore and getInto: worker threads and buffer reuse would read past the wrapper", () => {
    const inner = new FileSystemStore(tempDir());
    expect(typeof inner.workerStore).toBe("function");
    expect(typeof inner.getInto).toBe("function");
    for (const wrapped of [new CountingStore(inner), new LoggingStore(inner, () => {})]) {
      expect("workerStore" in wrapped).toBe(false);
      expect("getInto" in wrapped).toBe(false);
    }
  });
});

describe("CountingStore", () => {
  it("counts every call by method and key, with bytes read and written", async () => {
    const inner = new MemoryStore();
    const c = new CountingStore(inner);
    await c.set!("a/x", bytes(1, 2, 3, 4));
    await c.set!("b", bytes(9));
    expect(await c.get("a/x")).toEqual(bytes(1, 2, 3, 4));
    expect(await c.get("missing")).toBeUndefined();
    expect(await c.getRange!("a/x", { offset: 1, length: 2 })).toEqual(bytes(2, 3));
    expect(await c.getSize!("a/x")).toBe(4);
    const target = new Uint8Array(2);
    expect(await c.readInto!("a/x", [{ offset: 2, target }])).toBe(4);
    expect(target).toEqual(bytes(3, 4));
    expect(await collect(c.list!())).toEqual(["a/x", "b"]);
    expect(await collect(c.listPrefix!("a/"))).toEqual(["a/x"]);
    expect((await c.listDir!("")).prefixes).toEqual(["a"]);
    await c.delete!("b");
    await c.deletePrefix!("a/");
    expect(inner.keys()).toEqual([]);

    expect(c.counts).toEqual({
      get: 2, getRange: 1, getSize: 1, readInto: 1, set: 2, delete: 1, deletePrefix: 1, list: 1, listPrefix: 1, listDir: 1,
    });
    expect(c.total).toBe(12);
    expect(c.reads).toBe(5);
    expect(c.count("get", "a/x")).toBe(1);
    expect(c.count(undefined, "a/x")).toBe(5); // set, get, getRange, getSize, readInto
    expect(c.count("set")).toBe(2);
    expect(c.bytesWritten).toBe(5);
    expect(c.bytesRead).toBe(4 + 2 + 2);
    expect(c.requests[4]).toEqual({ method: "getRange", key: "a/x", range: { offset: 1, length: 2 } });
    expect(c.requests.map((r) => r.method).slice(0, 3)).toEqual(["set", "set", "get"]);
    c.reset();
    expect(c.total).toBe(0);
    expect(c.counts.get).toBe(0);
    expect(c.bytesRead).toBe(0);
    expect(c.requests).toEqual([]);
  });

  it("counts the chunk reads of core's get: one per chunk touched", async () => {
    const c = new CountingStore(new MemoryStore());
    const arr = await createArray(c, "t", { shape: [10, 10], chunkShape: [5, 5], dataType: "int16" });
    await set(arr, null, new Int16Array(100).map((_, i) => i));
    c.reset();
    const opened = await openArray(c, "t");
    expect(c.requests).toEqual([{ method: "get", key: "t/zarr.json" }]);
    c.reset();
    const part = await get(opened, [slice(0, 5), slice(3, 7)]);
    expect(Array.from(part.data as Int16Array).slice(0, 4)).toEqual([3, 4, 5, 6]);
    // Two chunks: c/0/0 and c/0/1 (read through readInto or get, whichever core chose).
    expect(c.reads).toBe(2);
    expect(new Set(c.requests.map((r) => r.key))).toEqual(new Set(["t/c/0/0", "t/c/0/1"]));
  });

  it("passes failures through and still counts the call", async () => {
    const c = new CountingStore({ get: async () => Promise.reject(new ZarrError("STORE_FAILED", "boom")) });
    await expect(c.get("k")).rejects.toMatchObject({ code: "STORE_FAILED" });
    expect(c.count("get", "k")).toBe(1);
  });
});

describe("versioned reads through the wrappers", () => {
  it("pass getVersioned on, reported as the getRange or get it is, and STORE_CHANGED through", async () => {
    const fs = new FileSystemStore(tempDir());
    await fs.set("s/c/0", bytes(1, 2, 3, 4, 5));
    const c = new CountingStore(fs);
    const lines: string[] = [];
    const log = new LoggingStore(fs, (line: string) => lines.push(line));
    expect(supportsVersions(c) && supportsVersions(log)).toBe(true);
    expect(supportsVersions(new CountingStore(new MemoryStore()))).toBe(false);
    const first = await c.getVersioned!("s/c/0", { suffixLength: 2 });
    expect(first?.bytes).toEqual(bytes(4, 5));
    expect((await c.getVersioned!("s/c/0", undefined, { ifVersion: first?.version }))?.bytes).toEqual(bytes(1, 2, 3, 4, 5));
    expect(c.requests).toEqual([
      { method: "getRange", key: "s/c/0", range: { suffixLength: 2 }, versioned: true },
      { method: "get", key: "s/c/0", versioned: true },
    ]);
    expect(c.bytesRead).toBe(7);
    await fs.set("s/c/0", bytes(9));
    const error = await c.getVersioned!("s/c/0", { offset: 0, length: 1 }, { ifVersion: first?.version }).catch((e: unknown) => e);
    expect((error as ZarrError).code).toBe("STORE_CHANGED");
    expect(c.counts.getRange).toBe(2);
    await log.getVersioned!("s/c/0", { offset: 0, length: 1 });
    expect(lines[0]).toMatch(/^getRange "s\/c\/0" bytes=0-0: 1 B in /);
  });
});

describe("returned bytes through the wrappers", () => {
  it("say what the wrapped store says of the bytes its get resolves, and nothing when it says nothing", () => {
    const fs = new FileSystemStore(tempDir());
    expect(new CountingStore(fs).returnedBytes).toBe("owned");
    expect(new LoggingStore(new MemoryStore(), () => {}).returnedBytes).toBe("immutable");
    const plain = new CountingStore({ get: async () => undefined });
    expect(plain.returnedBytes).toBeUndefined();
    expect("returnedBytes" in plain).toBe(false);
    // A cache returns its own copies, kept for later reads: never "owned".
    expect((new CachingStore(fs, { maxBytes: 1 << 20 }) as ReadableStore).returnedBytes).toBeUndefined();
  });

});

describe("LoggingStore", () => {
  it("logs each call when it ends, with duration, bytes, ranges, misses, entries and failures", async () => {
    const lines: string[] = [];
    const inner = new MemoryStore([["a/x", bytes(1, 2, 3, 4, 5)]]);
    const log = new LoggingStore(inner, (l) => lines.push(l));
    await log.get("a/x");
    await log.get("nope");
    await log.getRange!("a/x", { suffixLength: 2 });
    await log.getRange!("a/x", { offset: 1, length: 3 });
    await log.getRange!("a/x", { offset: 3 });
    await log.getSize!("a/x");
    await log.set!("b", bytes(7, 7));
    expect(await collect(log.list!())).toEqual(["a/x", "b"]);
    await log.delete!("b");
    await expect(log.get("../bad")).rejects.toMatchObject({ code: "KEY_INVALID" });
    const pattern = (s: string) => new RegExp(`^${s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")} in \\d+\\.\\d ms$`);
    const expected = [
      'get "a/x": 5 B',
      'get "nope": missing',
      'getRange "a/x" bytes=-2: 2 B',
      'getRange "a/x" bytes=1-3: 3 B',
      'getRange "a/x" bytes=3-: 2 B',
      'getSize "a/x": 5 B',
      'set "b": 2 B',
      'list "": 2 entries',
      'delete "b": done',
    ];
    expect(lines.length).toBe(expected.length + 1);
    for (const [i, e] of expected.entries()) expect(lines[i]).toMatch(pattern(e));
    expect(lines[expected.length]).toMatch(/^get "..\/bad": failed: Invalid store key .* in \d+\.\d ms$/);
  });

  it("measures the call's own duration", async () => {
    const slow: ReadableStore = { get: () => new Promise((r) => setTimeout(() => r(bytes(1)), 60)) };
    const lines: string[] = [];
    await new LoggingStore(slow, (l) => lines.push(l)).get("k");
    const ms = Number(/in (\d+\.\d) ms/.exec(lines[0])![1]);
    expect(ms).toBeGreaterThanOrEqual(55);
    expect(ms).toBeLessThan(1000);
  });

  it("formatCall is what it logs", () => {
    expect(formatCall({ method: "listDir", key: "a/" }, { entries: 3 }, 1.25)).toBe('listDir "a/": 3 entries in 1.3 ms');
  });
});
