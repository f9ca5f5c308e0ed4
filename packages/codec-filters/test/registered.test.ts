/**
 * The registered extension codecs: bitround (integers and floats), packbits, scale_offset,
 * cast_value (and cast-value) and reshape, against the examples of their specs, zarrs'
 * test vectors, and NumPy where it is a fair reference.
 */
import { type DataType, MetadataError, type NdArray, type TypedArray, ZarrError } from "@zarr/spec";
import { describe, expect, it } from "vitest";
import { bitround, castValue, castValueDraft, numcodecsBitround, packBits, reshape, scaleOffset } from "../src/index.js";
import { arrayCodec, b64, buildContext, bytesCodec, ctx, dataType, fromLE, list, nd, python, rng, sameValues, toLE, unb64 } from "./helpers.js";

async function roundTrip(codec: Awaited<ReturnType<typeof arrayCodec>>, dt: DataType, values: TypedArray, shape = [values.length]) {
  const spec = { shape, dataType: dt, fillValue: dt.getItem(dt.allocate(1), 0) };
  const enc = await codec.encode(nd(values, shape), spec, ctx);
  const dec = await codec.decode(enc, spec, ctx);
  return { enc: enc.data as TypedArray, dec: dec.data as TypedArray };
}

describe("bitround (registered)", () => {
  it("rounds the spec's sample data: float32 and uint8 with keepbits 3", async () => {
    const f4 = await dataType("float32");
    const codec = await arrayCodec(bitround, { keepbits: 3 }, f4, [9]);
    const input = new Float32Array([0, 0.1, 1.2, 12.3, 123.4, 1234.5, Number.NaN, Number.POSITIVE_INFINITY, Number.NEGATIVE_INFINITY]);
    const { enc, dec } = await roundTrip(codec, f4, input);
    expect(list(enc)).toEqual([0, 0.1015625, 1.25, 12, 120, 1280, Number.NaN, Number.POSITIVE_INFINITY, Number.NEGATIVE_INFINITY]);
    expect(dec).toBe(enc); // decoding is the identity
    const u1 = await dataType("uint8");
    const ucodec = await arrayCodec(bitround, { keepbits: 3 }, u1, [10]);
    const bytes = new Uint8Array([0, 1, 10, 11, 100, 123, 200, 208, 209, 255]);
    expect(list((await roundTrip(ucodec, u1, bytes)).enc)).toEqual([0, 1, 10, 12, 96, 128, 192, 192, 224, 224]);
    expect(list(bytes)).toEqual([0, 1, 10, 11, 100, 123, 200, 208, 209, 255]); // input untouched
  });

  it("matches zarrs' vectors for uint32, uint8 and float32", async () => {
    const u4 = await dataType("uint32");
    const c4 = await arrayCodec(bitround, { keepbits: 3 }, u4, [7]);
    const v4 = new Uint32Array([0, 1024, 1280, 1664, 1685, 123145182, 4294967295]);
    expect(list((await roundTrip(c4, u4, v4)).enc)).toEqual([0, 1024, 1280, 1536, 1792, 117440512, 3758096384]);
    const u1 = await dataType("uint8");
    const c1 = await arrayCodec(bitround, { keepbits: 3 }, u1, [9]);
    const v1 = new Uint8Array([0, 3, 7, 15, 17, 54, 89, 128, 255]);
    expect(list((await roundTrip(c1, u1, v1)).enc)).toEqual([0, 3, 7, 16, 16, 56, 96, 128, 224]);
    const f4 = await dataType("float32");
    const cf = await arrayCodec(bitround, { keepbits: 3 }, f4, [4]);
    const vf = new Float32Array([0, 1.23456789, -8.3587192834, 98765.4321]);
    expect(list((await roundTrip(cf, f4, vf)).enc)).toEqual([0, 1.25, -8, 98304]);
  });

  it("rounds 64-bit integers like 32-bit ones and complex components like floats", async () => {
    const u8 = await dataType("uint64");
    const c8 = await arrayCodec(bitround, { keepbits: 3 }, u8, [4]);
    const v = new BigUint64Array([1685n, 123145182n, 4294967295n, 2n ** 64n - 1n]);
    expect(list((await roundTrip(c8, u8, v)).enc)).toEqual([1792n, 117440512n, 4294967296n, 2n ** 64n - 2n ** 61n]); // no saturation at 32 bits
    const c64 = await dataType("complex64");
    const cc = await arrayCodec(bitround, { keepbits: 3 }, c64, [2]);
    const cv = new Float32Array([1.23456789, -8.3587192834, 98765.4321, 0.1]);
    expect(list((await roundTrip(cc, c64, cv, [2])).enc)).toEqual([1.25, -8, 98304, 0.1015625]);
  });

  it("rounds signed integers by magnitude and keeps the sign: -7 with keepbits 2 is -8, not -1073741824", async () => {
    const i4 = await dataType("int32");
    const codec = await arrayCodec(bitround, { keepbits: 2 }, i4, [8]);
    const v = new Int32Array([-7, 7, -1, 0, -(2 ** 31), 2 ** 31 - 1, -100, 100]);
    // 7 = 0b111 -> 0b1000 (ties go to even: 9 = 0b1001 keeping 3 bits is 8); 2^31 - 1 saturates below 2^31 and is cut to its two top bits; -2^31 has one set bit.
    expect(list((await roundTrip(codec, i4, v)).enc)).toEqual([-8, 8, -1, 0, -(2 ** 31), 2 ** 30 + 2 ** 29, -96, 96]);
    const i1 = await dataType("int8");
    const c1 = await arrayCodec(bitround, { keepbits: 3 }, i1, [6]);
    expect(list((await roundTrip(c1, i1, new Int8Array([-128, 127, -127, -17, 17, -9]))).enc)).toEqual([-128, 112, -112, -16, 16, -8]);
    const i8 = await dataType("int64");
    const c8 = await arrayCodec(bitround, { keepbits: 2 }, i8, [3]);
    expect(list((await roundTrip(c8, i8, new BigInt64Array([-7n, -(2n ** 63n), 2n ** 63n - 1n]))).enc)).toEqual([-8n, -(2n ** 63n), 2n ** 62n + 2n ** 61n]);
  });

  it("rounds every signed integer to the negated rounding of its magnitude, within half a quantum", async () => {
    const i2 = await dataType("int16");
    const u2 = await dataType("uint16");
    for (const keepbits of [1, 2, 5, 9]) {
      const signed = await arrayCodec(bitround, { keepbits }, i2, [65536]);
      const unsigned = await arrayCodec(bitround, { keepbits }, u2, [32769]);
      const all = new Int16Array(65536).map((_, i) => i - 32768);
      const magnitudes = new Uint16Array(32769).map((_, i) => i);
      const got = (await roundTrip(signed, i2, all)).enc as Int16Array;
      const roundedMagnitudes = (await roundTrip(unsigned, u2, magnitudes)).enc as Uint16Array;
      for (let i = 0; i < 65536; i++) {
        const x = i - 32768;
        const used = 32 - Math.clz32(Math.abs(x));
        const expected = x === -32768 ? x : Math.sign(x) * Math.min(roundedMagnitudes[Math.abs(x)], 32767 - (32767 % 2 ** Math.max(0, used - keepbits)));
        if (got[i] !== expected && !(got[i] === 0 && expected === 0)) throw new Error(`keepbits ${keepbits}: ${x} -> ${got[i]}, expected ${expected}`);
        if (Math.abs(got[i] - x) > 2 ** Math.max(0, used - keepbits)) throw new Error(`keepbits ${keepbits}: ${x} -> ${got[i]} is too far`);
      }
    }
  });

  it("numcodecs.bitround reads integer arrays but refuses to write them, as numcodecs 0.11 does", async () => {
    const i4 = await dataType("int32");
    const codec = await arrayCodec(numcodecsBitround, { keepbits: 2 }, i4, [2]);
    const spec = { shape: [2], dataType: i4, fillValue: 0 };
    const stored = nd(new Int32Array([-7, 5]), [2]);
    expect((await codec.decode(stored, spec, ctx)).data).toBe(stored.data); // identity: zarrs' integer data reads
    const refused = await Promise.resolve()
      .then(() => codec.encode(stored, spec, ctx))
      .catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(ZarrError);
    expect((refused as ZarrError).code).toBe("UNSUPPORTED");
    expect((refused as ZarrError).message).toContain("Only float arrays (16-64bit) can be bit-rounded");
    // The reference: numcodecs 0.11 raises on integer input with this message.
    const numcodecs = python<string>(
      `
try:
    numcodecs.BitRound(2).encode(np.array(data, dtype="<i4"))
    print(json.dumps("encoded"))
except Exception as e:
    print(json.dumps(str(e)))
`,
      [-7, 5],
    );
    expect(numcodecs).toBe("Only float arrays (16-64bit) can be bit-rounded");
  });

  it("keeps fill values consistent and rejects unsupported types", async () => {
    const f8 = await dataType("float64");
    const codec = await arrayCodec(bitround, { keepbits: 2 }, f8, [1], 1.23);
    expect(codec.encodedSpec({ shape: [1], dataType: f8, fillValue: 1.23 }).fillValue).toBe(1.25);
    await expect(arrayCodec(bitround, { keepbits: 3 }, await dataType("string"), [1])).rejects.toBeInstanceOf(MetadataError);
    await expect(arrayCodec(bitround, { keepbits: 0 }, f8, [1])).rejects.toBeInstanceOf(MetadataError);
  });
});

