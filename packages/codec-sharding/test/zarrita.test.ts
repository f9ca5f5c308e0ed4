/**
 * Interop: what we write, zarrita.js 0.7 (an independent implementation) reads.
 * zarrita reads sharded arrays with the index at the end (it ignores index_location)
 * and no nested sharding, so those are the cases covered here; reading what
 * zarr-python 3 writes is covered by the fixture tests.
 */
import { createArray, type JsonObject, MemoryStore, set, slice as zslice } from "@zarr/core";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import * as zarrita from "zarrita";
import { registryWith } from "./helpers.js";

/** zarrita's store interface over a core MemoryStore (zarrita keys start with "/"). */
function zarritaStore(store: MemoryStore) {
  return {
    get: (key: string) => store.get(key.slice(1)),
    getRange: (key: string, range: { offset: number; length: number } | { suffixLength: number }) =>
      store.getRange(key.slice(1), range),
  };
}

describe("zarrita reads our shards", () => {
  it("random arrays with empty inner chunks, gzip and crc32c", async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.integer({ min: 1, max: 3 }).chain((ndim) =>
          fc.record({
            inner: fc.array(fc.integer({ min: 1, max: 3 }), { minLength: ndim, maxLength: ndim }),
            perShard: fc.array(fc.integer({ min: 1, max: 3 }), { minLength: ndim, maxLength: ndim }),
            extra: fc.array(fc.integer({ min: 0, max: 5 }), { minLength: ndim, maxLength: ndim }),
            gzip: fc.boolean(),
            crc: fc.boolean(),
            seed: fc.integer({ min: 1, max: 1000 }),
          }),
        ),
        async ({ inner, perShard, extra, gzip, crc, seed }) => {
          const shardShape = inner.map((n, d) => n * perShard[d]);
          const shape = shardShape.map((n, d) => n + extra[d]);
          const codecs: JsonObject[] = [{ name: "bytes", configuration: { endian: "little" } }];
          if (gzip) codecs.push({ name: "gzip", configuration: { level: 1 } });
          const indexCodecs: JsonObject[] = [{ name: "bytes", configuration: { endian: "little" } }];
          if (crc) indexCodecs.push({ name: "crc32c", configuration: {} });
          const store = new MemoryStore();
          const arr = await createArray(store, "x", {
            shape,
            chunkShape: shardShape,
            dataType: "int32",
            registry: registryWith(),
            codecs: [
              {
                name: "sharding_indexed",
                configuration: { chunk_shape: inner, codecs, index_codecs: indexCodecs },
              },
            ],
          });
          const n = shape.reduce((a, b) => a * b, 1);
          // Zeros (the fill value) in every other run of `seed % 7 + 1` elements.
          const run = (seed % 7) + 1;
          const data = new Int32Array(n).map((_, i) => (Math.floor(i / run) % 2 === 0 ? 0 : i * seed));
          await set(arr, null, data);
          const theirs = await zarrita.open(zarrita.root(zarritaStore(store)).resolve("x"), { kind: "array" });
          const got = await zarrita.get(theirs);
          expect(got.shape).toEqual(shape);
          expect(Array.from(got.data as Int32Array)).toEqual(Array.from(data));
          // And after a partial update (reopened: zarrita caches shard indexes for good).
          await set(arr, [zslice(0, 1)], -7);
          const reopened = await zarrita.open(zarrita.root(zarritaStore(store)).resolve("x"), { kind: "array" });
          const again = await zarrita.get(reopened);
          const stride = n / shape[0];
          for (let i = 0; i < stride; i++) data[i] = -7;
          expect(Array.from(again.data as Int32Array)).toEqual(Array.from(data));
        },
      ),
      { numRuns: 15 },
    );
  });
});
