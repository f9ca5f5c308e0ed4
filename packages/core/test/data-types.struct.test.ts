/** The data types added for what Zarr v2 holds: struct, null_terminated_bytes, object. */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { nullTerminatedBytesDataType, objectDataType, type StructDataType, structDataType } from "../src/extensions.js";
import {
  createArray,
  get,
  MemoryStore,
  type Scalar,
  type StructValue,
  scalarToCanonicalJson,
  set,
  toCanonicalJson,
  ZarrError,
} from "../src/index.js";

const struct = (fields: unknown[], name = "struct") =>
  structDataType.fromConfig(name, { fields } as never, ["data_type"]) as StructDataType;

describe("struct", () => {
  const point = struct([
    { name: "id", data_type: "int64" },
    { name: "xy", data_type: "float32", shape: [2] },
    { name: "tag", data_type: { name: "struct", configuration: { fields: [{ name: "code", data_type: { name: "null_terminated_bytes", configuration: { length_bytes: 2 } } }, { name: "ok", data_type: "bool" }] } } },
  ]);

  it("lays fields out packed, in order", () => {
    expect(point.byteSize).toBe(8 + 8 + 3);
    expect(point.componentSize).toBe(8);
    expect(point.fields.map((f) => [f.name, f.offset, f.byteSize])).toEqual([
      ["id", 0, 8],
      ["xy", 8, 8],
      ["tag", 16, 3],
    ]);
    const legacy = struct([["a", "uint8"], ["b", "int16"]], "structured");
    expect(legacy.byteSize).toBe(3);
    expect(legacy.toJSON()).toEqual({ name: "structured", configuration: { fields: [["a", "uint8"], ["b", "int16"]] } });
  });

  it("encodes like NumPy's packed records in both byte orders", () => {
    const value = point.coerce({ id: 258n, xy: [1, -2], tag: { code: new Uint8Array([0x41]), ok: true } });
    const le = point.toBytes?.([value], true) as Uint8Array;
    expect(Array.from(le)).toEqual([2, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0x80, 0x3f, 0, 0, 0, 0xc0, 0x41, 0, 1]);
    const be = point.toBytes?.([value], false) as Uint8Array;
    expect(Array.from(be.subarray(0, 12))).toEqual([0, 0, 0, 0, 0, 0, 1, 2, 0x3f, 0x80, 0, 0]);
    expect(point.fromBytes?.(be, 1, false)[0]).toEqual(value);
  });

  it("round-trips random records (property)", () => {
    const rec = fc.record({
      id: fc.bigInt({ min: -(2n ** 63n), max: 2n ** 63n - 1n }),
      xy: fc.tuple(fc.float({ noNaN: true }), fc.float({ noNaN: true })),
      tag: fc.record({ code: fc.uint8Array({ minLength: 0, maxLength: 2 }).map((b) => (b.at(-1) === 0 ? b.subarray(0, b.length - 1) : b)), ok: fc.boolean() }),
    });
    fc.assert(
      fc.property(fc.array(rec, { maxLength: 20 }), fc.boolean(), (records, little) => {
        const values = records.map((r) => point.coerce(r));
        const bytes = point.toBytes?.(values, little) as Uint8Array;
        expect(bytes.length).toBe(values.length * point.byteSize);
        expect(point.fromBytes?.(bytes, values.length, little)).toEqual(values);
      }),
    );
  });

  it("parses fill values (object, list, base64) and writes them as objects", () => {
    const zero = point.parseFillValue({}, ["fill_value"]);
    expect(zero).toEqual({ id: 0n, xy: [0, 0], tag: { code: new Uint8Array(0), ok: false } });
    const fill = point.parseFillValue({ id: 5, xy: [1, "NaN"], tag: { code: "QQ==", ok: true } }, ["fill_value"]);
    expect(point.fillValueToJson(fill)).toEqual({ id: 5, xy: [1, "NaN"], tag: { code: "QQ==", ok: true } });
    const b64 = Buffer.from(point.toBytes?.([fill], true) as Uint8Array).toString("base64");
    expect(point.parseFillValue(b64, ["fill_value"])).toEqual(fill);
    expect(() => point.parseFillValue({ id: "x" }, ["fill_value"])).toThrow(/fill_value\.id/);
  });

  it("rejects bad configurations and values", () => {
    expect(() => struct([])).toThrow(/non-empty/);
    expect(() => struct([{ name: "a", data_type: "int8" }, { name: "a", data_type: "int8" }])).toThrow(/twice/);
    expect(() => struct([{ name: "a", data_type: "string" }])).toThrow(/fixed-size/);
    expect(() => struct([{ name: "a", data_type: "nope" }])).toThrow(/not a built-in/);
    expect(() => point.coerce({ id: 1n })).toThrow(ZarrError);
    expect(() => point.coerce({ id: 1n, xy: [1], tag: { code: new Uint8Array(), ok: true } })).toThrow(/needs 2 values/);
  });

  it("stores and reads through an array, in canonical JSON form", async () => {
    const store = new MemoryStore();
    const arr = await createArray(store, "s", { shape: [3], chunkShape: [2], dataType: point.toJSON(), codecs: [{ name: "bytes", configuration: { endian: "big" } }], fillValue: { id: -1 } });
    await set(arr, [0], { id: 7n, xy: [0.5, 2], tag: { code: new TextEncoder().encode("hi"), ok: true } });
    const out = await get(arr);
    expect(toCanonicalJson(out).values).toEqual([
      { id: "7", xy: [0.5, 2], tag: { code: "6869", ok: true } },
      { id: "-1", xy: [0, 0], tag: { code: "", ok: false } },
      { id: "-1", xy: [0, 0], tag: { code: "", ok: false } },
    ]);
    expect(scalarToCanonicalJson(out.data[0] as StructValue, point)).toMatchObject({ id: "7" });
  });
});

