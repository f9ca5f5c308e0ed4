import {
  type DataType,
  type JsonValue,
  MetadataError,
  parseJson,
  type Scalar,
  stringifyJson,
  ZarrError,
} from "@zarr/spec";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  builtinDataTypes,
  decodeBase64,
  encodeBase64,
  Float16DataType,
  FloatDataType,
  float16BitsToNumber,
  float32BitsToNumber,
  NAT,
  numberToFloat16Bits,
  numberToFloat32Bits,
  parseFloatFillValue,
} from "../src/data-types/index.js";

const PATH = ["fill_value"];

/** Resolves a data type the way the registry will: by name, alias, or `matches`. */
function dt(name: string, configuration: Record<string, JsonValue> = {}): DataType {
  const entry = builtinDataTypes.find((e) => e.name === name || e.aliases?.includes(name) || e.matches?.(name));
  if (entry === undefined) throw new Error(`no entry for ${name}`);
  return entry.fromConfig(name, configuration, ["data_type"]);
}

const f64 = new Float64Array(1);
const u32 = new Uint32Array(f64.buffer);
function f64Bits(x: number): string {
  f64[0] = x;
  return `${u32[1].toString(16)}:${u32[0].toString(16)}`;
}
function f64FromBits(hi: number, lo: number): number {
  u32[1] = hi;
  u32[0] = lo;
  return f64[0];
}

/** Exact equality of scalars: numbers bit for bit (NaN payloads, -0), arrays and bytes element-wise. */
function same(a: unknown, b: unknown): boolean {
  if (typeof a === "number" && typeof b === "number") return f64Bits(a) === f64Bits(b);
  if (a instanceof Uint8Array && b instanceof Uint8Array) {
    return a.length === b.length && a.every((x, i) => x === b[i]);
  }
  if (Array.isArray(a) && Array.isArray(b)) return a.length === b.length && a.every((x, i) => same(x, b[i]));
  return a === b;
}

function expectSame(a: unknown, b: unknown): void {
  if (!same(a, b)) expect.fail(`expected ${String(a)} (${typeof a}) to equal ${String(b)} exactly`);
}

function metadataError(fn: () => unknown): MetadataError {
  try {
    fn();
  } catch (e) {
    expect(e).toBeInstanceOf(MetadataError);
    return e as MetadataError;
  }
  return expect.fail("expected a MetadataError");
}

function zarrError(fn: () => unknown, code: string): ZarrError {
  try {
    fn();
  } catch (e) {
    expect(e).toBeInstanceOf(ZarrError);
    expect((e as ZarrError).code).toBe(code);
    return e as ZarrError;
  }
  return expect.fail(`expected a ZarrError ${code}`);
}

interface Case {
  name: string;
  config?: Record<string, JsonValue>;
  zero: Scalar;
  a: Scalar;
  b: Scalar;
  storage: string;
  kind: string;
  byteSize: number | undefined;
  componentSize: number;
  width: number;
}

