/**
 * fromBytes/toBytes against NumPy: NumPy produces the bytes of known values in both
 * byte orders; we must decode them to exactly those values and encode the values to
 * exactly those bytes.
 */
import { execFileSync } from "node:child_process";
import type { DataArray, DataType, JsonValue, Scalar } from "@zarr/spec";
import { ZarrError } from "@zarr/spec";
import { beforeAll, describe, expect, it } from "vitest";
import { mulberry32 } from "../../../scripts/test-random.mjs";
import { builtinDataTypes, float16BitsToNumber, float32BitsToNumber, NAT, numberToFloat16Bits } from "../src/data-types/index.js";

function dt(name: string, configuration: Record<string, JsonValue> = {}): DataType {
  const entry = builtinDataTypes.find((e) => e.name === name || e.aliases?.includes(name) || e.matches?.(name));
  if (entry === undefined) throw new Error(`no entry for ${name}`);
  return entry.fromConfig(name, configuration, ["data_type"]);
}

const f64 = new Float64Array(1);
const u32 = new Uint32Array(f64.buffer);
function f64Hex(x: number): string {
  f64[0] = x;
  return u32[1].toString(16).padStart(8, "0") + u32[0].toString(16).padStart(8, "0");
}
function f64FromBits(hi: number, lo: number): number {
  u32[1] = hi;
  u32[0] = lo;
  return f64[0];
}
function same(a: unknown, b: unknown): boolean {
  if (typeof a === "number" && typeof b === "number") return f64Hex(a) === f64Hex(b);
  if (a instanceof Uint8Array && b instanceof Uint8Array) return a.length === b.length && a.every((x, i) => x === b[i]);
  if (Array.isArray(a) && Array.isArray(b)) return a.length === b.length && a.every((x, i) => same(x, b[i]));
  return a === b;
}
function show(v: unknown): string {
  return typeof v === "number" && Number.isNaN(v) ? `NaN(0x${f64Hex(v)})` : String(v);
}
function hex(b: Uint8Array): string {
  return Array.from(b, (x) => x.toString(16).padStart(2, "0")).join("");
}
function fromHex(h: string): Uint8Array {
  const out = new Uint8Array(h.length / 2);
  for (let i = 0; i < out.length; i++) out[i] = Number.parseInt(h.slice(2 * i, 2 * i + 2), 16);
  return out;
}

/**
 * How a value is sent to Python: floats as the hex of their float64 bits ("d:"), raw
 * float16/32 bit patterns as "b:" (to carry NaN payloads NumPy cannot compute),
 * integers as decimal strings, strings as themselves.
 */
type Wire = string | boolean | [string, string] | null;

interface NumpyCase {
  id: string;
  /** Data type name and configuration on our side. */
  name: string;
  config?: Record<string, JsonValue>;
  /** NumPy dtype without byte order, e.g. "f2", "U3", "M8[s]". */
  numpy: string;
  /** Values as our scalars. */
  values: Scalar[];
  /** Values as sent to Python (defaults derived from `values`). */
  wire?: Wire[];
  /** True when an aligned little-endian decode must be a view of the input. */
  zeroCopy: boolean;
}

function toWire(v: Scalar): Wire {
  if (typeof v === "number") return `d:${f64Hex(v)}`;
  if (typeof v === "bigint") return `i:${v}`;
  if (typeof v === "boolean" || typeof v === "string") return v;
  if (Array.isArray(v)) return [toWire(v[0] as number) as string, toWire(v[1] as number) as string];
  throw new Error("unsupported");
}