describe("null_terminated_bytes", () => {
  const s4 = nullTerminatedBytesDataType.fromConfig("null_terminated_bytes", { length_bytes: 4 }, ["data_type"]);
  it("pads with NULs and reads back without trailing ones, as NumPy does", () => {
    const data = s4.allocate(2);
    s4.setItem(data, 0, s4.coerce("ab"));
    s4.setItem(data, 1, new Uint8Array([1, 0, 2]));
    expect(Array.from(data)).toEqual([97, 98, 0, 0, 1, 0, 2, 0]);
    expect(s4.getItem(data, 0)).toEqual(new Uint8Array([97, 98]));
    expect(s4.getItem(data, 1)).toEqual(new Uint8Array([1, 0, 2]));
    expect(s4.allEqual(data, new Uint8Array([97, 98]), 0, 1)).toBe(true);
    expect(() => s4.coerce("abcde")).toThrow(/longer/);
    expect(s4.parseFillValue("YWI=", [])).toEqual(new Uint8Array([97, 98]));
    expect(s4.fillValueToJson(new Uint8Array([97, 98, 0]))).toBe("YWI=");
    expect(scalarToCanonicalJson(new Uint8Array([97, 98]), s4)).toBe("6162");
    expect(s4.toJSON()).toEqual({ name: "null_terminated_bytes", configuration: { length_bytes: 4 } });
  });
});

describe("object", () => {
  const obj = objectDataType.fromConfig("object", {}, ["data_type"]);
  it("holds JSON values, compares them deeply, keeps fill values as written", () => {
    const data = obj.allocate(3);
    expect(data).toEqual([null, null, null]);
    obj.setItem(data, 1, { a: [1, Number.NaN] } as unknown as Scalar);
    expect(obj.allEqual(data, null, 0, 1)).toBe(true);
    expect(obj.allEqual(data, { a: [1, Number.NaN] } as unknown as Scalar, 1, 2)).toBe(true);
    expect(obj.allEqual(data, { a: [1, 2] } as unknown as Scalar, 1, 2)).toBe(false);
    expect(obj.parseFillValue(0, [])).toBe(0);
    expect(obj.kind).toBe("object");
    expect(() => obj.coerce(undefined)).toThrow(ZarrError);
  });
});
