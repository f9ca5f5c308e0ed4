/**
 * The .npy reader and writer, in process: files numpy wrote (every format version,
 * both byte orders, Fortran order, 0-d and empty arrays) decode to numpy's own values;
 * what we encode numpy loads back with the same bytes; malformed files fail with
 * INVALID_ARGUMENT naming the file and the problem.
 */
import { toCanonicalJson } from "@zarr/core";
import { cStrides, type DataArray, type DataType, ZarrError } from "@zarr/spec";
import fc from "fast-check";
import { beforeAll, describe, expect, it } from "vitest";
import { decodeNpy, encodeNpy, encodeNpyParts } from "../src/npy.js";
import { cliRegistry } from "../src/registry.js";
import { jsonDifference, python } from "./helpers.js";

const registry = cliRegistry();

async function dataType(name: string, configuration = {}): Promise<DataType> {
  return (await registry.dataType(name)).fromConfig(name, configuration, ["data_type"]);
}

function canonical(data: DataArray, shape: number[], dt: DataType) {
  return toCanonicalJson({ data, shape, stride: cStrides(shape), dataType: dt });
}

function b64(bytes: Uint8Array): string {
  return Buffer.from(bytes).toString("base64");
}

function fromB64(text: string): Uint8Array {
  return new Uint8Array(Buffer.from(text, "base64"));
}

interface NumpyFile {
  name: string;
  npy: string;
  shape: number[];
  values: unknown[];
}

/** Files written by numpy (base64) with numpy's canonical values. */
const NUMPY_FILES = `
import base64, io, json, sys
import numpy as np
sys.path.insert(0, "../../../scripts")
from independent_reader import canonical_values

def bits(values, kind, size, order):
    return np.array(values, dtype="%su%d" % (order, size)).view("%s%s%d" % (order, kind, size))

arrays = {
    "be_i2": np.array([[-32768, 32767, 5], [0, -1, 7]], dtype=">i2"),
    "be_u8": np.array([2**64 - 1, 0, 2**63], dtype=">u8"),
    "be_f2": bits([0x7c01, 0xfe01, 0x8000, 0x0001, 0x7bff, 0x3c00], "f", 2, ">"),
    "be_f4": bits([0x7f800001, 0xffc12345, 0x80000000, 0x00000001, 0x7f7fffff], "f", 4, ">"),
    "be_f8": bits([0x7ff0000000000001, 0x8000000000000000, 0x1], "f", 8, ">"),
    "be_c8": bits([0x7fc00001, 0x3f800000, 0xff800000, 0x80000000], "f", 4, ">").view(">c8"),
    "be_c16": np.array([1 + 2j, complex(float("nan"), -0.0)], dtype=">c16"),
    "be_M8": np.array(["2001-02-03T04:05:06.007", "NaT"], dtype=">M8[ms]"),
    "be_m8": np.array([3, -4], dtype=">m8[s]"),
    "be_U3": np.array(["a😀", "", "xyz"], dtype=">U3"),
    "le_U3": np.array(["a😀", "", "xyz"], dtype="<U3"),
    "b1": np.array([True, False, True]),
    "S3": np.array([b"ab", b"", b"a\\x00c"], dtype="S3"),
    "V2": np.frombuffer(b"\\x01\\x02\\x00\\x00\\xff\\x00", dtype="V2"),
    "fortran_2d": np.asfortranarray(np.arange(12, dtype="<i4").reshape(3, 4)),
    "fortran_3d_f2": np.asfortranarray(np.arange(24, dtype="<f2").reshape(2, 3, 4) / 8),
    "zero_d": np.array(-7, dtype="<i8"),
    "zero_d_U": np.array("héllo", dtype="<U5"),
    "empty": np.zeros((2, 0, 3), dtype="<f4"),
    "M8_generic_units": np.array([1, 2], dtype="M8[W]"),
    "m8_scaled": np.array([1, -2], dtype="m8[25us]"),
}
out = []
for name, a in arrays.items():
    for version in [(1, 0), (2, 0), (3, 0)]:
        f = io.BytesIO()
        np.lib.format.write_array(f, a, version=version)
        out.append({"name": "%s v%d" % (name, version[0]), "npy": base64.b64encode(f.getvalue()).decode(),
                    "shape": list(a.shape), "values": canonical_values(a)})
json.dump(out, sys.stdout)
`;

let numpyFiles: NumpyFile[];

beforeAll(() => {
  numpyFiles = JSON.parse(python(NUMPY_FILES)) as NumpyFile[];
});

