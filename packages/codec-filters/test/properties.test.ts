/** Property tests (fast-check): round trips over random data and garbage never escaping as bare errors. */
import { type BytesToBytesCodec, type DataType, type NdArray, shapeSize, type TypedArray, ZarrError } from "@zarr/spec";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  adler32Codec,
  asType,
  bitround,
  castValue,
  crc32Codec,
  delta,
  fixedScaleOffset,
  fletcher32Codec,
  jenkinsLookup3Codec,
  json2,
  msgpack2,
  numcodecsBitround,
  numcodecsPackBits,
  packBits,
  quantize,
  reshape,
  shuffle,
} from "../src/index.js";
import { type MsgpackValue, msgpackDecode, msgpackEncode } from "../src/msgpack.js";
import { type PyJsonValue, pyJsonDecode, pyJsonEncode } from "../src/python-json.js";
import { arrayCodec, b2bCodec, bytesCodec, ctx, dataType, list, nd, sameValues } from "./helpers.js";

const RUNS = { numRuns: 60 };

/** Random C-contiguous data of a numeric type, built from random bytes. */
function arrayOf(dt: DataType, n: number, bytes: Uint8Array): TypedArray {
  const out = dt.allocate(n) as TypedArray;
  new Uint8Array(out.buffer, out.byteOffset, out.byteLength).set(bytes.subarray(0, out.byteLength));
  return out;
}

const shapes = fc.array(fc.integer({ min: 1, max: 6 }), { minLength: 1, maxLength: 3 });
const withBytes = shapes.chain((shape) => fc.tuple(fc.constant(shape), fc.uint8Array({ minLength: shapeSize(shape) * 16, maxLength: shapeSize(shape) * 16 })));

async function roundTrip(codec: Awaited<ReturnType<typeof arrayCodec>>, dt: DataType, data: TypedArray, shape: number[]) {
  const spec = { shape, dataType: dt, fillValue: dt.getItem(dt.allocate(1), 0) };
  const enc = await codec.encode(nd(data, shape), spec, ctx);
  expect(enc.shape).toEqual(codec.encodedSpec(spec).shape);
  return (await codec.decode(enc, spec, ctx)).data as TypedArray;
}

describe("lossless array filters round-trip", () => {
  it("delta over integers (with and without a wider astype)", async () => {
    for (const [type, astype] of [
      ["int8", "<i1"],
      ["uint16", "<u2"],
      ["int32", "<i8"],
      ["int64", "<i8"],
      ["uint64", "<u8"],
    ]) {
      const dt = await dataType(type);
      await fc.assert(
        fc.asyncProperty(withBytes, async ([shape, bytes]) => {
          const data = arrayOf(dt, shapeSize(shape), bytes);
          const codec = await arrayCodec(delta, { dtype: type, astype }, dt, shape);
          expect(sameValues(await roundTrip(codec, dt, data, shape), data)).toBe(true);
        }),
        RUNS,
      );
    }
  });

  it("fixedscaleoffset with scale 1 over small integers, astype to wider types", async () => {
    for (const [type, astype] of [
      ["int8", "<i1"],
      ["uint16", "<u2"],
      ["int16", "<i4"],
      ["float32", "<f8"],
    ]) {
      const dt = await dataType(type);
      await fc.assert(
        fc.asyncProperty(withBytes, fc.integer({ min: -300, max: 300 }), async ([shape, bytes], offset) => {
          const data = arrayOf(dt, shapeSize(shape), bytes);
          if (type === "float32") for (let i = 0; i < data.length; i++) (data as Float32Array)[i] = Math.round((data as Float32Array)[i] % 1e6) || 0;
          const config = { offset, scale: 1, dtype: type, astype };
          const codec = await arrayCodec(type === "float32" ? asType : fixedScaleOffset, type === "float32" ? { encode_dtype: "<f8", decode_dtype: "<f4" } : config, dt, shape);
          expect(sameValues(await roundTrip(codec, dt, data, shape), data)).toBe(true);
        }),
        RUNS,
      );
    }
  });

  it("numcodecs.packbits and packbits over bools, packbits over integers within the kept bits", async () => {
    const b1 = await dataType("bool");
    await fc.assert(
      fc.asyncProperty(withBytes, fc.constantFrom("none", "first_byte", "last_byte"), async ([shape, bytes], padding) => {
        const data = (arrayOf(b1, shapeSize(shape), bytes) as Uint8Array).map((v) => v & 1);
        const numcodecs = await arrayCodec(numcodecsPackBits, {}, b1, shape);
        expect(list(await roundTrip(numcodecs, b1, data, shape))).toEqual(list(data));
        const reg = await bytesCodec(packBits, { padding_encoding: padding }, b1, shape);
        const spec = { shape, dataType: b1, fillValue: false };
        expect(list((await reg.decode(await reg.encode(nd(data, shape), spec, ctx), spec, ctx)).data as Uint8Array)).toEqual(list(data));
      }),
      RUNS,
    );
    const i32 = await dataType("int32");
    await fc.assert(
      fc.asyncProperty(
        fc.integer({ min: 0, max: 20 }),
        fc.integer({ min: 1, max: 11 }),
        fc.array(fc.integer({ min: -1024, max: 1023 }), { minLength: 1, maxLength: 40 }),
        async (first, width, raw) => {
          const values = new Int32Array(raw.map((v) => (v >> (11 - width)) * 2 ** first));
          const codec = await bytesCodec(packBits, { first_bit: first, last_bit: first + width - 1 }, i32, [values.length]);
          const spec = { shape: [values.length], dataType: i32, fillValue: 0 };
          const packed = await codec.encode(nd(values, [values.length]), spec, ctx);
          expect(packed.length).toBe(Math.ceil((values.length * width) / 8));
          expect(list((await codec.decode(packed, spec, ctx)).data as Int32Array)).toEqual(list(values));
        },
      ),
      RUNS,
    );
  });

  it("reshape with an inferred dimension", async () => {
    const dt = await dataType("uint8");
    await fc.assert(
      fc.asyncProperty(withBytes, fc.nat(), async ([shape, bytes], k) => {
        const data = arrayOf(dt, shapeSize(shape), bytes);
        const split = k % shape.length;
        const config = { shape: [[...Array(split + 1).keys()], -1] };
        if (split + 1 === shape.length) config.shape[1] = 1 as never;
        const codec = await arrayCodec(reshape, config as never, dt, shape);
        expect(list(await roundTrip(codec, dt, data, shape))).toEqual(list(data));
      }),
      RUNS,
    );
  });

  it("cast_value to a wider type and back", async () => {
    const f4 = await dataType("float32");
    await fc.assert(
      fc.asyncProperty(fc.array(fc.float({ noNaN: true }), { minLength: 1, maxLength: 50 }), async (raw) => {
        const data = new Float32Array(raw);
        const codec = await arrayCodec(castValue, { data_type: "float64" }, f4, [data.length]);
        expect(sameValues(await roundTrip(codec, f4, data, [data.length]), data)).toBe(true);
      }),
      RUNS,
    );
  });
});

