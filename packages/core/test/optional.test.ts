/**
 * zarrs' `optional` data type and `optional` codec: metadata form, fill values, chunk byte
 * layout (header, mask, present values only), reading and writing with nulls, and errors.
 */
import { describe, expect, it } from "vitest";
import { optionalEntries } from "../src/extensions.js";
import { createArray, createRegistry, get, lazyOptionalEntries, MemoryStore, openArray, set, slice, type ZarrError } from "../src/index.js";

const registry = createRegistry([...optionalEntries]);

const optionalOf = (name: string) => ({ name: "optional", configuration: { name } });
const docOf = (store: MemoryStore, path: string) => JSON.parse(new TextDecoder().decode(store.map.get(`${path}/zarr.json`)));

/** A zarr.json of an optional array as zarrs writes it, with `overrides`. */
function zarrsDoc(overrides: object = {}) {
  return {
    zarr_format: 3,
    node_type: "array",
    shape: [4],
    data_type: { name: "optional", configuration: { name: "uint16", configuration: {} } },
    chunk_grid: { name: "regular", configuration: { chunk_shape: [4] } },
    chunk_key_encoding: { name: "default", configuration: { separator: "/" } },
    fill_value: null,
    codecs: [
      {
        name: "optional",
        configuration: { mask_codecs: [{ name: "bytes", configuration: {} }], data_codecs: [{ name: "bytes", configuration: { endian: "little" } }] },
      },
    ],
    attributes: {},
    ...overrides,
  };
}

async function storeWith(doc: object, chunks: Record<string, Uint8Array> = {}): Promise<MemoryStore> {
  const store = new MemoryStore();
  await store.set("a/zarr.json", new TextEncoder().encode(JSON.stringify(doc)));
  for (const [k, v] of Object.entries(chunks)) await store.set(k, v);
  return store;
}

/** A chunk in the optional codec's layout: u64 LE lengths, then the mask and data bytes. */
function chunkBytes(mask: number[], data: number[]): Uint8Array {
  const out = new Uint8Array(16 + mask.length + data.length);
  const view = new DataView(out.buffer);
  view.setBigUint64(0, BigInt(mask.length), true);
  view.setBigUint64(8, BigInt(data.length), true);
  out.set(mask, 16);
  out.set(data, 16 + mask.length);
  return out;
}