describe("decodeNpy", () => {
  it("reads every file numpy writes as numpy's values", async () => {
    expect(numpyFiles.length).toBe(63);
    for (const f of numpyFiles) {
      const npy = await decodeNpy(fromB64(f.npy), f.name, registry);
      expect(npy.shape, f.name).toEqual(f.shape);
      const json = canonical(npy.data, npy.shape, npy.dataType);
      expect(jsonDifference(json.values, f.values), f.name).toBeUndefined();
    }
  });

  it("maps dtypes to Zarr data types", async () => {
    const byName = new Map(numpyFiles.map((f) => [f.name, f]));
    const dt = async (name: string) => (await decodeNpy(fromB64(byName.get(`${name} v1`)!.npy), name, registry)).dataType.toJSON();
    expect(await dt("be_i2")).toBe("int16");
    expect(await dt("be_u8")).toBe("uint64");
    expect(await dt("be_f2")).toBe("float16");
    expect(await dt("be_c8")).toBe("complex64");
    expect(await dt("b1")).toBe("bool");
    expect(await dt("S3")).toBe("r24");
    expect(await dt("V2")).toBe("r16");
    expect(await dt("be_U3")).toEqual({ name: "fixed_length_utf32", configuration: { length_bytes: 12 } });
    expect(await dt("be_M8")).toEqual({ name: "numpy.datetime64", configuration: { unit: "ms", scale_factor: 1 } });
    expect(await dt("m8_scaled")).toEqual({ name: "numpy.timedelta64", configuration: { unit: "us", scale_factor: 25 } });
    expect(await dt("M8_generic_units")).toEqual({ name: "numpy.datetime64", configuration: { unit: "W", scale_factor: 1 } });
  });

  it("keeps float bit patterns of big-endian files (signalling NaNs, -0, payloads)", async () => {
    const f = numpyFiles.find((x) => x.name === "be_f4 v1")!;
    const npy = await decodeNpy(fromB64(f.npy), f.name, registry);
    const words = new Uint32Array((npy.data as Float32Array).slice().buffer);
    expect([...words]).toEqual([0x7f800001, 0xffc12345, 0x80000000, 0x00000001, 0x7f7fffff]);
    const h = numpyFiles.find((x) => x.name === "be_f2 v1")!;
    const half = encodeNpy(await decodeNpy(fromB64(h.npy), h.name, registry));
    const body = new Uint16Array(half.slice(half.length - 12).buffer);
    expect([...body]).toEqual([0x7c01, 0xfe01, 0x8000, 0x0001, 0x7bff, 0x3c00]);
  });
});