const cases: Case[] = [
  { name: "bool", zero: false, a: true, b: false, storage: "Uint8Array", kind: "bool", byteSize: 1, componentSize: 1, width: 1 },
  { name: "int8", zero: 0, a: -128, b: 127, storage: "Int8Array", kind: "int", byteSize: 1, componentSize: 1, width: 1 },
  { name: "int16", zero: 0, a: -32768, b: 32767, storage: "Int16Array", kind: "int", byteSize: 2, componentSize: 2, width: 1 },
  { name: "int32", zero: 0, a: -(2 ** 31), b: 2 ** 31 - 1, storage: "Int32Array", kind: "int", byteSize: 4, componentSize: 4, width: 1 },
  { name: "int64", zero: 0n, a: -(2n ** 63n), b: 2n ** 63n - 1n, storage: "BigInt64Array", kind: "int", byteSize: 8, componentSize: 8, width: 1 },
  { name: "uint8", zero: 0, a: 255, b: 1, storage: "Uint8Array", kind: "uint", byteSize: 1, componentSize: 1, width: 1 },
  { name: "uint16", zero: 0, a: 65535, b: 1, storage: "Uint16Array", kind: "uint", byteSize: 2, componentSize: 2, width: 1 },
  { name: "uint32", zero: 0, a: 2 ** 32 - 1, b: 1, storage: "Uint32Array", kind: "uint", byteSize: 4, componentSize: 4, width: 1 },
  { name: "uint64", zero: 0n, a: 2n ** 64n - 1n, b: 1n, storage: "BigUint64Array", kind: "uint", byteSize: 8, componentSize: 8, width: 1 },
  { name: "float16", zero: 0, a: 65504, b: 2 ** -24, storage: "Float32Array", kind: "float", byteSize: 2, componentSize: 2, width: 1 },
  { name: "float32", zero: 0, a: Math.fround(0.1), b: -0, storage: "Float32Array", kind: "float", byteSize: 4, componentSize: 4, width: 1 },
  { name: "float64", zero: 0, a: 0.1, b: -0, storage: "Float64Array", kind: "float", byteSize: 8, componentSize: 8, width: 1 },
  { name: "complex64", zero: [0, 0], a: [1.5, -2.25], b: [Number.NaN, 0], storage: "Float32Array", kind: "complex", byteSize: 8, componentSize: 4, width: 2 },
  { name: "complex128", zero: [0, 0], a: [0.1, -0], b: [Number.POSITIVE_INFINITY, 3], storage: "Float64Array", kind: "complex", byteSize: 16, componentSize: 8, width: 2 },
  { name: "r8", zero: new Uint8Array([0]), a: new Uint8Array([0xab]), b: new Uint8Array([1]), storage: "Uint8Array", kind: "raw", byteSize: 1, componentSize: 1, width: 1 },
  { name: "r24", zero: new Uint8Array(3), a: new Uint8Array([1, 2, 3]), b: new Uint8Array([3, 2, 1]), storage: "Uint8Array", kind: "raw", byteSize: 3, componentSize: 1, width: 3 },
  { name: "string", zero: "", a: "héllo 😀", b: "", storage: "Array", kind: "string", byteSize: undefined, componentSize: 1, width: 1 },
  { name: "bytes", zero: new Uint8Array(0), a: new Uint8Array([0, 255, 7]), b: new Uint8Array([1]), storage: "Array", kind: "bytes", byteSize: undefined, componentSize: 1, width: 1 },
  { name: "variable_length_bytes", zero: new Uint8Array(0), a: new Uint8Array([9]), b: new Uint8Array([]), storage: "Array", kind: "bytes", byteSize: undefined, componentSize: 1, width: 1 },
  { name: "fixed_length_utf32", config: { length_bytes: 12 }, zero: "", a: "a😀b", b: "xyz", storage: "Array", kind: "string", byteSize: 12, componentSize: 4, width: 1 },
  { name: "numpy.datetime64", config: { unit: "ns", scale_factor: 1 }, zero: 0n, a: NAT, b: 1700000000000000000n, storage: "BigInt64Array", kind: "datetime", byteSize: 8, componentSize: 8, width: 1 },
  { name: "numpy.timedelta64", config: { unit: "s", scale_factor: 10 }, zero: 0n, a: -5n, b: NAT, storage: "BigInt64Array", kind: "timedelta", byteSize: 8, componentSize: 8, width: 1 },
];

describe("element storage", () => {
  for (const c of cases) {
    it(`${c.name}: properties, allocate, fill, getItem, setItem, allEqual`, () => {
      const t = dt(c.name, c.config);
      expect(t.name).toBe(c.name);
      expect(t.kind).toBe(c.kind);
      expect(t.byteSize).toBe(c.byteSize);
      expect(t.componentSize).toBe(c.componentSize);
      expect(t.width).toBe(c.width);

      const arr = t.allocate(6);
      expect(arr.constructor.name).toBe(c.storage);
      expect(arr.length).toBe(6 * c.width);
      for (let i = 0; i < 6; i++) expectSame(t.getItem(arr, i), c.zero);
      expect(t.allEqual(arr, c.zero, 0, 6)).toBe(true);
      expect(t.allEqual(arr, c.a, 0, 6)).toBe(false);

      t.fill(arr, c.a, 1, 5);
      expectSame(t.getItem(arr, 0), c.zero);
      for (let i = 1; i < 5; i++) expectSame(t.getItem(arr, i), c.a);
      expectSame(t.getItem(arr, 5), c.zero);
      expect(t.allEqual(arr, c.a, 1, 5)).toBe(true);
      expect(t.allEqual(arr, c.a, 0, 5)).toBe(false);
      expect(t.allEqual(arr, c.a, 1, 6)).toBe(false);
      expect(t.allEqual(arr, c.a, 3, 3)).toBe(true); // empty range

      t.setItem(arr, 3, c.b);
      expectSame(t.getItem(arr, 3), c.b);
      expectSame(t.getItem(arr, 2), c.a);
      expectSame(t.getItem(arr, 4), c.a);
      expect(t.allEqual(arr, c.a, 1, 5)).toBe(false);
      expect(t.allEqual(arr, c.b, 3, 4)).toBe(true);
    });
  }

  it("bool getItem returns booleans and treats any non-zero byte as true", () => {
    const t = dt("bool");
    const arr = t.fromBytes!(new Uint8Array([0, 1, 2, 255]), 4, true);
    expect([0, 1, 2, 3].map((i) => t.getItem(arr, i))).toEqual([false, true, true, true]);
    expect(t.allEqual(arr, true, 1, 4)).toBe(true);
  });

  it("raw getItem returns a copy, not a view into the array", () => {
    const t = dt("r16");
    const arr = t.allocate(2);
    const item = t.getItem(arr, 1) as Uint8Array;
    item[0] = 9;
    expect(Array.from(arr as Uint8Array)).toEqual([0, 0, 0, 0]);
  });
});

