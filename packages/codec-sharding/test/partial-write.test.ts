/**
 * Partial writes: only the inner chunks an update touches are decoded and re-encoded;
 * the others' bytes are copied verbatim; empty inner chunks stay empty; a shard that
 * becomes all fill value is deleted.
 */
import {
  type BytesToBytesCodec,
  type CodecEntry,
  createArray,
  type JsonObject,
  get,
  MemoryStore,
  type Registry,
  set,
  slice,
} from "@zarr/core";
import { describe, expect, it } from "vitest";
import { CountingStore, EMPTY_U64, readIndex, registryWith, storeWithoutRanges } from "./helpers.js";

/** An identity bytes→bytes codec that counts its calls. */
function countingEntry() {
  const calls = { encode: 0, decode: 0 };
  const entry: CodecEntry = {
    type: "codec",
    name: "counting",
    codecKind: "bytes_to_bytes",
    fromConfig(): BytesToBytesCodec {
      return {
        kind: "bytes_to_bytes",
        name: "counting",
        encode(bytes) {
          calls.encode++;
          return bytes.slice();
        },
        decode(bytes) {
          calls.decode++;
          return bytes;
        },
        computeEncodedSize: (n) => n,
        toJSON: () => ({ name: "counting", configuration: {} }),
      };
    },
  };
  return { entry, calls };
}

const BYTES: JsonObject = { name: "bytes", configuration: { endian: "little" } };

/** A [16, 16] int32 array, one shard with 4 × 4 inner chunks of [4, 4]. */
async function shardedArray(
  registry: Registry,
  store: MemoryStore = new MemoryStore(),
  options: { location?: "start" | "end"; codecs?: JsonObject[]; writeEmptyChunks?: boolean } = {},
) {
  return createArray(store, "a", {
    shape: [16, 16],
    dataType: "int32",
    chunkShape: [16, 16],
    registry,
    writeEmptyChunks: options.writeEmptyChunks,
    codecs: [
      {
        name: "sharding_indexed",
        configuration: {
          chunk_shape: [4, 4],
          codecs: options.codecs ?? [BYTES, { name: "counting", configuration: {} }],
          index_location: options.location ?? "end",
        },
      },
    ],
  });
}

/** The encoded bytes of each inner chunk of a shard (undefined = empty). */
function innerChunks(shard: Uint8Array, location: "start" | "end" = "end"): (Uint8Array | undefined)[] {
  const index = readIndex(shard, 16, location);
  const out: (Uint8Array | undefined)[] = [];
  for (let i = 0; i < 16; i++) {
    const offset = index[2 * i];
    const nbytes = index[2 * i + 1];
    out.push(offset === EMPTY_U64 ? undefined : shard.slice(Number(offset), Number(offset + nbytes)));
  }
  return out;
}

const iota = (n: number) => new Int32Array(n).map((_, i) => i + 1);

