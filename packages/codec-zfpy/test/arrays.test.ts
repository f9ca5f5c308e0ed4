/**
 * zfpy inside real arrays, through @zarr/core: the committed Zarr v2 array zarr-python 2
 * wrote with numcodecs' ZFPY compressor (read through @zarr/v2-compat, which makes zfpy
 * the serializer), and a Zarr v3 array whose chain is `numcodecs.zfpy` as zarr-python 3
 * writes it. Runs without Python.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { createArray, createRegistry, get, MemoryStore, openArray, set } from "@zarr/core";
import { FileSystemStore } from "@zarr/store-fs";
import { v2Format } from "@zarr/v2-compat";
import { describe, expect, it } from "vitest";
import { zfpy } from "../src/index.js";
import { bytesOf, firstDifference } from "./helpers.js";

const DATA = join(import.meta.dirname, "..", "test-data");
const registry = createRegistry([zfpy, v2Format]);

describe("a Zarr v2 array with compressor zfpy", () => {
  it("reads as zarr-python reads it, edge chunks included", async () => {
    const store = new FileSystemStore(DATA, { readOnly: true });
    const array = await openArray(store, "temperature.zarr", { registry });
    expect(array.shape).toEqual([10, 13]);
    expect(array.dataType.name).toBe("float32");
    expect(array.codecs.toJSON().map((c) => c.name)).toEqual(["numcodecs.zfpy"]);
    const result = await get(array);
    const expected = new Uint8Array(readFileSync(join(DATA, "temperature.bin")));
    expect(firstDifference(bytesOf(result.data as Float32Array), expected)).toBe(-1);
  });

  it("a chunk of another shape than the array's chunks fails naming the chunk", async () => {
    const source = new FileSystemStore(DATA, { readOnly: true });
    const store = new MemoryStore();
    for (const key of [".zarray", "0.0", "0.1", "1.0", "1.1"]) {
      store.set(`t/${key}`, (await source.get(`temperature.zarr/${key}`)) as Uint8Array);
    }
    // Chunk 1.1 holds chunk 0.0's stream: same shape, so it decodes; now give it the 4-D vector's.
    store.set("t/1.1", new Uint8Array(readFileSync(join(DATA, "vectors", "f32-4d-precision.zfp"))));
    const array = await openArray(store, "t", { registry });
    await expect(get(array)).rejects.toMatchObject({ code: "CODEC_FAILED", key: "t/1.1", message: expect.stringMatching(/shape \[2,3,5,5\]/) });
  });
});

describe("a Zarr v3 array with numcodecs.zfpy", () => {
  it("reads chunks that zfpy wrote; writing fails with UNSUPPORTED", async () => {
    const store = new MemoryStore();
    const vector = "f64-3d-precision"; // float64 [5, 4, 6]
    const metadata = {
      zarr_format: 3,
      node_type: "array",
      shape: [5, 4, 6],
      data_type: "float64",
      chunk_grid: { name: "regular", configuration: { chunk_shape: [5, 4, 6] } },
      chunk_key_encoding: { name: "default", configuration: { separator: "/" } },
      fill_value: 0,
      codecs: [{ name: "numcodecs.zfpy", configuration: { mode: 3, tolerance: -1, rate: -1, precision: 20 } }],
      attributes: {},
    };
    store.set("a/zarr.json", new TextEncoder().encode(JSON.stringify(metadata)));
    store.set("a/c/0/0/0", new Uint8Array(readFileSync(join(DATA, "vectors", `${vector}.zfp`))));
    const array = await openArray(store, "a", { registry });
    const result = await get(array);
    const expected = new Uint8Array(readFileSync(join(DATA, "vectors", `${vector}.bin`)));
    expect(firstDifference(bytesOf(result.data as Float64Array), expected)).toBe(-1);
    expect(array.codecs.toJSON()).toEqual(metadata.codecs);

    const created = await createArray(store, "b", { shape: [4], chunkShape: [4], dataType: "float32", codecs: metadata.codecs, registry });
    await expect(set(created, null, 1)).rejects.toMatchObject({ code: "UNSUPPORTED", message: expect.stringMatching(/not implemented/) });
  });

  it("refuses data types and dimensionalities zfpy cannot hold", async () => {
    const codecs = [{ name: "numcodecs.zfpy", configuration: { mode: 4, tolerance: 0.1 } }];
    const store = new MemoryStore();
    await expect(createArray(store, "u", { shape: [4], chunkShape: [4], dataType: "uint16", codecs, registry })).rejects.toMatchObject({
      code: "METADATA_INVALID",
      message: expect.stringMatching(/float32, float64, int32 and int64 arrays, not uint16/),
    });
    await expect(
      createArray(store, "five", { shape: [2, 2, 2, 2, 2], chunkShape: [2, 2, 2, 2, 2], dataType: "float32", codecs, registry }),
    ).rejects.toMatchObject({ code: "METADATA_INVALID", message: expect.stringMatching(/1 to 4 dimensions, not 5/) });
  });
});