describe("float equality and NaN payloads in memory", () => {
  it("allEqual is bitwise: -0 differs from 0, NaN equals NaN of the same bits only", () => {
    for (const name of ["float16", "float32", "float64"]) {
      const t = dt(name);
      const arr = t.allocate(4);
      expect(t.allEqual(arr, 0, 0, 4)).toBe(true);
      expect(t.allEqual(arr, -0, 0, 4)).toBe(false);
      t.fill(arr, -0, 0, 4);
      expect(t.allEqual(arr, -0, 0, 4)).toBe(true);
      expect(t.allEqual(arr, 0, 0, 4)).toBe(false);
      t.fill(arr, Number.NaN, 0, 4);
      expect(t.allEqual(arr, Number.NaN, 0, 4)).toBe(true);
      const payload = name === "float16" ? float16BitsToNumber(0x7e01) : float32BitsToNumber(0x7fc00001);
      expect(t.allEqual(arr, payload, 0, 4)).toBe(false);
      t.setItem(arr, 2, payload);
      expect(t.allEqual(arr, Number.NaN, 0, 4)).toBe(false);
      expect(t.allEqual(arr, payload, 2, 3)).toBe(true);
      expectSame(t.getItem(arr, 2), payload);
    }
  });

  it("fill writes the NaN payload bits, not a canonical NaN (float16 and float32 storage)", () => {
    const h = dt("float16");
    const arr16 = h.allocate(3) as Float32Array;
    const nan16 = h.parseFillValue("0x7e01", PATH);
    h.fill(arr16, nan16, 0, 3);
    expect(Array.from(h.toBytes!(arr16, true))).toEqual([0x01, 0x7e, 0x01, 0x7e, 0x01, 0x7e]);
    const s = dt("float32");
    const arr32 = s.allocate(2) as Float32Array;
    const snan = s.parseFillValue("0xff800001", PATH); // negative signalling NaN
    s.fill(arr32, snan, 0, 2);
    expect(Array.from(new Uint32Array(arr32.buffer))).toEqual([0xff800001, 0xff800001]);
    expectSame(s.getItem(arr32, 1), snan);
    expect(s.fillValueToJson(s.getItem(arr32, 1))).toBe("0xff800001");
    const d = dt("float64");
    const arr64 = d.allocate(1) as Float64Array;
    d.fill(arr64, d.parseFillValue("0x7ff0000000000001", PATH), 0, 1);
    expect(d.fillValueToJson(d.getItem(arr64, 0))).toBe("0x7ff0000000000001");
  });

  it("complex64 keeps NaN payloads per component", () => {
    const t = dt("complex64");
    const v = t.parseFillValue(["0x7fc00001", "NaN"], PATH);
    const arr = t.allocate(3);
    t.fill(arr, v, 0, 3);
    expect(Array.from(new Uint32Array((arr as Float32Array).buffer))).toEqual(
      [0x7fc00001, 0x7fc00000, 0x7fc00001, 0x7fc00000, 0x7fc00001, 0x7fc00000],
    );
    expect(t.allEqual(arr, v, 0, 3)).toBe(true);
    expect(t.allEqual(arr, [Number.NaN, Number.NaN], 0, 3)).toBe(false);
    expect(t.fillValueToJson(t.getItem(arr, 2))).toEqual(["0x7fc00001", "NaN"]);
  });
});

