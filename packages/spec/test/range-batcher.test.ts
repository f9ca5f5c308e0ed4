import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { RangeBatcher, type VersionedBytes } from "../src/index.js";

const VALUE = Uint8Array.from({ length: 5000 }, (_, i) => (i * 31 + 7) & 255);

/** A ranged read of VALUE that records what it was asked for. */
function recordingRead(calls: [number, number][]) {
  return async (_key: string, range: { offset: number; length: number } | { suffixLength: number }): Promise<VersionedBytes> => {
    const [offset, length] = "suffixLength" in range ? [Math.max(0, VALUE.length - range.suffixLength), range.suffixLength] : [range.offset, range.length];
    calls.push([offset, length]);
    return { bytes: VALUE.slice(offset, offset + length), version: "v" };
  };
}

describe("RangeBatcher", () => {
  it("gives every caller exactly its bytes, within the gap and size bounds, never reading a range twice", async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.record({ offset: fc.nat(5200), length: fc.integer({ min: 1, max: 600 }) }), { minLength: 1, maxLength: 30 }),
        fc.oneof(fc.nat(300), fc.constant(6000)),
        fc.oneof(fc.integer({ min: 1, max: 3000 }), fc.constant(6000)),
        async (asks, gap, maxBytes) => {
          const calls: [number, number][] = [];
          const batcher = new RangeBatcher(recordingRead(calls), { gap, maxBytes });
          const got = await Promise.all(asks.map((a) => batcher.read("k", a.offset, a.length)));
          for (const [i, g] of got.entries()) expect(g?.bytes).toEqual(VALUE.slice(asks[i].offset, asks[i].offset + asks[i].length));
          expect(calls.length).toBeLessThanOrEqual(new Set(asks.map((a) => `${a.offset}+${a.length}`)).size);
          const longest = Math.max(...asks.map((a) => a.length));
          for (const [, length] of calls) expect(length).toBeLessThanOrEqual(Math.max(maxBytes, longest));
          // Without the size bound forcing a split, ranges within the gap of each other share a read.
          const start = Math.min(...asks.map((a) => a.offset));
          const end = Math.max(...asks.map((a) => a.offset + a.length));
          if (gap >= 5200 && maxBytes >= end - start) expect(calls).toEqual([[start, end - start]]);
        },
      ),
      { numRuns: 200 },
    );
  });

  it("reads the suffixes of one key once, as the longest, each caller getting its own tail", async () => {
    const calls: [number, number][] = [];
    const batcher = new RangeBatcher(recordingRead(calls));
    const [a, b, c, whole] = await Promise.all([
      batcher.readSuffix("k", 16),
      batcher.readSuffix("k", 100),
      batcher.readSuffix("k", 16),
      batcher.readSuffix("k", 9999),
    ]);
    expect(calls).toEqual([[0, 9999]]);
    expect(a?.bytes).toEqual(VALUE.slice(-16));
    expect(b?.bytes).toEqual(VALUE.slice(-100));
    expect(c?.bytes).toEqual(VALUE.slice(-16));
    expect(whole?.bytes).toEqual(VALUE);
  });

  it("batches per key and per pinned version, and only within one turn", async () => {
    const calls: string[] = [];
    const batcher = new RangeBatcher(async (key, range, ifVersion) => {
      const { offset, length } = range as { offset: number; length: number };
      calls.push(`${key}@${ifVersion}:${offset}+${length}`);
      return { bytes: VALUE.slice(offset, offset + length), version: ifVersion };
    });
    await Promise.all([batcher.read("a", 0, 10), batcher.read("a", 10, 10, "v1"), batcher.read("b", 20, 10), batcher.read("a", 20, 10)]);
    expect(calls.sort()).toEqual(["a@undefined:0+30", "a@v1:10+10", "b@undefined:20+10"]);
    calls.length = 0;
    await batcher.read("a", 0, 10);
    await batcher.read("a", 10, 10);
    expect(calls).toEqual(["a@undefined:0+10", "a@undefined:10+10"]);
  });

  it("rejects a read whose signal is aborted before the batch is sent, and reads the rest", async () => {
    const calls: [number, number][] = [];
    const batcher = new RangeBatcher(recordingRead(calls));
    const controller = new AbortController();
    const mine = batcher.read("k", 0, 10, undefined, controller.signal);
    const theirs = batcher.read("k", 10, 10);
    controller.abort();
    await expect(mine).rejects.toMatchObject({ code: "ABORTED" });
    expect((await theirs)?.bytes).toEqual(VALUE.slice(10, 20));
    expect(() => batcher.read("k", 0, 1, undefined, controller.signal)).toThrow(expect.objectContaining({ code: "ABORTED" }));
  });

  it("cancels the merged read once every caller has given up", async () => {
    let seen: AbortSignal | undefined;
    const batcher = new RangeBatcher((_k, _r, _v, signal) => {
      seen = signal;
      return new Promise((_, reject) => signal?.addEventListener("abort", () => reject(new Error("cancelled"))));
    });
    const a = new AbortController();
    const b = new AbortController();
    const reads = [batcher.read("k", 0, 10, undefined, a.signal), batcher.read("k", 10, 10, undefined, b.signal)];
    await new Promise((r) => setTimeout(r, 5));
    a.abort();
    expect(seen?.aborted).toBe(false);
    b.abort();
    expect(seen?.aborted).toBe(true);
    for (const r of reads) await expect(r).rejects.toMatchObject({ code: "ABORTED" });
  });
});