const f16 = float16BitsToNumber;
const cases: NumpyCase[] = [
  { id: "bool", name: "bool", numpy: "?", values: [true, false, true, true, false], zeroCopy: true },
  { id: "int8", name: "int8", numpy: "i1", values: [-128, -1, 0, 1, 127], zeroCopy: true },
  { id: "uint8", name: "uint8", numpy: "u1", values: [0, 1, 128, 255], zeroCopy: true },
  { id: "int16", name: "int16", numpy: "i2", values: [-32768, -2, 0, 258, 32767], zeroCopy: true },
  { id: "uint16", name: "uint16", numpy: "u2", values: [0, 1, 258, 65535], zeroCopy: true },
  { id: "int32", name: "int32", numpy: "i4", values: [-2147483648, -1, 0, 16909060, 2147483647], zeroCopy: true },
  { id: "uint32", name: "uint32", numpy: "u4", values: [0, 1, 16909060, 4294967295], zeroCopy: true },
  {
    id: "int64",
    name: "int64",
    numpy: "i8",
    values: [-(2n ** 63n), -1n, 0n, 9007199254740993n, 2n ** 63n - 1n],
    zeroCopy: true,
  },
  { id: "uint64", name: "uint64", numpy: "u8", values: [0n, 1n, 9007199254740993n, 2n ** 64n - 1n], zeroCopy: true },
  {
    id: "float16 extremes",
    name: "float16",
    numpy: "f2",
    values: [
      65504,
      -65504,
      2 ** -24,
      -(2 ** -24),
      1023 * 2 ** -24,
      2 ** -14,
      -0,
      0,
      Number.POSITIVE_INFINITY,
      Number.NEGATIVE_INFINITY,
      Number.NaN,
      1,
      f16(0x3555), // ≈ 1/3
    ],
    zeroCopy: false,
  },
  {
    id: "float16 NaN payloads",
    name: "float16",
    numpy: "f2",
    values: [Number.NaN, Number.NaN, Number.NaN, Number.NaN, Number.NaN], // see wire
    wire: ["b:7e01", "b:fe01", "b:7c01", "b:7fff", "b:fe00"],
    zeroCopy: false,
  },
  {
    id: "float32",
    name: "float32",
    numpy: "f4",
    values: [
      Math.fround(0.1),
      -0,
      Number.POSITIVE_INFINITY,
      Number.NEGATIVE_INFINITY,
      Number.NaN,
      Math.fround(3.4028234663852886e38),
      Math.fround(1.401298464324817e-45),
      Math.fround(-1 / 3),
    ],
    zeroCopy: true,
  },
  {
    id: "float32 NaN payloads",
    name: "float32",
    numpy: "f4",
    values: [Number.NaN, Number.NaN, Number.NaN], // see wire
    wire: ["b:7fc00001", "b:ff800001", "b:7f800001"],
    zeroCopy: true,
  },
  {
    id: "float64",
    name: "float64",
    numpy: "f8",
    values: [0.1, -0, 5e-324, 1.7976931348623157e308, Number.NaN, Number.NEGATIVE_INFINITY],
    zeroCopy: true,
  },
  {
    id: "float64 NaN payloads",
    name: "float64",
    numpy: "f8",
    values: [Number.NaN, Number.NaN, Number.NaN],
    wire: ["b:7ff0000000000001", "b:fff8000000000000", "b:7ff80000000000ff"],
    zeroCopy: true,
  },
  {
    id: "complex64",
    name: "complex64",
    numpy: "c8",
    values: [
      [1.5, -2.25],
      [Number.NaN, Number.POSITIVE_INFINITY],
      [-0, Math.fround(0.1)],
    ],
    zeroCopy: true,
  },
  {
    id: "complex128",
    name: "complex128",
    numpy: "c16",
    values: [
      [0.1, -0],
      [Number.NEGATIVE_INFINITY, 5e-324],
      [1, Number.NaN],
    ],
    zeroCopy: true,
  },
  {
    id: "fixed_length_utf32",
    name: "fixed_length_utf32",
    config: { length_bytes: 12 },
    numpy: "U3",
    values: ["", "a", "héé", "😀x", "abc", "a\0b", "\u{10FFFF}", "\uFEFFz"],
    zeroCopy: false,
  },
  {
    id: "datetime64[s]",
    name: "numpy.datetime64",
    config: { unit: "s", scale_factor: 1 },
    numpy: "M8[s]",
    values: [BigInt(Date.UTC(2024, 0, 2, 3, 4, 5) / 1000), NAT, -1n, 0n],
    wire: ["2024-01-02T03:04:05", "NaT", "i:-1", "i:0"],
    zeroCopy: true,
  },
  {
    id: "timedelta64[10ms]",
    name: "numpy.timedelta64",
    config: { unit: "ms", scale_factor: 10 },
    numpy: "m8[10ms]",
    values: [5n, NAT, -(2n ** 63n) + 1n],
    wire: ["i:5", "NaT", `i:${-(2n ** 63n) + 1n}`],
    zeroCopy: true,
  },
];