describe("coerce", () => {
  it("accepts in-range integers and rejects the rest with INVALID_ARGUMENT naming the type", () => {
    expect(dt("int8").coerce(-128)).toBe(-128);
    expect(dt("uint32").coerce(4294967295)).toBe(4294967295);
    expect(dt("int16").coerce(5n)).toBe(5);
    for (const [name, bad] of [
      ["int8", 128],
      ["int8", 1.5],
      ["uint8", -1],
      ["uint16", "7"],
      ["int32", Number.NaN],
      ["uint32", 2 ** 32],
    ] as const) {
      const e = zarrError(() => dt(name).coerce(bad), "INVALID_ARGUMENT");
      expect(e.message).toContain(name);
    }
  });

  it("64-bit types take numbers and bigints, exactly", () => {
    expect(dt("int64").coerce(-5)).toBe(-5n);
    expect(dt("int64").coerce(2 ** 60)).toBe(2n ** 60n);
    expect(dt("uint64").coerce(2n ** 64n - 1n)).toBe(2n ** 64n - 1n);
    zarrError(() => dt("uint64").coerce(-1n), "INVALID_ARGUMENT");
    zarrError(() => dt("uint64").coerce(2n ** 64n), "INVALID_ARGUMENT");
    zarrError(() => dt("int64").coerce(2n ** 63n), "INVALID_ARGUMENT");
    zarrError(() => dt("int64").coerce(0.5), "INVALID_ARGUMENT");
  });

  it("bool, floats, complex, strings, bytes, raw, datetimes", () => {
    expect(dt("bool").coerce(1)).toBe(true);
    expect(dt("bool").coerce(false)).toBe(false);
    zarrError(() => dt("bool").coerce(2), "INVALID_ARGUMENT");
    expect(dt("float32").coerce(0.1)).toBe(Math.fround(0.1));
    expect(dt("float16").coerce(0.1)).toBe(float16BitsToNumber(0x2e66));
    expect(dt("float16").coerce(1e6)).toBe(Number.POSITIVE_INFINITY);
    expect(dt("float64").coerce(3n)).toBe(3);
    zarrError(() => dt("float64").coerce("1"), "INVALID_ARGUMENT");
    expect(dt("complex128").coerce(2)).toEqual([2, 0]);
    expect(dt("complex64").coerce([0.1, 1])).toEqual([Math.fround(0.1), 1]);
    zarrError(() => dt("complex64").coerce([1]), "INVALID_ARGUMENT");
    expect(dt("string").coerce("x")).toBe("x");
    zarrError(() => dt("string").coerce(1), "INVALID_ARGUMENT");
    const b = new Uint8Array([1]);
    expect(dt("bytes").coerce(b)).toBe(b);
    zarrError(() => dt("bytes").coerce([1]), "INVALID_ARGUMENT");
    expect(dt("r16").coerce(new Uint8Array(2))).toEqual(new Uint8Array(2));
    zarrError(() => dt("r16").coerce(new Uint8Array(3)), "INVALID_ARGUMENT");
    const u = dt("fixed_length_utf32", { length_bytes: 8 });
    expect(u.coerce("😀😀")).toBe("😀😀");
    expect(u.coerce("ab\0\0")).toBe("ab");
    zarrError(() => u.coerce("abc"), "INVALID_ARGUMENT");
    const t = dt("numpy.datetime64", { unit: "s", scale_factor: 1 });
    expect(t.coerce("NaT")).toBe(NAT);
    expect(t.coerce(12)).toBe(12n);
    expect(t.coerce(-(2n ** 63n))).toBe(NAT);
    zarrError(() => t.coerce("2020-01-01"), "INVALID_ARGUMENT");
    zarrError(() => t.coerce(2n ** 63n), "INVALID_ARGUMENT");
  });
});