describe("lossy filters are idempotent and bounded", () => {
  it("bitround keeps keepbits bits: rounding twice changes nothing, the error is within half a quantum", async () => {
    const f8 = await dataType("float64");
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.double({ noNaN: true, noDefaultInfinity: true, min: -1e300, max: 1e300 }), { minLength: 1, maxLength: 40 }),
        fc.integer({ min: 1, max: 52 }),
        async (raw, keepbits) => {
          const data = new Float64Array(raw);
          for (const entry of [bitround, numcodecsBitround]) {
            const codec = await arrayCodec(entry, { keepbits }, f8, [data.length]);
            const spec = { shape: [data.length], dataType: f8, fillValue: 0 };
            const once = (await codec.encode(nd(data, [data.length]), spec, ctx)).data as Float64Array;
            const twice = (await codec.encode(nd(once, [data.length]), spec, ctx)).data as Float64Array;
            expect(sameValues(once, twice)).toBe(true);
            for (let i = 0; i < data.length; i++) {
              // subnormals have fewer mantissa bits than keepbits promises
              if (!Number.isFinite(once[i]) || Math.abs(data[i]) < 2 ** -1022) continue;
              expect(Math.abs(once[i] - data[i])).toBeLessThanOrEqual(Math.abs(data[i]) * 2 ** -keepbits + Number.MIN_VALUE);
            }
          }
        },
      ),
      RUNS,
    );
  });

  it("quantize: re-quantizing changes nothing", async () => {
    const f8 = await dataType("float64");
    await fc.assert(
      fc.asyncProperty(fc.array(fc.double({ noNaN: true, min: -1e6, max: 1e6 }), { minLength: 1, maxLength: 40 }), fc.integer({ min: 0, max: 8 }), async (raw, digits) => {
        const data = new Float64Array(raw);
        const codec = await arrayCodec(quantize, { digits, dtype: "<f8" }, f8, [data.length]);
        const spec = { shape: [data.length], dataType: f8, fillValue: 0 };
        const once = (await codec.encode(nd(data, [data.length]), spec, ctx)).data as Float64Array;
        const twice = (await codec.encode(nd(once, [data.length]), spec, ctx)).data as Float64Array;
        expect(sameValues(once, twice)).toBe(true);
        for (let i = 0; i < data.length; i++) expect(Math.abs(once[i] - data[i])).toBeLessThanOrEqual(10 ** -digits);
      }),
      RUNS,
    );
  });
});

