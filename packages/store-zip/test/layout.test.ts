/** Local headers vs the central directory: descriptors, long local extras, gaps, prepended bytes. */
import { describe, expect, it } from "vitest";
import { ZipStore } from "../src/index.js";
import { handZip } from "./handmade.js";
import { BytesStore, CountingStore, collect, expectBytes, pattern, rejectsWith } from "./helpers.js";

/** Enough entries that the central directory is not inside the first (64 KiB) read. */
function many(n: number, size: number, extra: Partial<{ descriptor: boolean; localExtra: number; gapAfter: number }>) {
  return Array.from({ length: n }, (_, i) => ({ name: `arr/c/${i}`, data: pattern(size, i), ...extra }));
}

function counted(archive: Uint8Array) {
  const counting = new CountingStore(new BytesStore({ "h.zip": archive }));
  return { counting, store: new ZipStore(counting, "h.zip") };
}

describe("local header layouts", () => {
  it("local extra fields a little longer than the central ones: ranges cost one request, get one", async () => {
    const archive = handZip(many(400, 300, { localExtra: 20 }));
    expect(archive.length).toBeGreaterThan(100_000);
    const { counting, store } = counted(archive);
    await store.open();
    counting.reset();
    expectBytes(await store.getRange("arr/c/5", { offset: 10, length: 7 }), pattern(300, 5).slice(10, 17));
    expect(counting.requests).toBe(1);
    counting.reset();
    expectBytes(await store.get("arr/c/6"), pattern(300, 6));
    expect(counting.requests).toBe(1); // the predicted offset, proven by the CRC
  });

  it("much longer local extra fields (they could be a gap): the first range reads the header, later ones one request", async () => {
    const archive = handZip(many(400, 300, { localExtra: 500 }));
    const { counting, store } = counted(archive);
    await store.open();
    counting.reset();
    expectBytes(await store.getRange("arr/c/5", { offset: 10, length: 7 }), pattern(300, 5).slice(10, 17));
    expect(counting.ranges.map((r) => ("length" in r ? r.length : -1))).toEqual([30, 7]);
    counting.reset();
    expectBytes(await store.getRange("arr/c/5", { offset: 100, length: 7 }), pattern(300, 5).slice(100, 107));
    expect(counting.requests).toBe(1);
    counting.reset();
    expectBytes(await store.get("arr/c/6"), pattern(300, 6));
    expect(counting.requests).toBe(2); // header and data guessed in one read, the data re-read (the extra was longer)
  });

  it("data descriptors (stored): the first range reads the 30-byte header, later ones only the range", async () => {
    const archive = handZip(many(400, 300, { descriptor: true }));
    const { counting, store } = counted(archive);
    expect((await collect(store.list())).length).toBe(400);
    counting.reset();
    expectBytes(await store.getRange("arr/c/7", { offset: 100, length: 50 }), pattern(300, 7).slice(100, 150));
    expect(counting.ranges.map((r) => ("length" in r ? r.length : -1))).toEqual([30, 50]);
    counting.reset();
    expectBytes(await store.getRange("arr/c/7", { suffixLength: 20 }), pattern(300, 7).slice(280));
    expect(counting.requests).toBe(1);
    for (let i = 0; i < 400; i += 37) expectBytes(await store.get(`arr/c/${i}`), pattern(300, i));
  });

  it("gaps between entries seen in the first read: offsets come from local headers", async () => {
    const archive = handZip(many(20, 100, { gapAfter: 9 }));
    const store = new ZipStore(new BytesStore({ "h.zip": archive }), "h.zip");
    for (let i = 0; i < 20; i++) {
      expectBytes(await store.getRange(`arr/c/${i}`, { offset: 3, length: 10 }), pattern(100, i).slice(3, 13));
      expectBytes(await store.get(`arr/c/${i}`), pattern(100, i));
    }
  });

  it("gaps in a large archive: get detects the wrong prediction by CRC and falls back to the header", async () => {
    // So many entries that no local header lies inside the first read.
    const archive = handZip(many(1500, 50, { gapAfter: 9 }));
    const { counting, store } = counted(archive);
    await store.open();
    counting.reset();
    expectBytes(await store.get("arr/c/3"), pattern(50, 3));
    expect(counting.requests).toBe(2); // the predicted read (CRC mismatch), then header + data
    for (let i = 0; i < 1500; i += 97) {
      expectBytes(await store.getRange(`arr/c/${i}`, { offset: 25, length: 50 }), pattern(50, i).slice(25, 50));
    }
  });

  it("bytes prepended to a small archive (self-extracting stub) are skipped", async () => {
    const archive = handZip(many(5, 100, {}), 1000);
    const store = new ZipStore(new BytesStore({ "h.zip": archive }), "h.zip");
    for (let i = 0; i < 5; i++) expectBytes(await store.get(`arr/c/${i}`), pattern(100, i));
  });

  it("bytes prepended to a large archive: CODEC_FAILED at open (offsets cannot be placed from a suffix)", async () => {
    // Directory inside the first read: the absolute check read finds no directory there.
    const archive = handZip(many(400, 300, {}), 1000);
    const e1 = await rejectsWith(new ZipStore(new BytesStore({ "h.zip": archive }), "h.zip").open(), "CODEC_FAILED");
    expect(e1.message).toContain("prepended");
    // Directory outside it: its read by absolute offset finds no header.
    const larger = handZip(many(1500, 50, {}), 1000);
    const e2 = await rejectsWith(new ZipStore(new BytesStore({ "h.zip": larger }), "h.zip").open(), "CODEC_FAILED");
    expect(e2.message).toContain("central directory");
  });
});