describe("fill values: every encoding", () => {
  it("bool", () => {
    expect(dt("bool").parseFillValue(true, PATH)).toBe(true);
    expect(dt("bool").parseFillValue(false, PATH)).toBe(false);
    const e = metadataError(() => dt("bool").parseFillValue(0, PATH));
    expect(e.path).toEqual(PATH);
    expect(e.message).toContain("$.fill_value");
    expect(e.message).toContain("the number 0");
  });

  it("integers, including the exact 64-bit limits", () => {
    expect(dt("int8").parseFillValue(-128, PATH)).toBe(-128);
    expect(dt("uint32").parseFillValue(4294967295, PATH)).toBe(4294967295);
    const doc = parseJson('{"a": 18446744073709551615, "b": -9223372036854775808, "c": 9223372036854775807, "d": 42}') as Record<string, JsonValue>;
    expect(dt("uint64").parseFillValue(doc.a, PATH)).toBe(18446744073709551615n);
    expect(dt("int64").parseFillValue(doc.b, PATH)).toBe(-9223372036854775808n);
    expect(dt("int64").parseFillValue(doc.c, PATH)).toBe(9223372036854775807n);
    expect(dt("int64").parseFillValue(doc.d, PATH)).toBe(42n);
    expect(dt("uint64").fillValueToJson(18446744073709551615n)).toBe(18446744073709551615n);
    expect(dt("int64").fillValueToJson(42n)).toBe(42);
    expect(stringifyJson({ fill_value: dt("uint64").fillValueToJson(18446744073709551615n) }, 0)).toBe(
      '{"fill_value":18446744073709551615}',
    );
    for (const [name, bad] of [
      ["int8", 128],
      ["int8", -129],
      ["uint8", -1],
      ["int16", 1.5],
      ["int32", "1"],
      ["uint64", -1],
      ["uint64", 18446744073709551616n],
      ["int64", 9223372036854775808n],
      ["int64", "NaN"],
      ["uint16", null],
    ] as const) {
      const e = metadataError(() => dt(name).parseFillValue(bad, ["x", 3]));
      expect(e.path).toEqual(["x", 3]);
      expect(e.problem).toContain(name);
    }
  });

  it("floats: numbers, NaN, ±Infinity and hex raw bits", () => {
    for (const [name, bits] of [
      ["float16", 16],
      ["float32", 32],
      ["float64", 64],
    ] as const) {
      const t = dt(name);
      expect(t.parseFillValue("NaN", PATH)).toBeNaN();
      expect(t.parseFillValue("Infinity", PATH)).toBe(Number.POSITIVE_INFINITY);
      expect(t.parseFillValue("-Infinity", PATH)).toBe(Number.NEGATIVE_INFINITY);
      expect(t.parseFillValue(1.5, PATH)).toBe(1.5);
      expectSame(t.parseFillValue(-0, PATH), -0);
      expect(t.fillValueToJson(Number.NaN)).toBe("NaN");
      expect(t.fillValueToJson(Number.POSITIVE_INFINITY)).toBe("Infinity");
      expect(t.fillValueToJson(Number.NEGATIVE_INFINITY)).toBe("-Infinity");
      expect(t.fillValueToJson(2.5)).toBe(2.5);
      expect(t.fillValueToJson(-0)).toBe(`0x8${"0".repeat(bits / 4 - 1)}`);
      metadataError(() => t.parseFillValue("nan", PATH));
      metadataError(() => t.parseFillValue(null, PATH));
      metadataError(() => t.parseFillValue([1], PATH));
      metadataError(() => t.parseFillValue(`0x${"0".repeat(bits / 4 + 1)}`, PATH));
      metadataError(() => t.parseFillValue("0xzz", PATH));
    }
    // hex: raw bits of the type
    expect(dt("float16").parseFillValue("0x3c00", PATH)).toBe(1);
    expect(dt("float16").parseFillValue("0x7BFF", PATH)).toBe(65504);
    expect(dt("float32").parseFillValue("0x3f800000", PATH)).toBe(1);
    expect(dt("float64").parseFillValue("0x3ff0000000000000", PATH)).toBe(1);
    expect(dt("float64").parseFillValue("0x7ff8000000000000", PATH)).toBeNaN();
    expect(dt("float64").fillValueToJson(dt("float64").parseFillValue("0x7ff8000000000000", PATH))).toBe("NaN");
    // rounding of numbers to the type
    expect(dt("float32").parseFillValue(0.1, PATH)).toBe(Math.fround(0.1));
    expect(dt("float16").parseFillValue(65519, PATH)).toBe(65504);
    expect(dt("float16").parseFillValue(70000, PATH)).toBe(Number.POSITIVE_INFINITY);
    // payloads survive parse -> toJson
    for (const [name, hex] of [
      ["float16", "0x7e01"],
      ["float16", "0xfe00"],
      ["float16", "0x7c01"],
      ["float32", "0x7fc00001"],
      ["float32", "0xffc00000"],
      ["float32", "0x7f800001"],
      ["float64", "0x7ff8000000000001"],
      ["float64", "0xfff8000000000000"],
      ["float64", "0x7ff0000000000001"],
    ] as const) {
      const t = dt(name);
      expect(t.fillValueToJson(t.parseFillValue(hex, PATH))).toBe(hex);
    }
    // the error message names the path and what was found
    const e = metadataError(() => parseFloatFillValue("0x7e0", 16, ["fill_value"]));
    expect(e.message).toContain("$.fill_value");
    expect(e.message).toContain("4 hex digits");
  });

  it("complex: [re, im], each like a float", () => {
    const t = dt("complex128");
    const v = t.parseFillValue([1.5, "-Infinity"], PATH);
    expect(v).toEqual([1.5, Number.NEGATIVE_INFINITY]);
    expect(t.fillValueToJson(v)).toEqual([1.5, "-Infinity"]);
    expect(t.fillValueToJson([Number.NaN, -0])).toEqual(["NaN", "0x8000000000000000"]);
    const e = metadataError(() => t.parseFillValue([1, "x"], ["fill_value"]));
    expect(e.path).toEqual(["fill_value", 1]);
    metadataError(() => t.parseFillValue([1], PATH));
    metadataError(() => t.parseFillValue(1, PATH));
    expect(dt("complex64").parseFillValue([0.1, "0x3f800000"], PATH)).toEqual([Math.fround(0.1), 1]);
  });

  it("r<N>: an array of N/8 bytes, or base64", () => {
    const t = dt("r24");
    expect(t.parseFillValue([1, 2, 255], PATH)).toEqual(new Uint8Array([1, 2, 255]));
    expect(t.parseFillValue("AQL/", PATH)).toEqual(new Uint8Array([1, 2, 255]));
    expect(t.fillValueToJson(new Uint8Array([1, 2, 255]))).toEqual([1, 2, 255]);
    metadataError(() => t.parseFillValue([1, 2], PATH));
    expect(metadataError(() => t.parseFillValue([1, 2, 256], PATH)).path).toEqual(["fill_value", 2]);
    expect(metadataError(() => t.parseFillValue([1, 2, -1], PATH)).path).toEqual(["fill_value", 2]);
    metadataError(() => t.parseFillValue("AQI=", PATH)); // 2 bytes
    metadataError(() => t.parseFillValue(0, PATH));
  });

  it("string", () => {
    const t = dt("string");
    expect(t.parseFillValue("", PATH)).toBe("");
    expect(t.parseFillValue("ü😀", PATH)).toBe("ü😀");
    expect(t.parseFillValue(0, PATH)).toBe("0"); // zarr-python 2 wrote 0
    expect(t.fillValueToJson("a")).toBe("a");
    metadataError(() => t.parseFillValue(null, PATH));
    metadataError(() => t.parseFillValue(["a"], PATH));
  });

  it("bytes: base64 as zarr-python 3 writes it, or an array of integers", () => {
    const t = dt("bytes");
    expect(t.parseFillValue("", PATH)).toEqual(new Uint8Array(0));
    expect(t.parseFillValue("aGVsbG8=", PATH)).toEqual(new TextEncoder().encode("hello"));
    expect(t.parseFillValue("aGVsbG8", PATH)).toEqual(new TextEncoder().encode("hello"));
    expect(t.parseFillValue([104, 105], PATH)).toEqual(new TextEncoder().encode("hi"));
    expect(t.fillValueToJson(new TextEncoder().encode("hello"))).toBe("aGVsbG8=");
    metadataError(() => t.parseFillValue("a$==", PATH));
    metadataError(() => t.parseFillValue("a", PATH));
    metadataError(() => t.parseFillValue(3, PATH));
    expect(metadataError(() => t.parseFillValue([1, 1000], PATH)).path).toEqual(["fill_value", 1]);
  });

  it("fixed_length_utf32", () => {
    const t = dt("fixed_length_utf32", { length_bytes: 8 });
    expect(t.parseFillValue("😀b", PATH)).toBe("😀b");
    expect(t.parseFillValue("", PATH)).toBe("");
    expect(t.fillValueToJson("ab")).toBe("ab");
    metadataError(() => t.parseFillValue("abc", PATH));
    metadataError(() => t.parseFillValue(1, PATH));
  });

  it("datetimes: an integer or NaT", () => {
    const t = dt("numpy.datetime64", { unit: "D", scale_factor: 1 });
    expect(t.parseFillValue("NaT", PATH)).toBe(NAT);
    expect(t.parseFillValue(-9223372036854775808n, PATH)).toBe(NAT);
    expect(t.parseFillValue(19000, PATH)).toBe(19000n);
    expect(t.fillValueToJson(19000n)).toBe(19000);
    expect(t.fillValueToJson(NAT)).toBe(-9223372036854775808n);
    metadataError(() => t.parseFillValue("nat", PATH));
    metadataError(() => t.parseFillValue(1.5, PATH));
    metadataError(() => t.parseFillValue(9223372036854775808n, PATH));
  });
});