describe("packbits (registered, array→bytes)", () => {
  const PAD = ["none", "first_byte", "last_byte"] as const;

  /** The spec's layout written out in Python: components' bits, least significant first. */
  function reference(cases: { b64: string; n: number; comps: number; bits: number; compBytes: number; first: number; last: number; pad: string; signed: boolean }[]) {
    return python<{ packed: string; decoded: string }[]>(
      `
out = []
for c in data:
    raw = unb64(c["b64"])
    b = c["last"] - c["first"] + 1
    stream = []
    for k in range(c["n"] * c["comps"]):
        v = int.from_bytes(raw[k * c["compBytes"]:(k + 1) * c["compBytes"]], "little")
        if c["bits"] == 1:
            v = 1 if v else 0
        part = (v >> c["first"]) & ((1 << b) - 1)
        stream += [(part >> j) & 1 for j in range(b)]
    padding = (-len(stream)) % 8
    stream += [0] * padding
    packed = bytes(sum(stream[i + j] << j for j in range(8)) for i in range(0, len(stream), 8))
    if c["pad"] == "first_byte":
        packed = bytes([padding]) + packed
    elif c["pad"] == "last_byte":
        packed = packed + bytes([padding])
    # decoding: shift back, sign-extend signed integers
    dec = bytearray()
    for k in range(c["n"] * c["comps"]):
        part = sum(stream[k * b + j] << j for j in range(b))
        v = part << c["first"]
        if c["signed"] and (part >> (b - 1)) & 1:
            v |= ((1 << (c["bits"])) - 1) & ~((1 << (c["first"] + b)) - 1)
        dec += v.to_bytes(c["compBytes"], "little")
    out.append({"packed": b64(packed), "decoded": b64(bytes(dec))})
print(json.dumps(out))
`,
      cases,
    );
  }

  it("packs bool, integers, floats and complex bit ranges as the spec describes", async () => {
    const specs: { type: string; first?: number; last?: number; n: number }[] = [
      { type: "bool", n: 13 },
      { type: "bool", n: 16 },
      { type: "int8", first: 0, last: 2, n: 11 },
      { type: "int16", first: 3, last: 12, n: 9 },
      { type: "uint16", first: 2, last: 14, n: 10 },
      { type: "int32", first: 5, last: 29, n: 7 },
      { type: "uint32", n: 5 },
      { type: "int64", first: 1, last: 60, n: 6 },
      { type: "uint64", first: 0, last: 40, n: 5 },
      { type: "float32", first: 13, last: 31, n: 6 },
      { type: "float16", first: 0, last: 15, n: 5 },
      { type: "complex64", first: 16, last: 31, n: 4 },
      { type: "float64", n: 3 },
    ];
    const built: { codec: Awaited<ReturnType<typeof bytesCodec>>; dt: DataType; values: TypedArray; shape: number[]; pad: string }[] = [];
    const input = [];
    let seed = 1;
    for (const s of specs) {
      for (const pad of PAD) {
        const dt = await dataType(s.type);
        const config: Record<string, string | number> = { padding_encoding: pad };
        if (s.first !== undefined) config.first_bit = s.first;
        if (s.last !== undefined) config.last_bit = s.last;
        const codec = await bytesCodec(packBits, config, dt, [s.n]);
        const r = rng(seed++);
        const raw = new Uint8Array(s.n * (dt.byteSize as number));
        for (let i = 0; i < raw.length; i++) raw[i] = Math.floor(r() * 256);
        if (s.type === "bool") for (let i = 0; i < raw.length; i++) raw[i] = raw[i] & 1;
        if (s.type === "float16") raw.forEach((_, i) => { if (i % 2 === 1) raw[i] &= 0x7b; }); // no NaN/inf
        const values = fromLE(dt, raw);
        const bits = s.type === "bool" ? 1 : 8 * (dt.componentSize as number);
        const comps = dt.kind === "complex" ? 2 : 1;
        built.push({ codec, dt, values, shape: [s.n], pad });
        input.push({
          b64: b64(toLE(dt, values)),
          n: s.n,
          comps,
          bits,
          compBytes: s.type === "bool" ? 1 : dt.componentSize,
          first: s.first ?? 0,
          last: s.last ?? bits - 1,
          pad,
          signed: dt.kind === "int",
        });
      }
    }
    const expected = reference(input);
    for (const [i, b] of built.entries()) {
      const spec = { shape: b.shape, dataType: b.dt, fillValue: b.dt.getItem(b.dt.allocate(1), 0) };
      const packed = await b.codec.encode(nd(b.values, b.shape), spec, ctx);
      expect(b64(packed), `${b.dt.name} ${b.pad}`).toBe(expected[i].packed);
      expect(b.codec.computeEncodedSize?.(spec)).toBe(packed.length);
      const decoded = (await b.codec.decode(packed, spec, ctx)) as NdArray;
      expect(b64(toLE(b.dt, decoded.data)), `${b.dt.name} ${b.pad} decode`).toBe(expected[i].decoded);
    }
  });

  it("agrees with NumPy's little-endian packbits for bool data", async () => {
    const dt = await dataType("bool");
    const values = new Uint8Array([1, 0, 0, 1, 0, 0, 0, 0, 1, 1, 1]);
    const codec = await bytesCodec(packBits, { padding_encoding: "first_byte" }, dt, [11]);
    const packed = await codec.encode(nd(values, [11]), { shape: [11], dataType: dt, fillValue: false }, ctx);
    const theirs = python<string>("print(json.dumps(b64(np.packbits(np.array(data, dtype=bool), bitorder='little'))))", list(values));
    expect(list(packed)).toEqual([5, ...unb64(theirs)]);
  });

  it("rejects wrong lengths, wrong padding bytes and bad bit ranges", async () => {
    const dt = await dataType("int16");
    const codec = await bytesCodec(packBits, { padding_encoding: "last_byte", first_bit: 0, last_bit: 4 }, dt, [3]);
    const spec = { shape: [3], dataType: dt, fillValue: 0 };
    const packed = await codec.encode(nd(new Int16Array([1, -2, 3]), [3]), spec, ctx);
    expect(packed.length).toBe(3);
    expect(packed[2]).toBe(1);
    const decoded = await codec.decode(packed, spec, ctx);
    expect(list(decoded.data as Int16Array)).toEqual([1, -2, 3]);
    const badPad = packed.slice();
    badPad[2] = 2;
    await expect(Promise.resolve().then(() => codec.decode(badPad, spec, ctx))).rejects.toMatchObject({ code: "CODEC_FAILED" });
    await expect(Promise.resolve().then(() => codec.decode(packed.subarray(0, 2), spec, ctx))).rejects.toMatchObject({
      code: "CODEC_FAILED",
    });
    await expect(bytesCodec(packBits, { first_bit: 5, last_bit: 4 }, dt, [3])).rejects.toMatchObject({
      code: "METADATA_INVALID",
      jsonPath: "$.codecs[0].configuration.last_bit",
    });
    await expect(bytesCodec(packBits, { last_bit: 16 }, dt, [3])).rejects.toBeInstanceOf(MetadataError);
    await expect(bytesCodec(packBits, { padding_encoding: "start" }, dt, [3])).rejects.toBeInstanceOf(MetadataError);
    await expect(bytesCodec(packBits, {}, await dataType("string"), [3])).rejects.toBeInstanceOf(MetadataError);
    expect(codec.toJSON()).toEqual({ name: "packbits", configuration: { padding_encoding: "last_byte", first_bit: 0, last_bit: 4 } });
  });
});

