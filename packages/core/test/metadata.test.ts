import { describe, expect, it } from "vitest";
import { createArray, jsonToBytes, MemoryStore, open, openArray, ZarrError } from "../src/index.js";

const base = () => ({
  zarr_format: 3,
  node_type: "array",
  shape: [4, 4],
  data_type: "int16",
  chunk_grid: { name: "regular", configuration: { chunk_shape: [2, 2] } },
  chunk_key_encoding: { name: "default", configuration: { separator: "/" } },
  fill_value: 0,
  codecs: [{ name: "bytes", configuration: { endian: "little" } }],
  attributes: {},
});

async function openDoc(doc: unknown): Promise<ZarrError | undefined> {
  const store = new MemoryStore();
  await store.set("a/zarr.json", jsonToBytes(doc as never));
  return open(store, "a").then(
    // A valid document naming an extension the registry lacks opens; its problem is the error.
    (node) => (node.kind === "array" ? node.problem : undefined),
    (e: unknown) => {
      if (!(e instanceof ZarrError)) throw e;
      return e;
    },
  );
}

describe("malformed array metadata", () => {
  const required = ["zarr_format", "node_type", "shape", "data_type", "chunk_grid", "chunk_key_encoding", "fill_value", "codecs"];
  for (const field of required) {
    it(`missing ${field}`, async () => {
      const doc: Record<string, unknown> = base();
      delete doc[field];
      const e = await openDoc(doc);
      expect(e?.code).toBe("METADATA_INVALID");
      expect(e?.message).toContain("a/zarr.json");
      expect(e?.message).toContain(field);
    });
  }
  const wrong: [string, unknown, RegExp][] = [
    ["zarr_format", 2, /\$\.zarr_format: expected 3/],
    ["node_type", "table", /\$\.node_type/],
    ["shape", [4, -1], /\$\.shape\[1\]: expected a non-negative integer/],
    ["shape", "4", /\$\.shape: expected an array/],
    ["shape", [2 ** 30, 2 ** 30], /more than 2\^53/],
    ["data_type", 5, /\$\.data_type/],
    ["data_type", "int17", /Data type "int17".*not registered/],
    ["chunk_grid", { name: "regular", configuration: { chunk_shape: [2] } }, /chunk_shape: expected 2 chunk sizes/],
    ["chunk_grid", { name: "regular", configuration: { chunk_shape: [0, 2] } }, /chunk_shape\[0\]: expected a positive integer/],
    ["chunk_key_encoding", { name: "default", configuration: { separator: "-" } }, /separator: expected "\/" or "\."/],
    ["fill_value", "zero", /\$\.fill_value/],
    ["fill_value", 40000, /\$\.fill_value/],
    ["codecs", [], /at least one codec/],
    ["codecs", [{ name: "transpose", configuration: { order: [0, 1] } }], /no array→bytes codec/],
    ["codecs", [{ name: "bytes", configuration: { endian: "little" } }, { name: "bytes", configuration: { endian: "little" } }], /\$\.codecs\[1\]: a second array→bytes codec/],
    ["codecs", [{ name: "bytes", configuration: { endian: "little" } }, { name: "transpose", configuration: { order: [1, 0] } }], /\$\.codecs\[1\]: array→array codec "transpose" must come before/],
    ["codecs", [{ name: "bytes", configuration: { endian: "middle" } }], /endian: expected "little" or "big"/],
    ["codecs", [{ name: "bytes" }], /endian: required for the multi-byte data type/],
    ["codecs", [{ name: "transpose", configuration: { order: [0, 0] } }, "bytes"], /order: expected a permutation/],
    ["codecs", [{ name: "gzip", configuration: { level: 1 } }], /Codec "gzip".*not registered\. Install the package that provides it/],
    ["dimension_names", ["x"], /dimension_names: expected 2 names/],
    ["dimension_names", ["x", 3], /dimension_names\[1\]: expected a string or null/],
    ["attributes", [], /\$\.attributes: expected an object/],
  ];
  for (const [field, value, pattern] of wrong) {
    it(`${field} = ${JSON.stringify(value)}`, async () => {
      const e = await openDoc({ ...base(), [field]: value });
      expect(e).toBeInstanceOf(ZarrError);
      expect(["METADATA_INVALID", "CODEC_UNKNOWN", "UNSUPPORTED"]).toContain(e?.code);
      expect(e?.message).toMatch(pattern);
    });
  }
  it("unknown fields fail unless must_understand is false", async () => {
    const e = await openDoc({ ...base(), novel: 1 });
    expect(e?.code).toBe("METADATA_INVALID");
    expect(e?.message).toContain('unknown field "novel"');
    expect(await openDoc({ ...base(), novel: { must_understand: false, x: 1 } })).toBeUndefined();
  });
  it("not JSON", async () => {
    const store = new MemoryStore();
    await store.set("zarr.json", new TextEncoder().encode("{nope"));
    const e = await open(store).catch((x: ZarrError) => x);
    expect((e as ZarrError).code).toBe("METADATA_INVALID");
    expect((e as ZarrError).message).toContain("not valid JSON");
  });
  it("v3.1 short-hand names and exact 64-bit fill values", async () => {
    const store = new MemoryStore();
    await store.set(
      "u/zarr.json",
      new TextEncoder().encode(
        '{"zarr_format":3,"node_type":"array","shape":[2],"data_type":"uint64","chunk_grid":{"name":"regular","configuration":{"chunk_shape":[2]}},"chunk_key_encoding":{"name":"default"},"fill_value":18446744073709551615,"codecs":[{"name":"bytes","configuration":{"endian":"big"}}]}',
      ),
    );
    const arr = await openArray(store, "u");
    expect(arr.fillValue).toBe(18446744073709551615n);
  });
  it("createArray validates before writing anything", async () => {
    const store = new MemoryStore();
    const e = await createArray(store, "a/b", { shape: [4], dataType: "float32", codecs: ["transpose"] }).catch((x: ZarrError) => x);
    expect((e as ZarrError).code).toBe("METADATA_INVALID");
    expect(store.keys()).toEqual([]);
  });
});