const PYTHON_BYTES = `
import json, sys, struct
import numpy as np
cases = json.load(sys.stdin)
out = {}
def scalar(w, code):
    if isinstance(w, str) and w.startswith("d:"):
        return struct.unpack(">d", bytes.fromhex(w[2:]))[0]
    if isinstance(w, str) and w.startswith("i:"):
        return int(w[2:])
    return w
for c in cases:
    code = c["numpy"]
    parts = []
    for w in c["wire"]:
        if isinstance(w, str) and w.startswith("b:"):
            size = np.dtype(code).itemsize
            parts.append(int(w[2:], 16).to_bytes(size, "little"))
        elif isinstance(w, list):
            parts.append(np.array([complex(scalar(w[0], code), scalar(w[1], code))], dtype="<" + code).tobytes())
        elif code.startswith("M8") or code.startswith("m8"):
            v = scalar(w, code)
            unit = code[3:-1]
            ctor = np.datetime64 if code.startswith("M8") else np.timedelta64
            parts.append(np.array([ctor(v, unit) if not isinstance(v, int) or code.startswith("m8") else np.datetime64(v, unit)], dtype="<" + code).tobytes())
        else:
            parts.append(np.array([scalar(w, code)], dtype="<" + code).tobytes())
    le = b"".join(parts)
    arr = np.frombuffer(le, dtype="<" + code)
    be = arr.astype(">" + code).tobytes()
    out[c["id"]] = {"le": le.hex(), "be": be.hex()}
json.dump(out, sys.stdout)
`;

let numpyBytes: Record<string, { le: string; be: string }>;

beforeAll(() => {
  const input = JSON.stringify(cases.map((c) => ({ id: c.id, numpy: c.numpy, wire: c.wire ?? c.values.map(toWire) })));
  numpyBytes = JSON.parse(execFileSync("/usr/bin/python3", ["-c", PYTHON_BYTES], { input, encoding: "utf8" }));
});

/**
 * The expected value of element `i`. NaNs with payloads are built from their bits at
 * the point of use: V8 may quiet or canonicalise a NaN stored in a JS array literal.
 */
function expectedAt(c: NumpyCase, i: number): Scalar {
  const w = c.wire?.[i];
  if (typeof w === "string" && w.startsWith("b:")) {
    const bits = w.slice(2);
    if (c.numpy === "f2") return float16BitsToNumber(Number.parseInt(bits, 16));
    if (c.numpy === "f4") return float32BitsToNumber(Number.parseInt(bits, 16));
    return f64FromBits(Number.parseInt(bits.slice(0, 8), 16), Number.parseInt(bits.slice(8), 16));
  }
  return c.values[i];
}

function build(t: DataType, c: NumpyCase): DataArray {
  const arr = t.allocate(c.values.length);
  for (let i = 0; i < c.values.length; i++) t.setItem(arr, i, expectedAt(c, i));
  return arr;
}

function expectValues(t: DataType, arr: DataArray, c: NumpyCase): void {
  // Compared one by one: collecting numbers into a fresh JS array (Array.from) would
  // let V8 canonicalise NaN payloads before we look at them.
  for (let i = 0; i < c.values.length; i++) {
    const got = t.getItem(arr, i);
    const want = expectedAt(c, i);
    if (!same(got, want)) expect.fail(`element ${i}: got ${show(got)}, expected ${show(want)}`);
  }
}

