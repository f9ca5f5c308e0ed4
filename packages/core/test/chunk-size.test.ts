/**
 * An uncompressed chunk of the wrong size (truncated by a crashed writer, or another
 * array's chunk) is a clear error naming the chunk, never short or shifted data: through
 * the scatter read straight into the result (MemoryStore has readInto) and through the
 * plain read, for whole and partial selections.
 */
import { describe, expect, it } from "vitest";
import { createArray, get, MemoryStore, type StoreRequestOptions, slice } from "../src/index.js";

/** A MemoryStore without scatter reads: chunks are read whole and decoded. */
class PlainStore extends MemoryStore {
  override readInto = undefined as unknown as MemoryStore["readInto"];
  override async get(key: string, options?: StoreRequestOptions): Promise<Uint8Array | undefined> {
    return super.get(key, options);
  }
}

describe("an uncompressed chunk of the wrong size", () => {
  for (const [label, make] of [
    ["scatter read (readInto)", () => new MemoryStore()],
    ["whole read", () => new PlainStore()],
  ] as const) {
    it(`${label}: too short or too long fails with CODEC_FAILED naming the chunk`, async () => {
      const store = make();
      const arr = await createArray(store, "a", { shape: [4, 4], chunkShape: [2, 4], dataType: "int32", codecs: [{ name: "bytes", configuration: { endian: "little" } }] });
      const full = new Uint8Array(2 * 4 * 4).fill(1);
      for (const bytes of [full.subarray(0, full.length - 1), full.subarray(0, 4), new Uint8Array(full.length + 4)]) {
        store.map.set("a/c/1/0", bytes.slice());
        for (const sel of [null, [slice(2, 4), slice(1, 3)], [3, 0]] as const) {
          await expect(get(arr, sel as never), `${bytes.length} bytes, selection ${JSON.stringify(sel)}`).rejects.toMatchObject({
            code: "CODEC_FAILED",
            message: expect.stringMatching(/Chunk "a\/c\/1\/0" has \d+ bytes, but \[2,4\] elements of int32 take 32/),
          });
        }
      }
      // The right size reads.
      store.map.set("a/c/1/0", full.slice());
      expect(Array.from((await get(arr, [3, slice(0, 2)])).data as Int32Array)).toEqual([0x01010101, 0x01010101]);
    });
  }
});
