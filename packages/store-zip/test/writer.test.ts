/** ZipWriter and writeZip: the incremental API, argument checks, abort. */
import { MemoryStore } from "@zarr/core";
import { describe, expect, it } from "vitest";
import { writeZip, ZipStore, ZipWriter } from "../src/index.js";
import { BytesStore, collect, expectBytes, pattern, rejectsWith, utf8 } from "./helpers.js";

describe("ZipWriter", () => {
  it("streams entries to an asynchronous sink in order; the chunks form a readable archive", async () => {
    const chunks: Uint8Array[] = [];
    const sink = {
      async write(chunk: Uint8Array) {
        await new Promise((r) => setTimeout(r, 1));
        chunks.push(chunk);
      },
    };
    const writer = new ZipWriter(sink, { compression: "deflate", level: 1 });
    await writer.add("zarr.json", utf8("{}"));
    const sizeAfterFirst = writer.size;
    expect(sizeAfterFirst).toBe(chunks.reduce((n, c) => n + c.length, 0)); // written already, not buffered
    await writer.add("c/0", pattern(10_000, 1), { compression: "stored" }); // per-entry override
    await writer.add("c/1", pattern(10_000, 2));
    expect(writer.entries).toBe(3);
    const summary = await writer.finish();
    const archive = Buffer.concat(chunks);
    expect(summary).toEqual({ entries: 3, size: archive.length });
    const store = new ZipStore(new BytesStore({ "w.zip": archive }), "w.zip");
    expectBytes(await store.get("c/0"), pattern(10_000, 1));
    expectBytes(await store.get("c/1"), pattern(10_000, 2));
    // The stored entry's data sits verbatim in the archive; the deflated one does not.
    expect(archive.includes(Buffer.from(pattern(10_000, 1)))).toBe(true);
    expect(archive.includes(Buffer.from(pattern(10_000, 2)))).toBe(false);
    await rejectsWith(writer.add("late", utf8("x")), "INVALID_ARGUMENT");
  });

  it("rejects bad names, duplicates, options and overlapping calls", async () => {
    const writer = new ZipWriter({ write() {} });
    await rejectsWith(writer.add("../up", utf8("x")), "KEY_INVALID");
    await rejectsWith(writer.add("/abs", utf8("x")), "KEY_INVALID");
    await rejectsWith(writer.add("a//b", utf8("x")), "KEY_INVALID");
    await writer.add("a", utf8("x"));
    await rejectsWith(writer.add("a", utf8("y")), "INVALID_ARGUMENT");
    await rejectsWith(writer.add("b", "text" as unknown as Uint8Array), "INVALID_ARGUMENT");
    await rejectsWith(writer.add("b", utf8("x"), { level: 12 }), "INVALID_ARGUMENT");
    const slow = new ZipWriter({ write: () => new Promise((r) => setTimeout(r, 5)) });
    const first = slow.add("one", utf8("1"));
    await rejectsWith(slow.add("two", utf8("2")), "INVALID_ARGUMENT");
    await first;
    expect(() => new ZipWriter({ write() {} }, { compression: "lzma" as "stored" })).toThrow(/stored/);
    expect(() => new ZipWriter({ write() {} }, { comment: "x".repeat(70_000) })).toThrow(/65535/);
    expect(() => new ZipWriter(undefined as never)).toThrow(/sink/);
  });

  it("an empty archive is valid", async () => {
    const chunks: Uint8Array[] = [];
    const summary = await new ZipWriter({ write: (c) => void chunks.push(c) }).finish();
    expect(summary).toEqual({ entries: 0, size: 22 });
    const store = new ZipStore(new BytesStore({ "e.zip": Buffer.concat(chunks) }), "e.zip");
    expect(await collect(store.list())).toEqual([]);
  });
});

describe("writeZip", () => {
  it("honours an abort signal and writes nothing", async () => {
    const source = new MemoryStore();
    for (let i = 0; i < 20; i++) await source.set(`c/${i}`, pattern(100, i));
    const target = new MemoryStore();
    const controller = new AbortController();
    const done = writeZip(source, target, "a.zip", {
      signal: controller.signal,
      onProgress: ({ done }) => {
        if (done === 5) controller.abort();
      },
    });
    await rejectsWith(done, "ABORTED");
    expect(await target.get("a.zip")).toBeUndefined();
  });

  it("checks its arguments", async () => {
    await rejectsWith(writeZip({} as never, new MemoryStore(), "a.zip"), "INVALID_ARGUMENT");
    await rejectsWith(writeZip(new MemoryStore(), {} as never, "a.zip"), "INVALID_ARGUMENT");
  });
});

describe("ZipStore arguments and keys", () => {
  it("validates keys and prefixes like other stores", async () => {
    const archive = Buffer.concat(
      await (async () => {
        const chunks: Uint8Array[] = [];
        const w = new ZipWriter({ write: (c) => void chunks.push(c) });
        await w.add("a/b", utf8("x"));
        await w.finish();
        return chunks;
      })(),
    );
    const store = new ZipStore(new BytesStore({ "k.zip": archive }), "k.zip");
    await rejectsWith(store.get("../a/b"), "KEY_INVALID");
    await rejectsWith(store.listDir("a"), "KEY_INVALID");
    expect(await store.listDir("a/")).toEqual({ keys: ["b"], prefixes: [] });
    expect(() => new ZipStore(new BytesStore({}), "")).toThrow(/key/);
    expect(() => new ZipStore({} as never, "a.zip")).toThrow(/readable store/);
    expect(() => new ZipStore(new BytesStore({}), "a.zip", { prefix: "../x" })).toThrow(/Invalid store key/);
  });
});
