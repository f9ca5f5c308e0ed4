import { describe, expect, it } from "vitest";
import { chooseFloatSize, encodeVariable, unpackNumbers } from "../src/index.js";

const int16 = { kind: "int", size: 2 } as const;

describe("unpackNumbers: xarray 2023.01's order and dtypes", () => {
  it("int16 with scale_factor only: float32", () => {
    const { data, type } = unpackNumbers(new Int16Array([1, 3]), int16, { scale_factor: 0.1 });
    expect(type).toEqual({ kind: "float", size: 4 });
    expect(data).toEqual(new Float32Array([Math.fround(0.1), Math.fround(3 * Math.fround(0.1))]));
  });

  it("int16 with add_offset and no fill value: float64 (a large offset would lose precision in float32)", () => {
    const { data, type } = unpackNumbers(new Int16Array([1]), int16, { scale_factor: 0.1, add_offset: 1000 });
    expect(type).toEqual({ kind: "float", size: 8 });
    expect(data).toEqual(new Float64Array([1000.1]));
  });

  it("int16 with _FillValue and add_offset: masked to float32 first, so float32 (xarray 2023.01)", () => {
    const { data, type } = unpackNumbers(new Int16Array([1, -32767]), int16, { scale_factor: 0.01, add_offset: 273.15, _FillValue: -32767 });
    expect(type).toEqual({ kind: "float", size: 4 });
    expect(Array.from(data)).toEqual([Math.fround(Math.fround(0.01) + Math.fround(273.15)), Number.NaN]);
  });

  it("int32 and int64 mask to float64; missing_value lists and _FillValue both mask", () => {
    const masked = unpackNumbers(new Int32Array([1, 2, 3, 4]), { kind: "int", size: 4 }, { missing_value: [2, 3], _FillValue: 4 });
    expect(masked.type).toEqual({ kind: "float", size: 8 });
    expect(Array.from(masked.data)).toEqual([1, Number.NaN, Number.NaN, Number.NaN]);
    const big = unpackNumbers(new BigInt64Array([5n, -1n]), { kind: "int", size: 8 }, { _FillValue: -1 });
    expect(Array.from(big.data)).toEqual([5, Number.NaN]);
  });

  it("float32 compares the fill value in float32 (as NumPy does with a Python float)", () => {
    const { data, type } = unpackNumbers(new Float32Array([9.96921e36, 1]), { kind: "float", size: 4 }, { _FillValue: 9.96921e36 });
    expect(type).toEqual({ kind: "float", size: 4 });
    expect(Array.from(data)).toEqual([Number.NaN, 1]);
  });

  it("a NaN fill value changes nothing, and no attribute returns the input itself", () => {
    const input = new Int16Array([1, 2]);
    expect(unpackNumbers(input, int16, { _FillValue: Number.NaN }).data).toBe(input);
    expect(unpackNumbers(input, int16, {}).data).toBe(input);
  });

  it("_Unsigned: signed bytes read as unsigned, the fill value wrapped the same way", () => {
    const { data } = unpackNumbers(new Int8Array([-1, -2, 5]), { kind: "int", size: 1 }, { _Unsigned: "true", _FillValue: -1 });
    expect(Array.from(data)).toEqual([Number.NaN, 254, 5]);
  });

  it("chooseFloatSize", () => {
    expect(chooseFloatSize({ kind: "float", size: 2 }, true)).toBe(4);
    expect(chooseFloatSize({ kind: "uint", size: 1 }, false)).toBe(4);
    expect(chooseFloatSize({ kind: "int", size: 4 }, false)).toBe(8);
    expect(chooseFloatSize({ kind: "float", size: 8 }, false)).toBe(8);
  });
});

describe("encodeVariable", () => {
  it("packs with scale/offset, rounds half to even, NaN → _FillValue", () => {
    const e = encodeVariable({ dims: ["x"], data: [280.15, Number.NaN, 0.5, 1.5], encoding: { dtype: "int16", scale_factor: 1, add_offset: 0, _FillValue: -32767 } });
    expect(e.data).toEqual(new Int16Array([280, -32767, 0, 2]));
    expect(e.attributes).toEqual({ scale_factor: 1, add_offset: 0 });
    expect(e.fillValue).toBe(-32767);
  });

  it("dates become int64 when whole units, float64 otherwise", () => {
    const whole = encodeVariable({ dims: ["t"], data: [new Date("2000-01-03Z")], encoding: { units: "days since 2000-01-01" } });
    expect(whole.dataType).toBe("int64");
    expect(whole.data).toEqual(new BigInt64Array([2n]));
    const half = encodeVariable({ dims: ["t"], data: [new Date("2000-01-03T12:00Z")], encoding: { units: "days since 2000-01-01" } });
    expect(half).toMatchObject({ dataType: "float64", attributes: { units: "days since 2000-01-01" } });
  });

  it("refuses values that do not fit, missing values without a fill value, dates without units, wrong shapes", () => {
    expect(() => encodeVariable({ dims: ["x"], data: [40000], encoding: { dtype: "int16" } })).toThrow(/Value 40000 at index 0 does not fit int16/);
    expect(() => encodeVariable({ dims: ["x"], data: [Number.NaN], encoding: { dtype: "int16" } })).toThrow(/needs a _FillValue/);
    expect(() => encodeVariable({ dims: ["t"], data: [new Date()] })).toThrow(/Dates need time units/);
    expect(() => encodeVariable({ dims: ["x"], data: [1, 2], shape: [3] })).toThrow(expect.objectContaining({ code: "INVALID_ARGUMENT" }));
    expect(() => encodeVariable({ dims: ["x", "y"], data: [1, 2] })).toThrow(/2 dimension names for a shape of 1/);
  });
});