/** Arbitrary scalars per type, including NaNs with any payload and the 64-bit limits. */
function scalarArbitrary(name: string): fc.Arbitrary<Scalar> {
  const f16 = fc.integer({ min: 0, max: 0xffff }).map(float16BitsToNumber);
  const f32 = fc.oneof(
    fc.integer({ min: 0, max: 0xffffffff }).map(float32BitsToNumber),
    fc.double().map((x) => Math.fround(x)),
  );
  const f64 = fc.oneof(
    fc.tuple(fc.integer({ min: 0, max: 0xffffffff }), fc.integer({ min: 0, max: 0xffffffff })).map(([h, l]) => f64FromBits(h, l)),
    fc.double(),
  );
  switch (name) {
    case "bool":
      return fc.boolean();
    case "int8":
      return fc.integer({ min: -128, max: 127 });
    case "uint16":
      return fc.integer({ min: 0, max: 65535 });
    case "int32":
      return fc.integer({ min: -(2 ** 31), max: 2 ** 31 - 1 });
    case "uint32":
      return fc.integer({ min: 0, max: 2 ** 32 - 1 });
    case "int64":
      return fc.oneof(fc.bigInt({ min: -(2n ** 63n), max: 2n ** 63n - 1n }), fc.constantFrom(-(2n ** 63n), 2n ** 63n - 1n));
    case "uint64":
      return fc.oneof(fc.bigInt({ min: 0n, max: 2n ** 64n - 1n }), fc.constantFrom(0n, 2n ** 64n - 1n));
    case "float16":
      return f16;
    case "float32":
      return f32;
    case "float64":
      return f64;
    case "complex64":
      return fc.tuple(f32, f32);
    case "complex128":
      return fc.tuple(f64, f64);
    case "r40":
      return fc.uint8Array({ minLength: 5, maxLength: 5 });
    case "string":
      return fc.string({ unit: "grapheme" });
    case "bytes":
      return fc.uint8Array({ maxLength: 40 });
    case "fixed_length_utf32":
      return fc.string({ unit: "grapheme", maxLength: 3 }).filter((s) => [...s].length <= 3 && !s.endsWith("\0"));
    case "numpy.datetime64":
      return fc.oneof(fc.bigInt({ min: -(2n ** 63n), max: 2n ** 63n - 1n }), fc.constant(NAT));
    default:
      throw new Error(name);
  }
}