describe("scale_offset", () => {
  it("computes (x - offset) * scale and back in float32 exactly as NumPy's float32 arithmetic", async () => {
    const f4 = await dataType("float32");
    const r = rng(3);
    const values = new Float32Array(200).map(() => (r() - 0.5) * 1e4);
    const codec = await arrayCodec(scaleOffset, { offset: 5, scale: 0.1 }, f4, [200]);
    const { enc, dec } = await roundTrip(codec, f4, values);
    const theirs = python<{ enc: string; dec: string }>(
      `
a = np.frombuffer(unb64(data), dtype="<f4")
enc = (a - np.float32(5)) * np.float32(0.1)
dec = enc / np.float32(0.1) + np.float32(5)
print(json.dumps({"enc": b64(enc.astype("<f4").tobytes()), "dec": b64(dec.astype("<f4").tobytes())}))
`,
      b64(toLE(f4, values)),
    );
    expect(sameValues(enc, fromLE(f4, unb64(theirs.enc)))).toBe(true);
    expect(sameValues(dec, fromLE(f4, unb64(theirs.dec)))).toBe(true);
  });

  it("wraps integers, divides truncating, and parses offset and scale like fill values", async () => {
    const i2 = await dataType("int16");
    const codec = await arrayCodec(scaleOffset, { offset: 100, scale: 3 }, i2, [4]);
    const { enc, dec } = await roundTrip(codec, i2, new Int16Array([100, 103, 32767, -32768]));
    expect(list(enc)).toEqual([0, 9, (((32767 - 100) * 3 + 32768) % 65536) - 32768, (((-32768 - 100) * 3 + 3 * 65536 + 32768) % 65536) - 32768]);
    expect(list(dec).slice(0, 2)).toEqual([100, 103]);
    const f8 = await dataType("float64");
    const hex = await arrayCodec(scaleOffset, { offset: "0x4000000000000000", scale: "Infinity" }, f8, [1]);
    const out = await roundTrip(hex, f8, new Float64Array([3]));
    expect(out.enc[0]).toBe(Number.POSITIVE_INFINITY);
    const spec = { shape: [2], dataType: i2, fillValue: 103 };
    expect(codec.encodedSpec(spec).fillValue).toBe(9);
    await expect(arrayCodec(scaleOffset, { offset: 1.5, scale: 2 }, i2, [1])).rejects.toBeInstanceOf(MetadataError);
    await expect(arrayCodec(scaleOffset, { offset: 1, scale: 0 }, i2, [1])).rejects.toMatchObject({
      jsonPath: "$.codecs[0].configuration.scale",
    });
    await expect(arrayCodec(scaleOffset, { offset: 1, scale: 2, astype: "int8" }, i2, [1])).rejects.toBeInstanceOf(MetadataError);
    expect(codec.toJSON()).toEqual({ name: "scale_offset", configuration: { offset: 100, scale: 3 } });
  });
});