describe("encodeNpy", () => {
  it("writes files numpy loads with the same dtype, shape and bytes", async () => {
    const inputs: { name: string; data: DataArray; shape: number[]; dt: DataType }[] = [
      { name: "i2", data: new Int16Array([1, -2, 3, -32768, 32767, 0]), shape: [2, 3], dt: await dataType("int16") },
      { name: "u8", data: new BigUint64Array([0n, 2n ** 64n - 1n]), shape: [2], dt: await dataType("uint64") },
      { name: "b1", data: new Uint8Array([1, 0, 1, 1]), shape: [2, 2], dt: await dataType("bool") },
      { name: "c8", data: new Float32Array([1, 2, Number.NaN, -0]), shape: [2], dt: await dataType("complex64") },
      { name: "r24", data: new Uint8Array([1, 2, 3, 0, 0, 0]), shape: [2], dt: await dataType("r24") },
      { name: "U3", data: ["a😀", "", "xyz"], shape: [3], dt: await dataType("fixed_length_utf32", { length_bytes: 12 }) },
      { name: "string", data: ["", "ab😀c", "x"], shape: [3], dt: await dataType("string") },
      { name: "bytes", data: [new Uint8Array([1, 0]), new Uint8Array([]), new Uint8Array([9, 8, 7])], shape: [3], dt: await dataType("bytes") },
      { name: "M8", data: new BigInt64Array([0n, -(2n ** 63n)]), shape: [2], dt: await dataType("numpy.datetime64", { unit: "s", scale_factor: 10 }) },
      { name: "m8", data: new BigInt64Array([5n]), shape: [], dt: await dataType("numpy.timedelta64", { unit: "generic", scale_factor: 1 }) },
      { name: "f2", data: new Float32Array([1.5, -0, 65504]), shape: [3], dt: await dataType("float16") },
      { name: "empty", data: new Float64Array(0), shape: [0, 4], dt: await dataType("float64") },
    ];
    const files = inputs.map((x) => [x.name, b64(encodeNpy({ data: x.data, shape: x.shape, dataType: x.dt }))]);
    const loaded = JSON.parse(
      python(
        `
import base64, io, json, sys
import numpy as np
out = {}
for name, data in json.load(sys.stdin):
    raw = base64.b64decode(data)
    magic_ok = raw[:6] == b"\\x93NUMPY" and (10 + int.from_bytes(raw[8:10], "little")) % 64 == 0
    a = np.load(io.BytesIO(raw))
    out[name] = {"dtype": a.dtype.str, "shape": list(a.shape), "hex": a.tobytes().hex(), "aligned": magic_ok}
json.dump(out, sys.stdout)
`,
        [],
        JSON.stringify(files),
      ),
    );
    const hex = (bytes: number[]) => Buffer.from(bytes).toString("hex");
    expect(loaded.i2).toEqual({ dtype: "<i2", shape: [2, 3], hex: Buffer.from(new Int16Array([1, -2, 3, -32768, 32767, 0]).buffer).toString("hex"), aligned: true });
    expect(loaded.u8.dtype).toBe("<u8");
    expect(loaded.u8.hex).toBe(`${"00".repeat(8)}${"ff".repeat(8)}`);
    expect(loaded.b1).toMatchObject({ dtype: "|b1", hex: "01000101" });
    expect(loaded.c8.dtype).toBe("<c8");
    expect(loaded.r24).toMatchObject({ dtype: "|V3", hex: "010203000000" });
    expect(loaded.U3).toMatchObject({ dtype: "<U3", shape: [3] });
    expect(loaded.string).toMatchObject({ dtype: "<U4", shape: [3] });
    expect(loaded.bytes).toMatchObject({ dtype: "|S3", hex: hex([1, 0, 0, 0, 0, 0, 9, 8, 7]) });
    expect(loaded.M8).toMatchObject({ dtype: "<M8[10s]", hex: `${"00".repeat(8)}${"00".repeat(7)}80` });
    expect(loaded.m8).toMatchObject({ dtype: "<m8", shape: [], hex: `05${"00".repeat(7)}` });
    expect(loaded.f2).toMatchObject({ dtype: "<f2", hex: "003e0080ff7b" });
    expect(loaded.empty).toMatchObject({ dtype: "<f8", shape: [0, 4], hex: "" });
    for (const name of Object.keys(loaded)) expect(loaded[name].aligned, name).toBe(true);
  });

  it("round trips through decodeNpy bit for bit (property)", async () => {
    const types = await Promise.all(
      ["int8", "uint16", "int32", "uint64", "float16", "float32", "float64", "complex128"].map((n) => dataType(n)),
    );
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom(...types),
        fc.array(fc.integer({ min: 0, max: 4 }), { maxLength: 4 }),
        fc.uint8Array({ minLength: 0, maxLength: 4096 }),
        async (dt, shape, noise) => {
          const n = shape.reduce((a, b) => a * b, 1);
          const bytes = new Uint8Array(n * (dt.byteSize as number));
          for (let i = 0; i < bytes.length; i++) bytes[i] = noise.length === 0 ? i : noise[i % noise.length] ^ i;
          const data = dt.fromBytes!(bytes, n, true);
          const file = encodeNpy({ data, shape, dataType: dt });
          const back = await decodeNpy(file, "prop.npy", registry);
          expect(back.shape).toEqual(shape);
          expect(back.dataType.name).toBe(dt.name);
          expect(Buffer.from(dt.toBytes!(back.data, true)).equals(Buffer.from(dt.toBytes!(data, true)))).toBe(true);
        },
      ),
      { numRuns: 150 },
    );
  });

  it("switches to format 2.0 when the header outgrows 64 KiB", async () => {
    const dt = await dataType("int8");
    const shape = new Array(30000).fill(1);
    const file = encodeNpy({ data: new Int8Array([-5]), shape, dataType: dt });
    expect(file[6]).toBe(2);
    const header = 12 + new DataView(file.buffer).getUint32(8, true);
    expect(header % 64).toBe(0);
    const back = await decodeNpy(file, "big-header.npy", registry);
    expect(back.shape).toHaveLength(30000);
    expect([...(back.data as Int8Array)]).toEqual([-5]);
  });
});

/** A .npy file with the given header text (version 1.0) and body. */
function npyWith(header: string, body: Uint8Array = new Uint8Array(0), version = 1): Uint8Array {
  const text = new TextEncoder().encode(header);
  const prefix = version === 1 ? 10 : 12;
  const out = new Uint8Array(prefix + text.length + body.length);
  out.set([0x93, 0x4e, 0x55, 0x4d, 0x50, 0x59, version, 0]);
  const view = new DataView(out.buffer);
  if (version === 1) view.setUint16(8, text.length, true);
  else view.setUint32(8, text.length, true);
  out.set(text, prefix);
  out.set(body, prefix + text.length);
  return out;
}