describe("fill value JSON round trips (property)", () => {
  const configs: Record<string, Record<string, JsonValue>> = {
    fixed_length_utf32: { length_bytes: 12 },
    "numpy.datetime64": { unit: "ms", scale_factor: 1 },
  };
  for (const name of [
    "bool",
    "int8",
    "uint16",
    "int32",
    "uint32",
    "int64",
    "uint64",
    "float16",
    "float32",
    "float64",
    "complex64",
    "complex128",
    "r40",
    "string",
    "bytes",
    "fixed_length_utf32",
    "numpy.datetime64",
  ]) {
    it(`${name}: parse(JSON text of fillValueToJson(v)) is exactly v`, () => {
      const t = dt(name, configs[name]);
      fc.assert(
        fc.property(scalarArbitrary(name), (v) => {
          const text = stringifyJson({ fill_value: t.fillValueToJson(v) });
          const back = t.parseFillValue((parseJson(text) as Record<string, JsonValue>).fill_value, PATH);
          expectSame(back, v);
          // and writing again gives the same JSON
          expect(stringifyJson({ fill_value: t.fillValueToJson(back) })).toBe(text);
        }),
        { numRuns: 300 },
      );
    });
  }
});

describe("float bit helpers", () => {
  it("numberToFloat16Bits inverts float16BitsToNumber on all 65536 patterns, NaN payloads included", () => {
    const wrong: number[] = [];
    for (let h = 0; h < 0x10000; h++) {
      const x = float16BitsToNumber(h);
      const isNaNPattern = (h & 0x7c00) === 0x7c00 && (h & 0x3ff) !== 0;
      if (Number.isNaN(x) !== isNaNPattern || numberToFloat16Bits(x) !== h) wrong.push(h);
    }
    expect(wrong).toEqual([]);
  });

  it("known float16 values", () => {
    expect(float16BitsToNumber(0x7bff)).toBe(65504);
    expect(float16BitsToNumber(0x0001)).toBe(2 ** -24);
    expect(float16BitsToNumber(0x03ff)).toBe(1023 * 2 ** -24);
    expect(float16BitsToNumber(0x0400)).toBe(2 ** -14);
    expectSame(float16BitsToNumber(0x8000), -0);
    expect(float16BitsToNumber(0xfc00)).toBe(Number.NEGATIVE_INFINITY);
    expect(numberToFloat16Bits(2 ** -25)).toBe(0); // tie to even
    expect(numberToFloat16Bits(3 * 2 ** -25)).toBe(2); // tie to even, up
    expect(numberToFloat16Bits(2 ** -25 + 2 ** -40)).toBe(1);
    expect(numberToFloat16Bits(65519.99)).toBe(0x7bff);
    expect(numberToFloat16Bits(65520)).toBe(0x7c00);
    expect(numberToFloat16Bits(-1e300)).toBe(0xfc00);
    expect(numberToFloat16Bits(Number.NaN)).toBe(0x7e00);
    expect(numberToFloat16Bits(1 + 2 ** -11)).toBe(0x3c00); // tie, even stays
    expect(numberToFloat16Bits(1 + 3 * 2 ** -11)).toBe(0x3c02); // tie, odd rounds up
  });

  it("float16 is Float16DataType; FloatDataType itself takes 32 or 64 bits", () => {
    const half = dt("float16");
    expect(half).toBeInstanceOf(Float16DataType);
    expect(half).toBeInstanceOf(FloatDataType);
    expect(half.bytesAreMemory).toBe(false);
    expect(Array.from(half.fromBytes?.(new Uint8Array([0x00, 0x3c, 0xff, 0x7b]), 2, true) as Float32Array)).toEqual([1, 65504]);
    expect(half.coerce(65519)).toBe(65504);
    expect(dt("float32").bytesAreMemory).toBe(true);
    expect(() => new FloatDataType("float16", 16)).toThrow(/Float16DataType/);
  });

  it("float32 bits helpers keep NaN payloads", () => {
    for (const b of [0x7fc00001, 0xffc00000, 0x7f800001, 0xff800001, 0x7fffffff, 0x3f800000, 0x80000000]) {
      expect(numberToFloat32Bits(float32BitsToNumber(b))).toBe(b);
    }
  });

  it("base64 round trips", () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 50 }), (b) => {
        expect(decodeBase64(encodeBase64(b))).toEqual(b);
      }),
    );
    expect(encodeBase64(new TextEncoder().encode("any carnal pleas"))).toBe("YW55IGNhcm5hbCBwbGVhcw==");
    expect(decodeBase64("YW55IGNhcm5hbCBwbGVhcw")).toEqual(new TextEncoder().encode("any carnal pleas"));
    expect(decodeBase64("YW=5")).toBeUndefined();
  });
});

