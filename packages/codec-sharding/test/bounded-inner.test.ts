/**
 * Inner chunks of a shard decode against the inner chunk's size: the nested chain tells
 * its bytes→bytes codecs (`CodecCallContext.maxDecodedBytes`), and a compressed inner chunk
 * that inflates past it fails with CODEC_FAILED, on range reads and whole-shard reads alike.
 */
import { gzip } from "@zarr/codec-gzip";
import { type BytesToBytesCodec, type CodecEntry, createArray, get, type JsonObject, MemoryStore, set } from "@zarr/core";
import { describe, expect, it } from "vitest";
import { registryWith, storeWithoutRanges } from "./helpers.js";

const seen: (number | undefined)[] = [];
/** An identity bytes→bytes codec that records the bound it decodes against. */
const record: CodecEntry = {
  type: "codec",
  name: "record",
  codecKind: "bytes_to_bytes",
  fromConfig: (): BytesToBytesCodec => ({
    kind: "bytes_to_bytes",
    name: "record",
    encode: (b) => b,
    decode: (b, ctx) => {
      seen.push(ctx.maxDecodedBytes);
      return b;
    },
    toJSON: () => ({ name: "record", configuration: {} }),
  }),
};

/** A sharding codec of inner chunks `chunkShape` compressed with `compressor`. */
const inner = (compressor: string, chunkShape = [2, 4]): { name: string; configuration: JsonObject } => ({
  name: "sharding_indexed",
  configuration: { chunk_shape: chunkShape, codecs: [{ name: "bytes", configuration: { endian: "little" } }, { name: compressor, configuration: {} }] },
});

describe("inner chunks of a shard", () => {
  it("decode against the inner chunk's size", async () => {
    const store = new MemoryStore();
    const arr = await createArray(store, "s", { shape: [4, 8], chunkShape: [4, 8], dataType: "int32", codecs: [inner("record")], registry: registryWith([record]) });
    await set(arr, null, 3);
    seen.length = 0;
    await get(arr, null);
    expect(seen).toEqual([32, 32, 32, 32]); // 2×4 int32
  });

  for (const [label, wrap] of [
    ["range reads", (s: MemoryStore) => s],
    ["whole-shard reads", storeWithoutRanges],
  ] as const) {
    it(`${label}: an inner chunk that inflates past its size fails with CODEC_FAILED`, async () => {
      const store = new MemoryStore();
      const registry = registryWith([gzip]);
      const arr = await createArray(wrap(store), "s", { shape: [4, 8], chunkShape: [4, 8], dataType: "int32", codecs: [inner("gzip")], registry });
      await set(arr, null, 3);
      // A second array whose inner chunks are 4× larger: its shard holds gzip members of 128 bytes each.
      const big = await createArray(store, "big", { shape: [8, 16], chunkShape: [8, 16], dataType: "int32", registry, codecs: [inner("gzip", [4, 8])] });
      await set(big, null, 3);
      store.map.set("s/c/0/0", (store.map.get("big/c/0/0") as Uint8Array).slice());
      await expect(get(arr, null)).rejects.toMatchObject({
        code: "CODEC_FAILED",
        message: expect.stringMatching(/^gzip: chunk "s\/c\/0\/0[^"]*" (would decode to 128 bytes, more than|decodes to more than) the 32 bytes it may hold/),
      });
    });
  }
});
