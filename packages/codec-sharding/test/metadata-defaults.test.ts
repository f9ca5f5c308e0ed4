import { createArray, createRegistry, MemoryStore } from "@zarr/core";
import { describe, expect, it } from "vitest";
import { shardingIndexed } from "../src/index.js";

describe("createArray completes the chain's metadata through the codec entries", () => {
  it("fills in the bytes codec's endian, also in the inner and index chains of a shard", async () => {
    const store = new MemoryStore();
    const arr = await createArray(store, "s", {
      shape: [8],
      chunkShape: [8],
      dataType: "int16",
      registry: createRegistry([shardingIndexed]),
      codecs: [{ name: "sharding_indexed", configuration: { chunk_shape: [4], codecs: [{ name: "bytes" }], index_codecs: [{ name: "bytes" }] } }],
    });
    const config = arr.metadata.codecs[0].configuration as { codecs: unknown[]; index_codecs: unknown[] };
    expect(config.codecs).toEqual([{ name: "bytes", configuration: { endian: "little" } }]);
    expect(config.index_codecs).toEqual([{ name: "bytes", configuration: { endian: "little" } }]);
    const u8 = await createArray(store, "u8", { shape: [8], dataType: "uint8", codecs: [{ name: "bytes" }] });
    expect(u8.metadata.codecs).toEqual([{ name: "bytes", configuration: {} }]); // one byte: no order to state
  });
});