describe("cast_value", () => {
  const cast = async (config: Record<string, unknown>, from: string, values: TypedArray) => {
    const dt = await dataType(from);
    const codec = await arrayCodec(castValue, config as never, dt, [values.length]);
    const spec = { shape: [values.length], dataType: dt, fillValue: dt.getItem(dt.allocate(1), 0) };
    return { codec, dt, spec, enc: async () => (await codec.encode(nd(values, [values.length]), spec, ctx)).data as TypedArray };
  };
  const halves = new Float64Array([2.5, -2.5, 1.4, 1.6, -1.6, 0.5, -0.5, 3.5]);

  it("rounds float → integer with each rounding mode", async () => {
    const expected: Record<string, number[]> = {
      "nearest-even": [2, -2, 1, 2, -2, 0, -0, 4],
      "towards-zero": [2, -2, 1, 1, -1, 0, 0, 3],
      "towards-positive": [3, -2, 2, 2, -1, 1, 0, 4],
      "towards-negative": [2, -3, 1, 1, -2, 0, -1, 3],
      "nearest-away": [3, -3, 1, 2, -2, 1, -1, 4],
    };
    for (const [rounding, want] of Object.entries(expected)) {
      const { enc } = await cast({ data_type: "int16", rounding }, "float64", halves);
      expect(list(await enc()), rounding).toEqual(want.map((v) => v + 0));
    }
    const { codec } = await cast({ data_type: "int16" }, "float64", halves);
    expect(codec.toJSON()).toEqual({ name: "cast_value", configuration: { data_type: "int16", rounding: "nearest-even" } });
  });

  it("handles out-of-range values with error, clamp and wrap, and NaN only through scalar_map", async () => {
    const values = new Float64Array([40000.3, -40000.7, 5]);
    await expect((await cast({ data_type: "int16" }, "float64", values)).enc()).rejects.toMatchObject({ code: "INVALID_ARGUMENT" });
    expect(list(await (await cast({ data_type: "int16", out_of_range: "clamp" }, "float64", values)).enc())).toEqual([32767, -32768, 5]);
    expect(list(await (await cast({ data_type: "int16", out_of_range: "wrap" }, "float64", values)).enc())).toEqual([
      40000 - 65536,
      -40001 + 65536,
      5,
    ]);
    const inf = new Float64Array([Number.POSITIVE_INFINITY, Number.NEGATIVE_INFINITY]);
    expect(list(await (await cast({ data_type: "uint8", out_of_range: "clamp" }, "float64", inf)).enc())).toEqual([255, 0]);
    await expect((await cast({ data_type: "uint8", out_of_range: "wrap" }, "float64", inf)).enc()).rejects.toBeInstanceOf(ZarrError);
    const nan = new Float64Array([1, Number.NaN]);
    await expect((await cast({ data_type: "uint8", out_of_range: "clamp" }, "float64", nan)).enc()).rejects.toMatchObject({
      code: "INVALID_ARGUMENT",
    });
    const mapped = await cast(
      { data_type: "uint8", scalar_map: { encode: [["NaN", 255]], decode: [[255, "NaN"]] } },
      "float64",
      nan,
    );
    const enc = await mapped.enc();
    expect(list(enc)).toEqual([1, 255]);
    const dec = await mapped.codec.decode(nd(enc, [2]), mapped.spec, ctx);
    expect(list(dec.data as Float64Array)).toEqual([1, Number.NaN]);
    const big = new Float64Array([1e300]);
    await expect((await cast({ data_type: "float32" }, "float64", big)).enc()).rejects.toBeInstanceOf(ZarrError);
    expect(list(await (await cast({ data_type: "float32", out_of_range: "clamp" }, "float64", big)).enc())).toEqual([
      3.4028234663852886e38,
    ]);
    expect(list(await (await cast({ data_type: "uint8", out_of_range: "wrap" }, "int32", new Int32Array([-1, 256, 300]))).enc())).toEqual([
      255, 0, 44,
    ]);
    const i64 = await cast({ data_type: "float32" }, "int64", new BigInt64Array([2n ** 60n + 2n ** 36n + 1n, -3n]));
    expect(list(await i64.enc())).toEqual([Math.fround(2 ** 60 + 2 ** 37), -3]);
    const u64 = await cast({ data_type: "uint64" }, "float64", new Float64Array([2 ** 63, 1.5]));
    expect(list(await u64.enc())).toEqual([2n ** 63n, 2n]);
  });

  it("decodes with the same rules, failing as CODEC_FAILED", async () => {
    const { codec, spec } = await cast({ data_type: "int32" }, "int8", new Int8Array(2));
    await expect(Promise.resolve().then(() => codec.decode(nd(new Int32Array([1, 300]), [2]), spec, ctx))).rejects.toMatchObject({
      code: "CODEC_FAILED",
      key: ctx.key,
    });
  });

  it("casts the fill value and rejects configurations it cannot honour", async () => {
    const f8 = await dataType("float64");
    await expect(arrayCodec(castValue, { data_type: "uint8" }, f8, [1], Number.NaN)).rejects.toBeInstanceOf(MetadataError);
    const ok = await arrayCodec(castValue, { data_type: "uint8", scalar_map: { encode: [["NaN", 0]] } }, f8, [1], Number.NaN);
    expect(ok.encodedSpec({ shape: [1], dataType: f8, fillValue: Number.NaN }).fillValue).toBe(0);
    await expect(arrayCodec(castValue, { data_type: "float32", out_of_range: "wrap" }, f8, [1])).rejects.toMatchObject({
      jsonPath: "$.codecs[0].configuration.out_of_range",
    });
    await expect(arrayCodec(castValue, { data_type: "int8", rounding: "up" }, f8, [1])).rejects.toBeInstanceOf(MetadataError);
    await expect(arrayCodec(castValue, { data_type: "string" }, f8, [1])).rejects.toBeInstanceOf(MetadataError);
    await expect(arrayCodec(castValue, { data_type: "int8", range: "clamp" }, f8, [1])).rejects.toBeInstanceOf(MetadataError);
    const draft = await arrayCodec(castValueDraft, { data_type: "int8", range: "clamp" }, f8, [1]);
    expect(draft.toJSON()).toEqual({ name: "cast-value", configuration: { data_type: "int8", rounding: "nearest-even", range: "clamp" } });
    const ctxBuilt = buildContext(f8, [1]);
    await expect(Promise.resolve(castValue.fromConfig({ data_type: { name: "int8", configuration: {} } }, ctxBuilt))).resolves.toBeDefined();
  });
});