describe("configuration and metadata form", () => {
  it("toJSON: bare names, or {name, configuration}", () => {
    expect(dt("int16").toJSON()).toBe("int16");
    expect(dt("r16").toJSON()).toBe("r16");
    expect(dt("variable_length_bytes").toJSON()).toBe("variable_length_bytes");
    expect(dt("fixed_length_utf32", { length_bytes: 8 }).toJSON()).toEqual({
      name: "fixed_length_utf32",
      configuration: { length_bytes: 8 },
    });
    expect(dt("numpy.datetime64", { unit: "μs", scale_factor: 10 }).toJSON()).toEqual({
      name: "numpy.datetime64",
      configuration: { unit: "μs", scale_factor: 10 },
    });
    expect(dt("datetime64", { unit: "s", scale_factor: 1 }).toJSON()).toEqual({
      name: "datetime64",
      configuration: { unit: "s", scale_factor: 1 },
    });
    expect(dt("numpy.timedelta64", { unit: "generic", scale_factor: 1 }).kind).toBe("timedelta");
    expect(dt("fixed_length_utf32", { length_bytes: 8 }).configuration).toEqual({ length_bytes: 8 });
    expect(dt("int8").configuration).toEqual({});
  });

  it("every entry is a data_type entry from @zarr/core", () => {
    expect(builtinDataTypes.length).toBe(20);
    for (const e of builtinDataTypes) {
      expect(e.type).toBe("data_type");
      expect(e.package).toBe("@zarr/core");
    }
  });

  it("r<N>: matches r + digits, rejects N that is not a positive multiple of 8", () => {
    const raw = builtinDataTypes.find((e) => e.name === "r*")!;
    expect(raw.matches!("r8")).toBe(true);
    expect(raw.matches!("r7")).toBe(true);
    expect(raw.matches!("r")).toBe(false);
    expect(raw.matches!("rx8")).toBe(false);
    expect(raw.matches!("int8")).toBe(false);
    for (const bad of ["r7", "r0", "r12", "r99999999999999999999"]) {
      const e = metadataError(() => raw.fromConfig(bad, {}, ["data_type"]));
      expect(e.path).toEqual(["data_type"]);
      expect(e.message).toContain(bad);
    }
    expect(raw.fromConfig("r64", {}, []).byteSize).toBe(8);
  });

  it("types without configuration reject configuration fields", () => {
    const e = metadataError(() => dt("int8", { endian: "little" }));
    expect(e.path).toEqual(["data_type", "configuration", "endian"]);
  });

  it("datetime configuration: unit and scale_factor", () => {
    const good = dt("numpy.datetime64", { unit: "as", scale_factor: 2147483647 });
    expect(good.configuration).toEqual({ unit: "as", scale_factor: 2147483647 });
    for (const [config, field] of [
      [{ unit: "sec", scale_factor: 1 }, "unit"],
      [{ scale_factor: 1 }, "unit"],
      [{ unit: "s" }, "scale_factor"],
      [{ unit: "s", scale_factor: 0 }, "scale_factor"],
      [{ unit: "s", scale_factor: 2 ** 31 }, "scale_factor"],
      [{ unit: "s", scale_factor: 1.5 }, "scale_factor"],
      [{ unit: "s", scale_factor: 1, endian: "little" }, "endian"],
    ] as const) {
      const e = metadataError(() => dt("numpy.timedelta64", config));
      expect(e.path).toEqual(["data_type", "configuration", field]);
    }
  });

  it("fixed_length_utf32 configuration: length_bytes divisible by 4", () => {
    expect(dt("fixed_length_utf32", { length_bytes: 0 }).byteSize).toBe(0);
    for (const config of [{ length_bytes: 6 }, { length_bytes: -4 }, { length_bytes: "8" }, {}, { length_bytes: 4, x: 1 }]) {
      const e = metadataError(() => dt("fixed_length_utf32", config as Record<string, JsonValue>));
      expect(e.path[0]).toBe("data_type");
      expect(e.path[1]).toBe("configuration");
    }
  });
});