describe("fromBytes/toBytes match NumPy in both byte orders", () => {
  for (const c of cases) {
    it(c.id, () => {
      const t = dt(c.name, c.config);
      const { le, be } = numpyBytes[c.id];
      const n = c.values.length;
      expect(le.length / 2).toBe(n * t.byteSize!);

      // decode NumPy's bytes
      const leBytes = fromHex(le);
      const beBytes = fromHex(be);
      expectValues(t, t.fromBytes!(leBytes, n, true), c);
      expectValues(t, t.fromBytes!(beBytes, n, false), c);
      expect(hex(beBytes)).toBe(be); // decoding must not swap the caller's bytes in place

      // encode our values
      const arr = build(t, c);
      expect(hex(t.toBytes!(arr, true))).toBe(le);
      expect(hex(t.toBytes!(arr, false))).toBe(be);

      // unaligned input decodes the same (for both orders)
      for (const [h, little] of [
        [le, true],
        [be, false],
      ] as const) {
        const backing = new Uint8Array(h.length / 2 + 3);
        const unaligned = backing.subarray(1, 1 + h.length / 2);
        unaligned.set(fromHex(h));
        const decoded = t.fromBytes!(unaligned, n, little);
        expectValues(t, decoded, c);
        expect(hex(unaligned)).toBe(h);
      }

      // zero-copy when aligned and little-endian
      const aligned = new Uint8Array(new ArrayBuffer(le.length / 2 + 16), 8, le.length / 2);
      aligned.set(leBytes);
      const view = t.fromBytes!(aligned, n, true);
      if (c.zeroCopy) {
        expect((view as { buffer: ArrayBufferLike }).buffer).toBe(aligned.buffer);
        expect(t.toBytes!(view, true).buffer).toBe(aligned.buffer);
      }
      const big = t.fromBytes!(fromHex(be), n, false);
      if (t.componentSize > 1 && !Array.isArray(big)) {
        expect((big as { buffer: ArrayBufferLike }).buffer).not.toBe(aligned.buffer);
      }
    });
  }

  it("a length mismatch is CODEC_FAILED, before any allocation", () => {
    for (const [name, config] of [
      ["int16", {}],
      ["float16", {}],
      ["complex128", {}],
      ["bool", {}],
      ["r24", {}],
      ["fixed_length_utf32", { length_bytes: 8 }],
      ["numpy.datetime64", { unit: "s", scale_factor: 1 }],
    ] as const) {
      const t = dt(name, config);
      for (const [bytes, n] of [
        [new Uint8Array(t.byteSize! * 3 + 1), 3],
        [new Uint8Array(t.byteSize! * 3), 4],
        [new Uint8Array(4), 2 ** 40],
        [new Uint8Array(4), -1],
      ] as const) {
        try {
          t.fromBytes!(bytes, n, true);
          expect.fail(`${name}: expected CODEC_FAILED`);
        } catch (e) {
          expect(e).toBeInstanceOf(ZarrError);
          expect((e as ZarrError).code).toBe("CODEC_FAILED");
          expect((e as ZarrError).message).toContain(name);
        }
      }
    }
  });

  it("fixed_length_utf32: invalid code points decode as U+FFFD; too-long strings are INVALID_ARGUMENT", () => {
    const t = dt("fixed_length_utf32", { length_bytes: 8 });
    const bytes = new Uint8Array(new Uint32Array([0x110000, 0xd800, 0x41, 0]).buffer);
    expect(t.fromBytes!(bytes, 2, true)).toEqual(["\uFFFD\uFFFD", "A"]);
    try {
      t.toBytes!(["abc"], true);
      expect.fail("expected INVALID_ARGUMENT");
    } catch (e) {
      expect((e as ZarrError).code).toBe("INVALID_ARGUMENT");
    }
    // a lone surrogate is written as U+FFFD
    expect(Array.from(new Uint32Array(t.toBytes!(["\uD800"], true).slice().buffer))).toEqual([0xfffd, 0]);
  });

  it("r<N> and uint8 decode as views of the input", () => {
    const bytes = new Uint8Array([1, 2, 3, 4, 5, 6]);
    const r = dt("r24");
    const data = r.fromBytes!(bytes, 2, false) as Uint8Array;
    expect(data.buffer).toBe(bytes.buffer);
    expect(Array.from(r.getItem(data, 1) as Uint8Array)).toEqual([4, 5, 6]);
    expect(r.toBytes!(data, true)).toBe(data);
  });
});

