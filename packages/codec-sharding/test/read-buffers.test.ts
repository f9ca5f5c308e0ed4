/**
 * The range reads of inner chunks land in reused buffers (`VersionedReadOptions.spare`)
 * when the store reads versioned: a read of a shard's inner chunks must not fault in
 * fresh memory each time, and reads in flight together must not share a buffer.
 */
import {
  type ByteRange,
  createArray,
  get,
  MemoryStore,
  openArray,
  set,
  slice,
  type VersionedBytes,
  type VersionedReadOptions,
} from "@zarr/core";
import { resolveByteRange } from "@zarr/spec";
import { describe, expect, it } from "vitest";
import { keptReadBufferBytes } from "../src/read-buffers.js";
import { registryWith } from "./helpers.js";

const SHARD = "a/c/0/0";

/** A MemoryStore with versioned reads that honour `spare`, as the file-system store does; it records the spare of each inner chunk read. */
class SpareStore extends MemoryStore {
  readonly spares: (Uint8Array | undefined)[] = [];

  async getVersioned(key: string, range: ByteRange | undefined, options?: VersionedReadOptions): Promise<VersionedBytes | undefined> {
    const value = this.map.get(key);
    if (value === undefined) return undefined;
    const [from, to] = range === undefined ? [0, value.length] : resolveByteRange(range, value.length);
    const isIndex = range !== undefined && "suffixLength" in range;
    if (key === SHARD && !isIndex) this.spares.push(options?.spare);
    // Let every read of a batch start before any finishes, as real I/O does.
    await new Promise((resolve) => setTimeout(resolve, 1));
    const spare = options?.spare;
    const bytes = spare !== undefined && spare.length >= to - from ? spare.subarray(0, to - from) : new Uint8Array(to - from);
    bytes.set(value.subarray(from, to));
    return { bytes, version: "v1" };
  }
}

const DATA = Float32Array.from({ length: 32 * 32 }, (_, i) => i * 0.5);

/** One shard [32, 32] of inner chunks [8, 8]; inner chunks never coalesce across a gap. */
async function sharded(): Promise<SpareStore> {
  const store = new SpareStore();
  const arr = await createArray(store, "a", {
    shape: [32, 32],
    dataType: "float32",
    chunkShape: [32, 32],
    registry: registryWith(),
    codecs: [{ name: "sharding_indexed", configuration: { chunk_shape: [8, 8], codecs: [{ name: "bytes" }], index_location: "end" } }],
  });
  await set(arr, null, DATA);
  return store;
}

const rows = (from: number, to: number, step = 1) => {
  const out: number[] = [];
  for (let r = from; r < to; r += step) out.push(...DATA.subarray(r * 32, r * 32 + 32));
  return out;
};

describe("inner chunk reads into reused buffers", () => {
  it("reads each coalesced range into a spare buffer, and the next read reuses it", async () => {
    const store = await sharded();
    const arr = await openArray(store, "a", { registry: registryWith([], { coalesceGap: 0 }) });
    expect(Array.from((await get(arr, [slice(0, 8), null])).data as Float32Array)).toEqual(rows(0, 8));
    expect(Array.from((await get(arr, [slice(8, 16), null])).data as Float32Array)).toEqual(rows(8, 16));
    expect(store.spares).toHaveLength(2);
    expect(store.spares[0]).toBeInstanceOf(Uint8Array);
    expect(store.spares[1]?.buffer).toBe(store.spares[0]?.buffer);
    expect(keptReadBufferBytes()).toBeGreaterThan(0);
  });

  it("gives reads in flight together buffers of their own", async () => {
    const store = await sharded();
    const arr = await openArray(store, "a", { registry: registryWith([], { coalesceGap: 0 }) });
    // Rows 0 and 16: inner chunk rows 0 and 2, two ranges read at once.
    const got = await get(arr, [slice(0, 32, 16), null]);
    expect(Array.from(got.data as Float32Array)).toEqual(rows(0, 32, 16));
    expect(store.spares).toHaveLength(2);
    expect(store.spares[0]).toBeInstanceOf(Uint8Array);
    expect(store.spares[1]?.buffer).not.toBe(store.spares[0]?.buffer);
  });
});

describe("the kept read buffers", () => {
  it("are sized in whole MiB, reused smallest-first, and bounded at 64 MiB", async () => {
    const { giveReadBuffer, takeReadBuffer } = await import("../src/read-buffers.js");
    // Empty what earlier tests kept.
    while (keptReadBufferBytes() > 0) takeReadBuffer(1);
    const small = takeReadBuffer(1);
    expect(small.length).toBe(1 << 20);
    expect(takeReadBuffer((1 << 20) + 1).length).toBe(2 << 20);
    const big = takeReadBuffer(63 << 20);
    giveReadBuffer(small);
    giveReadBuffer(small); // given twice: kept once
    expect(keptReadBufferBytes()).toBe(1 << 20);
    giveReadBuffer(big);
    expect(keptReadBufferBytes()).toBe(64 << 20); // exactly at the bound: kept
    giveReadBuffer(new Uint8Array(1)); // one byte over: dropped
    expect(keptReadBufferBytes()).toBe(64 << 20);
    expect(takeReadBuffer(100)).toBe(small); // the smallest that fits
    expect(takeReadBuffer(100)).toBe(big);
    expect(keptReadBufferBytes()).toBe(0);
  });
});