async function failure(bytes: Uint8Array): Promise<ZarrError> {
  try {
    await decodeNpy(bytes, "bad.npy", registry);
  } catch (error) {
    expect(error).toBeInstanceOf(ZarrError);
    return error as ZarrError;
  }
  throw new Error("decodeNpy accepted a malformed file");
}

describe("malformed .npy files", () => {
  const ok = "{'descr': '<i2', 'fortran_order': False, 'shape': (2,), }\n";
  const cases: [string, Uint8Array, RegExp][] = [
    ["empty file", new Uint8Array(0), /magic/],
    ["wrong magic", new TextEncoder().encode("PK\x03\x04 not numpy at all"), /magic/],
    ["unknown version", (() => { const b = npyWith(ok, new Uint8Array(4)); b[6] = 9; return b; })(), /version 9\.0/],
    ["header longer than the file", npyWith(ok).subarray(0, 30), /header claims/],
    ["header is not a dict", npyWith("['descr', 1]\n"), /not a dict/],
    ["header syntax", npyWith("{'descr': '<i2', 'fortran_order': Fals, 'shape': (2,)}"), /not a Python dict literal/],
    ["missing key", npyWith("{'descr': '<i2', 'shape': (2,)}"), /exactly the keys/],
    ["extra key", npyWith("{'descr': '<i2', 'fortran_order': False, 'shape': (2,), 'x': 1}"), /exactly the keys/],
    ["negative dimension", npyWith("{'descr': '<i2', 'fortran_order': False, 'shape': (-2,)}"), /non-negative/],
    ["float dimension", npyWith("{'descr': '<i2', 'fortran_order': False, 'shape': (2.5,)}"), /not a Python dict literal/],
    ["fortran_order not bool", npyWith("{'descr': '<i2', 'fortran_order': 0, 'shape': (2,)}"), /fortran_order/],
    ["unknown dtype", npyWith("{'descr': '<q9', 'fortran_order': False, 'shape': (2,)}"), /unknown dtype/],
    ["data too short", npyWith(ok, new Uint8Array(3)), /needs 4 data bytes, but the file holds only 3/],
    ["gigantic shape", npyWith("{'descr': '<f8', 'fortran_order': False, 'shape': (100000000, 100000000, 100000000)}"), /too large|needs/],
    ["huge shape, tiny file", npyWith("{'descr': '<f8', 'fortran_order': False, 'shape': (1000000000,)}"), /needs 8000000000 data bytes/],
    ["version 2 header length beyond the file", (() => { const b = npyWith(ok, new Uint8Array(4), 2); new DataView(b.buffer).setUint32(8, 0x7fffffff, true); return b; })(), /header claims/],
  ];
  it.each(cases)("%s → INVALID_ARGUMENT naming the file", async (_name, bytes, pattern) => {
    const e = await failure(bytes);
    expect(e.code).toBe("INVALID_ARGUMENT");
    expect(e.message).toContain('"bad.npy"');
    expect(e.message).toMatch(pattern);
  });

  it("refuses dtypes without a Zarr equivalent with UNSUPPORTED", async () => {
    for (const [descr, pattern] of [
      ["|O", /object arrays/],
      ["<f16", /no Zarr v3 equivalent/],
      ["<c32", /no Zarr v3 equivalent/],
      ["|S0", /zero-size/],
      ["<M8[xs]", /not supported/],
    ] as const) {
      const e = await failure(npyWith(`{'descr': '${descr}', 'fortran_order': False, 'shape': (1,)}`, new Uint8Array(32)));
      expect(e.code, descr).toBe("UNSUPPORTED");
      expect(e.message, descr).toMatch(pattern);
    }
    const structured = await failure(npyWith("{'descr': [('a', '<i4'), ('b', '<f8')], 'fortran_order': False, 'shape': (1,)}", new Uint8Array(12)));
    expect(structured.code).toBe("UNSUPPORTED");
    expect(structured.message).toMatch(/structured/);
  });
});

describe("encodeNpyParts", () => {
  it("gives the header and, for little-endian numbers, the result's own memory as the body", async () => {
    const dt = await dataType("float32");
    const data = Float32Array.from({ length: 12 }, (_, i) => i / 4);
    const parts = encodeNpyParts({ data, shape: [3, 4], dataType: dt });
    expect(parts.body.buffer).toBe(data.buffer); // no copy of a large result
    expect(parts.body.byteLength).toBe(48);
    const whole = encodeNpy({ data, shape: [3, 4], dataType: dt });
    expect(Buffer.compare(Buffer.concat([parts.header, parts.body]), whole)).toBe(0);
    expect(parts.header.length % 64).toBe(0); // NumPy aligns the data to 64 bytes
  });
});
