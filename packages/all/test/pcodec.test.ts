/**
 * pcodec end to end: Zarr v3 arrays whose chunks are pcodec standalone streams (pcodec's
 * own compatibility files, with metadata written by hand) read through `openArray`/`get`
 * and the `numcodecs.pcodec` codec @zarr/all registers.
 */
import { afterAll, describe, expect, it } from "vitest";
import { comparable, EXPECTED, fixture } from "../../codec-pcodec/test/expected.js";
import { createArray, get, MemoryStore, openArray, registry, set, slice, type ZarrError } from "../src/index.js";
import { createWorkerPool } from "../src/workers.js";

const DATA_TYPES: Record<string, string> = {
  u8: "uint8",
  i8: "int8",
  u16: "uint16",
  i16: "int16",
  f16: "float16",
  u32: "uint32",
  i32: "int32",
  f32: "float32",
  u64: "uint64",
  i64: "int64",
  f64: "float64",
};

const PCODEC = {
  name: "numcodecs.pcodec",
  configuration: { level: 8, mode_spec: "auto", delta_spec: "auto", paging_spec: "equal_pages_up_to", delta_encoding_order: null, equal_pages_up_to: 262144 },
};

function arrayMetadata(shape: number[], chunkShape: number[], dataType: string, fill: number | string = 0): Uint8Array {
  const doc = {
    zarr_format: 3,
    node_type: "array",
    shape,
    data_type: dataType,
    chunk_grid: { name: "regular", configuration: { chunk_shape: chunkShape } },
    chunk_key_encoding: { name: "default", configuration: { separator: "/" } },
    fill_value: fill,
    codecs: [PCODEC],
    attributes: {},
  };
  return new TextEncoder().encode(JSON.stringify(doc));
}

/** Element values comparable across types: float16 as its f16 bits, f32/f64 by bit pattern. */
function asComparable(type: string, data: ArrayLike<number | bigint>): (number | bigint)[] {
  if (type === "f16") {
    const f = new Float32Array(1);
    const u = new Uint32Array(f.buffer);
    return Array.from(data as Float32Array, (x) => {
      f[0] = x;
      // float32 → float16 bits for values exactly representable in float16 (normal range).
      const b = u[0];
      const sign = (b >>> 16) & 0x8000;
      const exp = ((b >>> 23) & 0xff) - 127 + 15;
      return sign | (exp << 10) | ((b >>> 13) & 0x3ff);
    });
  }
  return comparable(type as never, data as never);
}