describe("partial writes", () => {
  for (const location of ["start", "end"] as const) {
    it(`decode exactly the touched inner chunk and keep the others' bytes (index at the ${location})`, async () => {
      const { entry, calls } = countingEntry();
      const store = new CountingStore("a/c");
      const arr = await shardedArray(registryWith([entry]), store, { location });
      const data = iota(256);
      await set(arr, null, data);
      expect(calls.encode).toBe(16);
      const before = innerChunks(store.map.get("a/c/0/0")!, location);
      calls.encode = 0;
      calls.decode = 0;
      store.reset();
      // One element of inner chunk (1, 2).
      await set(arr, [5, 9], -1);
      expect(calls).toEqual({ encode: 1, decode: 1 });
      // Index + one coalesced range of every stored inner chunk.
      expect(store.log.map((r) => r.method)).toEqual(["getRange", "getRange"]);
      const after = innerChunks(store.map.get("a/c/0/0")!, location);
      for (let i = 0; i < 16; i++) {
        if (i === 1 * 4 + 2) expect(after[i]).not.toEqual(before[i]);
        else expect(after[i]).toEqual(before[i]);
      }
      data[5 * 16 + 9] = -1;
      expect(Array.from((await get(arr)).data as Int32Array)).toEqual(Array.from(data));
    });
  }

  it("does not decode inner chunks the update covers, or empty ones", async () => {
    const { entry, calls } = countingEntry();
    const arr = await shardedArray(registryWith([entry]));
    const data = iota(256);
    for (let r = 0; r < 8; r++) for (let c = 0; c < 16; c++) data[r * 16 + c] = 0; // inner rows 0-1 empty
    await set(arr, null, data);
    calls.decode = 0;
    calls.encode = 0;
    // Covers inner chunk (2, 1) exactly, and touches part of empty inner chunk (0, 0).
    await set(arr, [slice(8, 12), slice(4, 8)], 5);
    expect(calls).toEqual({ encode: 1, decode: 0 });
    await set(arr, [slice(0, 2), slice(0, 3)], 6);
    expect(calls).toEqual({ encode: 2, decode: 0 });
    // Covering with an index list (any order) also skips decoding.
    await set(arr, [[15, 12, 14, 13], slice(12, 16)], 8);
    expect(calls).toEqual({ encode: 3, decode: 0 });
    const got = (await get(arr)).data as Int32Array;
    for (let r = 8; r < 12; r++) for (let c = 4; c < 8; c++) data[r * 16 + c] = 5;
    for (let r = 0; r < 2; r++) for (let c = 0; c < 3; c++) data[r * 16 + c] = 6;
    for (let r = 12; r < 16; r++) for (let c = 12; c < 16; c++) data[r * 16 + c] = 8;
    expect(Array.from(got)).toEqual(Array.from(data));
  });

  it("leaves inner chunks that become fill empty, and deletes a shard that becomes all fill", async () => {
    const store = new MemoryStore();
    const { entry } = countingEntry();
    const arr = await shardedArray(registryWith([entry]), store);
    await set(arr, [slice(0, 6), slice(0, 6)], 3); // touches inner chunks (0,0) (0,1) (1,0) (1,1)
    let index = readIndex(store.map.get("a/c/0/0")!, 16);
    const stored = (i: number) => index[2 * i] !== EMPTY_U64;
    expect([0, 1, 4, 5].every(stored)).toBe(true);
    expect(index.filter((v) => v === EMPTY_U64)).toHaveLength(2 * 12);
    await set(arr, [slice(0, 6), slice(4, 6)], 0); // clears inner chunks (0,1) and (1,1)
    index = readIndex(store.map.get("a/c/0/0")!, 16);
    expect([0, 4].every(stored)).toBe(true);
    expect(stored(1) || stored(5)).toBe(false);
    await set(arr, [slice(0, 6), slice(0, 4)], 0);
    expect(store.map.has("a/c/0/0")).toBe(false);
    expect(Array.from((await get(arr)).data as Int32Array).every((v) => v === 0)).toBe(true);
  });

  it("writes fill-valued inner chunks when writeEmptyChunks is set", async () => {
    const store = new MemoryStore();
    const { entry } = countingEntry();
    const arr = await shardedArray(registryWith([entry]), store, { writeEmptyChunks: true });
    await set(arr, [slice(0, 2), slice(0, 2)], 0);
    const index = readIndex(store.map.get("a/c/0/0")!, 16);
    expect(index[0]).not.toBe(EMPTY_U64);
    expect(index.slice(2).every((v) => v === EMPTY_U64)).toBe(true);
  });

  it("reads the shard once from a store without range reads", async () => {
    const { entry, calls } = countingEntry();
    const store = new CountingStore("a/c");
    await shardedArray(registryWith([entry]), store);
    const { openArray } = await import("@zarr/core");
    const arr = await openArray(storeWithoutRanges(store), "a", { registry: registryWith([entry]) });
    const data = iota(256);
    await set(arr, null, data);
    store.reset();
    calls.decode = 0;
    await set(arr, [slice(1, 3), 7], new Int32Array([-5, -6]));
    expect(store.log.map((r) => r.method)).toEqual(["get"]);
    expect(calls.decode).toBe(1);
    data[1 * 16 + 7] = -5;
    data[2 * 16 + 7] = -6;
    expect(Array.from((await get(arr)).data as Int32Array)).toEqual(Array.from(data));
  });

  it("updates nested shards in place", async () => {
    const { entry, calls } = countingEntry();
    const store = new MemoryStore();
    const nested: JsonObject = {
      name: "sharding_indexed",
      configuration: { chunk_shape: [2, 2], codecs: [BYTES, { name: "counting", configuration: {} }] },
    };
    const arr = await shardedArray(registryWith([entry]), store, { codecs: [nested] });
    const data = iota(256);
    await set(arr, null, data);
    calls.decode = 0;
    calls.encode = 0;
    await set(arr, [6, 6], 0);
    // Only the inner-inner chunk holding (6, 6) is decoded and re-encoded.
    expect(calls).toEqual({ encode: 1, decode: 1 });
    data[6 * 16 + 6] = 0;
    expect(Array.from((await get(arr)).data as Int32Array)).toEqual(Array.from(data));
  });
});