describe("reshape", () => {
  it("computes output shapes from sizes, -1 and input dimension lists", async () => {
    const u1 = await dataType("uint8");
    const cases: [unknown, number[], number[]][] = [
      [[[0, 1], [2], 3], [100, 50, 64, 3], [5000, 64, 3]],
      [[-1], [4, 5, 6], [120]],
      [[2, -1, 3], [4, 5, 6], [2, 20, 3]],
      [[[0], [1, 2]], [4, 5, 6], [4, 30]],
      [[[], [0, 1, 2]], [4, 5, 6], [1, 120]],
    ];
    for (const [shape, input, output] of cases) {
      const codec = await arrayCodec(reshape, { shape } as never, u1, input);
      expect(codec.encodedSpec({ shape: input, dataType: u1, fillValue: 0 }).shape).toEqual(output);
      expect(codec.toJSON()).toEqual({ name: "reshape", configuration: { shape } });
    }
  });

  it("moves no data for C-contiguous chunks and restores the shape", async () => {
    const u1 = await dataType("uint16");
    const codec = await arrayCodec(reshape, { shape: [[0, 1], -1] }, u1, [2, 3, 4]);
    const data = new Uint16Array(24).map((_, i) => i);
    const spec = { shape: [2, 3, 4], dataType: u1, fillValue: 0 };
    const enc = await codec.encode(nd(data, [2, 3, 4]), spec, ctx);
    expect(enc.shape).toEqual([6, 4]);
    expect(enc.data).toBe(data);
    const dec = await codec.decode(enc, spec, ctx);
    expect(dec.shape).toEqual([2, 3, 4]);
    expect(dec.data).toBe(data);
    // a strided input is made C-contiguous first
    const strided = await codec.encode({ data, shape: [2, 3, 4], stride: [1, 8, 2] }, spec, ctx);
    expect(list(strided.data as Uint16Array).slice(0, 5)).toEqual([0, 2, 4, 6, 8]);
  });

  it("rejects shapes the spec forbids", async () => {
    const u1 = await dataType("uint8");
    const bad: [unknown, number[]][] = [
      [[[1], [0]], [4, 5]],
      [[[1, 0]], [4, 5]],
      [[7, -1], [4, 5]],
      [[-1, -1], [4, 5]],
      [[3, 7], [4, 5]],
      [[[0, 2], 5], [4, 5, 6]],
      [[[3]], [4, 5]],
      [[0], [4]],
      [[10, [0]], [4, 5]],
      ["4,5", [4, 5]],
    ];
    for (const [shape, input] of bad) {
      await expect(arrayCodec(reshape, { shape } as never, u1, input), JSON.stringify(shape)).rejects.toBeInstanceOf(MetadataError);
    }
  });
});