describe("the optional data type", () => {
  it("writes with nulls, stores the mask and only the present values, and reads nulls back", async () => {
    const store = new MemoryStore();
    const arr = await createArray(store, "a", { shape: [4], chunkShape: [4], dataType: optionalOf("uint16"), registry });
    await set(arr, null, [1, null, 770, null]);
    // Header: mask 4 bytes, data 4 bytes (two uint16 LE); mask 1,0,1,0; data 1 and 770.
    expect(Array.from(store.map.get("a/c/0") as Uint8Array)).toEqual(Array.from(chunkBytes([1, 0, 1, 0], [1, 0, 2, 3])));
    const again = await openArray(store, "a", { dataType: "optional", registry });
    const { data } = await get(again);
    expect(data).toEqual([1, null, 770, null]);
    const doc = docOf(store, "a");
    expect(doc.data_type).toEqual({ name: "optional", configuration: { name: "uint16" } });
    expect(doc.fill_value).toBeNull();
    expect(doc.codecs).toEqual([
      {
        name: "optional",
        configuration: { mask_codecs: [{ name: "bytes", configuration: {} }], data_codecs: [{ name: "bytes", configuration: { endian: "little" } }] },
      },
    ]);
  });

  it("reads a chunk in zarrs' layout, and a chunk with no present value (no data bytes)", async () => {
    const store = await storeWith(zarrsDoc({ shape: [8], chunk_grid: { name: "regular", configuration: { chunk_shape: [4] } } }), {
      "a/c/0": chunkBytes([0, 1, 1, 0], [0x34, 0x12, 0xff, 0xff]),
      "a/c/1": chunkBytes([0, 0, 0, 0], []),
    });
    const arr = await openArray(store, "a", { registry });
    expect((await get(arr)).data).toEqual([null, 0x1234, 0xffff, null, null, null, null, null]);
    expect((await get(arr, [slice(1, 3)])).data).toEqual([0x1234, 0xffff]);
  });

  it("takes a present fill value as a one-element list, and writes partial chunks around it", async () => {
    const store = new MemoryStore();
    const arr = await createArray(store, "a", { shape: [3], chunkShape: [3], dataType: optionalOf("int64"), fillValue: [7], registry });
    expect(docOf(store, "a").fill_value).toEqual([7]);
    expect(arr.fillValue).toBe(7n);
    expect((await get(arr)).data).toEqual([7n, 7n, 7n]);
    await set(arr, [1], null);
    expect((await get(await openArray(store, "a", { registry }))).data).toEqual([7n, null, 7n]);
    await set(arr, [slice(0, 3)], 7n);
    // Every element equals the fill value again: the chunk is deleted.
    expect(store.map.has("a/c/0")).toBe(false);
    const nullFill = await createArray(store, "b", { shape: [2], chunkShape: [2], dataType: optionalOf("bool"), fillValue: null, registry });
    await set(nullFill, [0], true);
    expect((await get(nullFill)).data).toEqual([true, null]);
  });

  it("refuses bad metadata with coded errors naming the JSON path", async () => {
    const cases: [object, string, RegExp][] = [
      [{ fill_value: 3 }, "METADATA_INVALID", /at \$\.fill_value: expected null \(missing\) or a one-element list/],
      [{ fill_value: ["x"] }, "METADATA_INVALID", /at \$\.fill_value\[0\]/],
      [{ data_type: { name: "optional", configuration: {} } }, "METADATA_INVALID", /at \$\.data_type\.configuration\.name/],
      [{ data_type: { name: "optional", configuration: { name: "string" } } }, "UNSUPPORTED", /optional string \(at \$\.data_type\.configuration\.name\) is not supported/],
      [{ data_type: { name: "optional", configuration: { name: "optional", configuration: { name: "uint8" } } } }, "UNSUPPORTED", /optional optional/],
      [{ data_type: { name: "optional", configuration: { name: "uint8", extra: 1 } } }, "METADATA_INVALID", /\$\.data_type\.configuration\.extra/],
      [{ codecs: [{ name: "optional", configuration: { mask_codecs: [], data_codecs: ["bytes"] } }] }, "METADATA_INVALID", /\$\.codecs\[0\]\.configuration\.mask_codecs: expected a non-empty list/],
      [{ codecs: [{ name: "optional", configuration: { mask_codecs: ["bytes"] } }] }, "METADATA_INVALID", /\$\.codecs\[0\]\.configuration\.data_codecs/],
      [{ data_type: "uint16", fill_value: 0 }, "METADATA_INVALID", /at \$\.codecs\[0\]: the optional codec encodes arrays of the optional data type, not uint16/],
    ];
    for (const [overrides, code, message] of cases) {
      // A broken document fails to open; one the registry cannot read opens with its problem.
      const e = await openArray(await storeWith(zarrsDoc(overrides)), "a", { registry }).then(
        (arr) => arr.problem,
        (x: ZarrError) => x,
      );
      expect({ overrides, code: (e as ZarrError).code }).toEqual({ overrides, code });
      expect((e as ZarrError).message).toMatch(message);
    }
  });

  it("reads and refuses the same through the lazy entries, which load the types it wraps", async () => {
    const lazy = createRegistry([...lazyOptionalEntries]);
    const store = await storeWith(zarrsDoc(), { "a/c/0": chunkBytes([1, 0, 0, 1], [0x34, 0x12, 0x02, 0x00]) });
    expect((await get(await openArray(store, "a", { registry: lazy }))).data).toEqual([0x1234, null, null, 2]);
    for (const inner of ["bool", "int64", "float32", "float64"]) {
      const arr = await openArray(await storeWith(zarrsDoc({ data_type: optionalOf(inner), fill_value: null })), "a", { registry: lazy });
      expect(arr.problem).toBeUndefined();
      expect((arr.dataType as unknown as { inner: { name: string } }).inner.name).toBe(inner);
    }
    // The same list of supported types in the same order as the eager entry's message.
    const messages = await Promise.all(
      [lazy, registry].map(async (r) => {
        const doc = zarrsDoc({ data_type: optionalOf("float16") });
        return ((await openArray(await storeWith(doc), "a", { registry: r })).problem as ZarrError).message;
      }),
    );
    expect(messages[0]).toMatch(/must be one of bool, int8, int16, int32, int64, uint8, uint16, uint32, uint64, float32, float64$/);
    expect(messages[0]).toBe(messages[1]);
  });

  it("is not in a registry unless added: UNSUPPORTED naming the type", async () => {
    const arr = await openArray(await storeWith(zarrsDoc()), "a");
    const e = arr.problem;
    expect((e as ZarrError).code).toBe("UNSUPPORTED");
    await expect(get(arr)).rejects.toBe(e);
    expect((e as ZarrError).message).toContain('Data type "optional" (at $.data_type in "a/zarr.json") is not registered');
    const aliased = await openArray(await storeWith(zarrsDoc({ data_type: { name: "zarrs.optional", configuration: { name: "int8" } } })), "a", { registry });
    expect(aliased.dataType.name).toBe("zarrs.optional");
  });

  it("reports a chunk whose header does not match its length as CODEC_FAILED naming the chunk", async () => {
    const good = chunkBytes([1, 1, 1, 1], [1, 0, 2, 0, 3, 0, 4, 0]);
    for (const bad of [good.subarray(0, 10), good.subarray(0, good.length - 1), chunkBytes([0, 0, 0, 0], [9, 9])]) {
      const arr = await openArray(await storeWith(zarrsDoc(), { "a/c/0": bad }), "a", { registry });
      await expect(get(arr)).rejects.toMatchObject({ code: "CODEC_FAILED", message: expect.stringContaining('"a/c/0"') });
    }
  });
});