describe("numcodecs.pcodec through @zarr/all", () => {
  it("is registered, with its v2 id as an alias", async () => {
    expect(registry.has("codec", "numcodecs.pcodec")).toBe(true);
    expect(registry.has("codec", "pcodec")).toBe(true);
  });

  for (const [name, expected] of Object.entries(EXPECTED)) {
    if (expected.type === undefined) continue;
    it(`reads ${name} as the one chunk of a ${DATA_TYPES[expected.type]} array`, async () => {
      const store = new MemoryStore();
      const n = expected.values.length;
      store.map.set("a/zarr.json", arrayMetadata([n], [n], DATA_TYPES[expected.type as string]));
      store.map.set("a/c/0", fixture(name));
      const arr = await openArray(store, "a");
      const { data } = await get(arr, null);
      expect(asComparable(expected.type as string, data as never)).toEqual(Array.from(expected.values));
    });
  }

  it("reads a 2-D array of several pcodec chunks, a missing chunk as the fill value, and a selection across chunks", async () => {
    const store = new MemoryStore();
    store.map.set("m/zarr.json", arrayMetadata([3, 2000], [1, 2000], "int32", -1));
    store.map.set("m/c/0/0", fixture("v0_0_0_classic.pco"));
    store.map.set("m/c/1/0", fixture("v1_0_0_conv1.pco"));
    const arr = await openArray(store, "m");
    const all = (await get(arr, null)).data as Int32Array;
    expect(Array.from(all.subarray(0, 2000))).toEqual(Array.from(EXPECTED["v0_0_0_classic.pco"].values));
    expect(Array.from(all.subarray(2000, 4000))).toEqual(Array.from(EXPECTED["v1_0_0_conv1.pco"].values));
    expect(all.subarray(4000).every((x) => x === -1)).toBe(true);
    const part = (await get(arr, [slice(0, 2), slice(998, 1002)])).data as Int32Array;
    const conv = EXPECTED["v1_0_0_conv1.pco"].values as number[];
    expect(Array.from(part)).toEqual([998, 999, 2000, 2001, conv[998], conv[999], conv[1000], conv[1001]]);
  });

  it("refuses a chunk of the wrong number type or length with CODEC_FAILED naming the chunk", async () => {
    const store = new MemoryStore();
    store.map.set("w/zarr.json", arrayMetadata([2000], [2000], "uint32"));
    store.map.set("w/c/0", fixture("v0_0_0_classic.pco")); // i32 numbers
    store.map.set("s/zarr.json", arrayMetadata([1999], [1999], "int32"));
    store.map.set("s/c/0", fixture("v0_0_0_classic.pco")); // 2000 numbers: more than the chunk holds
    store.map.set("l/zarr.json", arrayMetadata([2001], [2001], "int32"));
    store.map.set("l/c/0", fixture("v0_0_0_classic.pco")); // 2000 numbers: fewer
    for (const [path, what] of [
      ["w", /"w\/c\/0" holds i32 numbers, but the array's data type uint32 needs u32/],
      // Refused before decoding past the chunk's size.
      ["s", /"s\/c\/0": decodes to at least 8000 bytes, more than the 7996 allowed/],
      ["l", /"l\/c\/0" holds 2000 numbers, but the chunk has 2001/],
    ] as const) {
      const error = (await get(await openArray(store, path), null).catch((e: unknown) => e)) as ZarrError;
      expect(error.code).toBe("CODEC_FAILED");
      expect(error.message).toMatch(what);
    }
  });

  it("refuses a data type pcodec cannot hold when the array is opened", async () => {
    const store = new MemoryStore();
    store.map.set("b/zarr.json", arrayMetadata([4], [4], "bool", false as never));
    const error = (await openArray(store, "b").catch((e: unknown) => e)) as ZarrError;
    expect(error.code).toBe("METADATA_INVALID");
    expect(error.message).toMatch(/pcodec codec holds integers of 8 to 64 bits and floats of 16 to 64 bits, not the data type "bool"/);
  });
});

describe("pcodec in Zarr v2 arrays", () => {
  it("reads a v2 array whose compressor is numcodecs' pcodec (id \"pcodec\")", async () => {
    const store = new MemoryStore();
    const zarray = {
      zarr_format: 2,
      shape: [3, 2000],
      chunks: [1, 2000],
      dtype: "<i4",
      compressor: { id: "pcodec", level: 8, mode_spec: "auto", delta_spec: "auto", paging_spec: "equal_pages_up_to", delta_encoding_order: null, equal_pages_up_to: 262144 },
      fill_value: 7,
      order: "C",
      filters: null,
    };
    store.map.set("v2/.zarray", new TextEncoder().encode(JSON.stringify(zarray)));
    store.map.set("v2/0.0", fixture("v0_0_0_classic.pco"));
    store.map.set("v2/2.0", fixture("v1_0_0_conv1.pco"));
    const arr = await openArray(store, "v2");
    expect(arr.codecs.toJSON().map((c) => c.name)).toEqual(["numcodecs.pcodec"]);
    const all = (await get(arr, null)).data as Int32Array;
    expect(Array.from(all.subarray(0, 2000))).toEqual(Array.from(EXPECTED["v0_0_0_classic.pco"].values));
    expect(all.subarray(2000, 4000).every((x) => x === 7)).toBe(true);
    expect(Array.from(all.subarray(4000))).toEqual(Array.from(EXPECTED["v1_0_0_conv1.pco"].values));
  });
});

describe("numcodecs.pcodec in worker threads", () => {
  const workers = createWorkerPool({ size: 2 });
  afterAll(() => workers.close());

  it("writes with the simple encoder and decodes in workers to the same bits, naming corrupt chunks", async () => {
    const store = new MemoryStore();
    const arr = await createArray(store, "w", { shape: [256, 512], chunkShape: [128, 256], dataType: "float64", codecs: [PCODEC] });
    const values = Float64Array.from({ length: 256 * 512 }, (_, i) => (i % 97 === 0 ? -0 : Math.sin(i / 100) * 1000 + (i % 7)));
    await set(arr, null, values);
    const there = (await get(arr, null, { workers })).data as Float64Array;
    expect(Buffer.compare(Buffer.from(there.buffer, there.byteOffset, there.byteLength), Buffer.from(values.buffer))).toBe(0);
    store.map.set("w/c/1/1", (store.map.get("w/c/1/1") as Uint8Array).slice(0, 100));
    await expect(get(arr, null, { workers })).rejects.toMatchObject({ code: "CODEC_FAILED", message: expect.stringContaining("w/c/1/1") });
  });
});