describe("bytes codecs round-trip and checksums catch corruption", () => {
  it("shuffle and every checksum round-trip; crc32 catches every single-bit flip", async () => {
    const codecs: BytesToBytesCodec[] = [
      await b2bCodec(adler32Codec),
      await b2bCodec(crc32Codec, { location: "end" }),
      await b2bCodec(fletcher32Codec),
      await b2bCodec(jenkinsLookup3Codec, { initval: 99 }),
    ];
    const crc = await b2bCodec(crc32Codec);
    await fc.assert(
      fc.asyncProperty(fc.uint8Array({ maxLength: 3000 }), fc.integer({ min: 1, max: 16 }), fc.nat(), async (bytes, size, flip) => {
        for (const codec of codecs) expect(Buffer.compare(await codec.decode(await codec.encode(bytes, ctx), ctx), bytes)).toBe(0);
        const sh = await b2bCodec(shuffle, { elementsize: size });
        const whole = bytes.subarray(0, bytes.length - (bytes.length % size));
        expect(Buffer.compare(await sh.decode(await sh.encode(whole, ctx), ctx), whole)).toBe(0);
        const enc = (await crc.encode(bytes, ctx)).slice();
        const bit = flip % (enc.length * 8);
        enc[bit >> 3] ^= 1 << (bit & 7);
        await expect(Promise.resolve().then(() => crc.decode(enc, ctx))).rejects.toMatchObject({ code: "CHECKSUM_MISMATCH" });
      }),
      RUNS,
    );
  });
});

describe("object codecs and their formats", () => {
  it("json2 and msgpack2 round-trip any strings", async () => {
    const dt = await dataType("string");
    // the codecs keep no per-shape state: one instance serves every chunk shape
    const codecs = [
      await bytesCodec(json2, {}, dt, [1]),
      await bytesCodec(json2, { ensure_ascii: false, indent: 1 }, dt, [1]),
      await bytesCodec(msgpack2, {}, dt, [1]),
      await bytesCodec(msgpack2, { use_bin_type: false }, dt, [1]),
    ];
    await fc.assert(
      fc.asyncProperty(fc.array(fc.string({ unit: "binary" }), { minLength: 1, maxLength: 30 }), async (values) => {
        const shape = [values.length];
        const spec = { shape, dataType: dt, fillValue: "" };
        for (const codec of codecs) {
          expect(((await codec.decode(await codec.encode(nd(values, shape), spec, ctx), spec, ctx)) as NdArray).data).toEqual(values);
        }
      }),
      RUNS,
    );
  });

  it("MessagePack and Python JSON round-trip JSON-like values", () => {
    fc.assert(
      fc.property(fc.jsonValue(), (value) => {
        const v = value as MsgpackValue;
        expect(msgpackDecode(msgpackEncode(v, { useBinType: true, useSingleFloat: false }), false)).toEqual(normalize(v));
        const text = pyJsonEncode(value as PyJsonValue, { ensureAscii: true, allowNan: true, sortKeys: false, indent: null, itemSeparator: ",", keySeparator: ":" });
        expect(pyJsonDecode(text, true)).toEqual(normalize(v));
        expect(JSON.parse(text)).toEqual(JSON.parse(JSON.stringify(value)));
      }),
      { numRuns: 200 },
    );
  });

  it("garbage input fails as a ZarrError, never a bare exception", async () => {
    const str = await dataType("string");
    const b1 = await dataType("bool");
    const i16 = await dataType("int16");
    const decoders = [
      await bytesCodec(json2, {}, str, [3]),
      await bytesCodec(msgpack2, {}, str, [3]),
      await bytesCodec(packBits, { padding_encoding: "first_byte" }, b1, [3]),
      await bytesCodec(packBits, { first_bit: 2, last_bit: 9 }, i16, [3]),
    ];
    const b2b = [await b2bCodec(crc32Codec), await b2bCodec(fletcher32Codec), await b2bCodec(shuffle, { elementsize: 4 })];
    await fc.assert(
      fc.asyncProperty(fc.uint8Array({ maxLength: 64 }), async (bytes) => {
        for (const codec of decoders) {
          const spec = { shape: [3], dataType: codec === decoders[0] || codec === decoders[1] ? str : codec === decoders[2] ? b1 : i16, fillValue: 0 };
          try {
            await codec.decode(bytes, spec, ctx);
          } catch (e) {
            expect(e).toBeInstanceOf(ZarrError);
          }
        }
        for (const codec of b2b) {
          try {
            await codec.decode(bytes, ctx);
          } catch (e) {
            expect(e).toBeInstanceOf(ZarrError);
          }
        }
      }),
      { numRuns: 300 },
    );
  });
});

/** How a JSON value reads back: -0 becomes 0 (JSON and MessagePack ints have no -0). */
function normalize(v: unknown): unknown {
  if (typeof v === "number") return Object.is(v, -0) ? 0 : v;
  if (Array.isArray(v)) return v.map(normalize);
  if (v !== null && typeof v === "object") {
    const out: Record<string, unknown> = {};
    for (const [k, x] of Object.entries(v)) Object.defineProperty(out, k, { value: normalize(x), enumerable: true, writable: true, configurable: true });
    return out;
  }
  return v;
}