// ---------------------------------------------------------------- float16 rounding

const PYTHON_F16 = `
import json, sys, struct, warnings
import numpy as np
warnings.simplefilter("ignore")  # overflow to inf is what we test
data = json.load(sys.stdin)
doubles = np.array([struct.unpack(">d", bytes.fromhex(h))[0] for h in data["doubles"]], dtype="<f8")
singles = np.array(data["singles"], dtype="<u4").view("<f4")
json.dump({
  "fromDoubles": doubles.astype("<f2").view("<u2").tolist(),
  "fromSingles": singles.astype("<f2").view("<u2").tolist(),
}, sys.stdout)
`;

describe("float16 rounding matches NumPy", () => {
  it("float64 → float16 (numberToFloat16Bits) and float32 → float16 (toBytes) on random values, ties and edges", () => {
    const rand = mulberry32(12345);
    const doubles: number[] = [];
    for (let i = 0; i < 3000; i++) {
      const e = Math.floor(rand() * 50) - 30;
      doubles.push((rand() - 0.5) * 2 ** e);
    }
    for (let i = 0; i < 2000; i++) {
      // exact midpoints between neighbouring float16 values (ties), and just either side of them
      const h = Math.floor(rand() * 0x7bff);
      const mid = (f16(h) + f16(h + 1)) / 2;
      doubles.push(mid, -mid, mid + Math.abs(mid) * 2 ** -40, mid - Math.abs(mid) * 2 ** -40);
    }
    doubles.push(65504, 65519.999, 65520, 65536, 1e300, 2 ** -25, 2 ** -26, 3 * 2 ** -25, 5e-324, -0);
    const singles: number[] = [];
    for (let i = 0; i < 5000; i++) singles.push(Math.floor(rand() * 2 ** 32));
    for (let i = 0; i < 1000; i++) {
      // float32 patterns in and near float16's range, so rounding (not just overflow) is exercised
      const exp = 100 + Math.floor(rand() * 45);
      singles.push(((rand() < 0.5 ? 0x80000000 : 0) | (exp << 23) | Math.floor(rand() * 0x800000)) >>> 0);
    }
    singles.push(0x7fc00000, 0xffc02000, 0x7f802000, 0x477fe000, 0x477ff000, 0x33000000, 0x33000001);
    const ref = JSON.parse(
      execFileSync("/usr/bin/python3", ["-c", PYTHON_F16], {
        input: JSON.stringify({ doubles: doubles.map(f64Hex), singles }),
        encoding: "utf8",
      }),
    ) as { fromDoubles: number[]; fromSingles: number[] };

    const badDoubles = doubles.filter((x, i) => numberToFloat16Bits(x) !== ref.fromDoubles[i]);
    expect(badDoubles).toEqual([]);

    const t = dt("float16");
    const storage = new Float32Array(new Uint32Array(singles).buffer);
    const ours = new Uint16Array(t.toBytes!(storage, true).slice().buffer);
    const bad: string[] = [];
    singles.forEach((b, i) => {
      // NaNs whose payload lies only in the low 13 bits: NumPy makes 0x7c01, we make the quiet 0x7e00
      if ((b & 0x7f800000) === 0x7f800000 && (b & 0x7fffff) !== 0 && (b & 0x7fe000) === 0) return;
      if (ours[i] !== ref.fromSingles[i]) bad.push(`${b.toString(16)}: ${ours[i].toString(16)} vs ${ref.fromSingles[i].toString(16)}`);
    });
    expect(bad).toEqual([]);
  });
});
