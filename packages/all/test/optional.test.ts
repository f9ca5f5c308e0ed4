/**
 * zarrs' `optional` data type with @zarr/all's registry: the default chain packs the
 * validity mask with `packbits` (bit j of the mask in bit j % 8, least significant first,
 * of byte j / 8, as zarrs writes it) and zstd-compresses the whole chunk.
 */
import { describe, expect, it } from "vitest";
import { createArray, get, MemoryStore, openArray, registry, set } from "../src/index.js";

describe("optional arrays with every codec registered", () => {
  it("pack the mask with packbits by default and read back nulls", async () => {
    const store = new MemoryStore();
    const arr = await createArray(store, "a", { shape: [10], chunkShape: [10], dataType: { name: "optional", configuration: { name: "float64" } }, registry });
    const values = [1.5, null, null, 4, null, 6, 7, null, 9, null];
    await set(arr, null, values);
    const doc = JSON.parse(new TextDecoder().decode(await store.get("a/zarr.json")));
    expect(doc.codecs[0].name).toBe("optional");
    expect(doc.codecs[0].configuration.mask_codecs[0].name).toBe("packbits");
    expect(doc.codecs[0].configuration.data_codecs).toEqual([{ name: "bytes", configuration: { endian: "little" } }]);
    expect(doc.codecs[1].name).toBe("zstd");
    expect((await get(await openArray(store, "a", { registry }))).data).toEqual(values);
    // The mask alone, packed: present elements 0, 3, 5, 6, 8 → bits 0b01101001, 0b00000001.
    const mask = await createArray(store, "m", {
      shape: [10],
      chunkShape: [10],
      dataType: { name: "optional", configuration: { name: "uint8" } },
      codecs: [{ name: "optional", configuration: { mask_codecs: ["packbits"], data_codecs: ["bytes"] } }],
      registry,
    });
    await set(mask, null, values.map((v) => (v === null ? null : 1)));
    const chunk = (await store.get("m/c/0")) as Uint8Array;
    const view = new DataView(chunk.buffer, chunk.byteOffset);
    expect(view.getBigUint64(0, true)).toBe(2n);
    expect(view.getBigUint64(8, true)).toBe(5n);
    expect(Array.from(chunk.subarray(16))).toEqual([0b01101001, 0b00000001, 1, 1, 1, 1, 1]);
  });
});
