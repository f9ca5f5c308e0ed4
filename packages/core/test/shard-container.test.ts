import type { ArrayToBytesCodec, CodecEntry } from "@zarr/spec";
import { describe, expect, it } from "vitest";
import { bytesCodec } from "../src/codecs/bytes.js";
import { createArray, createChunkCache, createRegistry, get, MemoryStore, openArray, set } from "../src/index.js";

/**
 * A third-party array→bytes codec: core's `bytes` codec under another name, declaring
 * `flags` (the capability under its name, or its deprecated former name).
 */
function containerEntry(flags: { shardContainer?: boolean; partialReads?: boolean }): CodecEntry {
  return {
    type: "codec",
    name: "example.container",
    codecKind: "array_to_bytes",
    async fromConfig(_configuration, context) {
      const plain = (await bytesCodec.fromConfig({ endian: "little" }, context)) as ArrayToBytesCodec;
      return { ...plain, ...flags, name: "example.container", toJSON: () => ({ name: "example.container", configuration: {} }) };
    },
  };
}

/** Opens a 4-element int32 array written with a codec declaring `flags`, read through a chunk cache. */
async function cachedArray(flags: { shardContainer?: boolean; partialReads?: boolean }) {
  const registry = createRegistry([containerEntry(flags)]);
  const store = new MemoryStore();
  const arr = await createArray(store, "a", { shape: [4], chunkShape: [4], dataType: "int32", codecs: ["example.container"], registry });
  await set(arr, null, new Int32Array([1, 2, 3, 4]));
  const chunkCache = createChunkCache({ maxBytes: 1 << 20 });
  return { arr: await openArray(store, "a", { registry, chunkCache }), chunkCache };
}

describe("the shardContainer capability", () => {
  it("is off for an ordinary codec: the chunk cache keeps its chunks", async () => {
    const { arr, chunkCache } = await cachedArray({});
    expect(arr.codecs.shardContainer).toBe(false);
    expect(Array.from((await get(arr)).data as Int32Array)).toEqual([1, 2, 3, 4]);
    expect(chunkCache.entries).toBe(1);
  });

  it("declared by a codec, makes the chain a shard container the chunk cache skips", async () => {
    const { arr, chunkCache } = await cachedArray({ shardContainer: true });
    expect(arr.codecs.shardContainer).toBe(true);
    expect(Array.from((await get(arr)).data as Int32Array)).toEqual([1, 2, 3, 4]);
    expect(chunkCache.entries).toBe(0);
  });

  it("is still read under its deprecated former name, partialReads", async () => {
    const { arr, chunkCache } = await cachedArray({ partialReads: true });
    expect(arr.codecs.shardContainer).toBe(true);
    expect(Array.from((await get(arr)).data as Int32Array)).toEqual([1, 2, 3, 4]);
    expect(chunkCache.entries).toBe(0);
  });

  it("declared false under either name, leaves the chain an ordinary one", async () => {
    const { arr } = await cachedArray({ shardContainer: false, partialReads: false });
    expect(arr.codecs.shardContainer).toBe(false);
  });

  it("takes a chain with another codec before or after the container for an ordinary one", async () => {
    const registry = createRegistry([containerEntry({ shardContainer: true })]);
    const arr = await createArray(new MemoryStore(), "a", {
      shape: [4],
      chunkShape: [4],
      dataType: "int32",
      codecs: [{ name: "transpose", configuration: { order: [0] } }, "example.container"],
      registry,
    });
    expect(arr.codecs.shardContainer).toBe(false);
  });
});
