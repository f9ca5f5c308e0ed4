import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { buildAnsDecoder } from "../src/ans.js";
import { ansEncode } from "../src/bins-encoder.js";
import { type PcoNumberType, pcoCompress, pcoDecompress } from "../src/index.js";
import { EXPECTED, fixture } from "./expected.js";

const ARRAYS: Record<PcoNumberType, (buffer: ArrayBuffer) => ArrayLike<number | bigint> & { buffer: ArrayBuffer }> = {
  u8: (b) => new Uint8Array(b),
  i8: (b) => new Int8Array(b),
  u16: (b) => new Uint16Array(b),
  i16: (b) => new Int16Array(b),
  f16: (b) => new Uint16Array(b),
  u32: (b) => new Uint32Array(b),
  i32: (b) => new Int32Array(b),
  f32: (b) => new Float32Array(b),
  u64: (b) => new BigUint64Array(b),
  i64: (b) => new BigInt64Array(b),
  f64: (b) => new Float64Array(b),
};
const WIDTH: Record<PcoNumberType, number> = { u8: 1, i8: 1, u16: 2, i16: 2, f16: 2, u32: 4, i32: 4, f32: 4, u64: 8, i64: 8, f64: 8 };

/** Compares element bit patterns (so NaN payloads and -0 count). */
function sameBits(a: { buffer: ArrayBufferLike; byteOffset: number; byteLength: number }, b: Uint8Array): boolean {
  return Buffer.compare(Buffer.from(a.buffer, a.byteOffset, a.byteLength), Buffer.from(b)) === 0;
}

describe("pcoCompress (classic mode, tANS-coded bins)", () => {
  for (const type of Object.keys(ARRAYS) as PcoNumberType[]) {
    it(`round-trips random ${type} bit patterns (NaN payloads, -0, extremes), in pages of any size`, () => {
      fc.assert(
        fc.property(fc.uint8Array({ maxLength: 64 * WIDTH[type] }), fc.integer({ min: 1, max: 40 }), (raw, pages) => {
          const bytes = raw.slice(0, raw.length - (raw.length % WIDTH[type]));
          const values = ARRAYS[type](bytes.slice().buffer);
          const packed = pcoCompress(values as never, type, { equalPagesUpTo: pages });
          const decoded = pcoDecompress(packed);
          expect(decoded.numberType).toBe(type);
          expect(decoded.values.length).toBe(values.length);
          expect(sameBits(decoded.values, bytes)).toBe(true);
        }),
        { numRuns: 50, seed: 7 },
      );
    });
  }

  it("re-encodes every compatibility file's numbers to a stream that decodes to the same numbers", () => {
    for (const name of Object.keys(EXPECTED)) {
      const original = pcoDecompress(fixture(name));
      if (original.numberType === undefined) continue;
      const again = pcoDecompress(pcoCompress(original.values, original.numberType));
      expect(again.numberType).toBe(original.numberType);
      const o = original.values;
      expect(sameBits(again.values, new Uint8Array(o.buffer, o.byteOffset, o.byteLength)), name).toBe(true);
    }
  });

  it("writes the standalone layout: magic, version 3, uniform type, size hint, format 4.0, chunks, a zero byte", () => {
    const packed = pcoCompress(Uint32Array.of(7, 7, 7), "u32");
    expect(Array.from(packed.subarray(0, 6))).toEqual([0x70, 0x63, 0x6f, 0x21, 3, 1]);
    expect(packed[packed.length - 1]).toBe(0);
    expect(pcoDecompress(packed)).toMatchObject({ numberType: "u32", standaloneVersion: 3, formatVersion: { major: 4, minor: 0 } });
    // Constant numbers are one bin without offset bits: one chunk of a few bytes, whatever the count.
    expect(pcoCompress(new Uint32Array(100000).fill(7), "u32").length).toBeLessThan(40);
  });

  it("carries from the low to the high half of 64-bit latents", () => {
    // The bin's lower bound is 2^32 − 1: each offset crosses into the high 32 bits.
    const values = BigUint64Array.of(2n ** 32n - 1n, 2n ** 32n, 2n ** 33n + 5n, 2n ** 64n - 1n);
    expect(Array.from(pcoDecompress(pcoCompress(values, "u64")).values as BigUint64Array)).toEqual(Array.from(values));
    const signed = BigInt64Array.of(-1n, 0n, -(2n ** 63n), 2n ** 63n - 1n);
    expect(Array.from(pcoDecompress(pcoCompress(signed, "i64")).values as BigInt64Array)).toEqual(Array.from(signed));
  });

  it("encodes no numbers as a stream with no chunks that still names its type", () => {
    const decoded = pcoDecompress(pcoCompress(new Float64Array(0), "f64"));
    expect(decoded.numberType).toBe("f64");
    expect(decoded.values).toBeInstanceOf(Float64Array);
    expect(decoded.values).toHaveLength(0);
  });

  it("codes numbers in about as many bits as their entropy", () => {
    // 16 equally likely values: 4 bits each, plus the bins' metadata.
    const uniform = Int32Array.from({ length: 4096 }, (_, i) => 1000 + (i % 16));
    expect(pcoCompress(uniform, "i32").length).toBeLessThan(4096 / 2 + 200);
    // Mostly zeros with rare values up to 1000: far below the 10 bits each of bit packing.
    const skewed = Int32Array.from({ length: 4096 }, (_, i) => (i % 10 === 0 ? (i * 7919) % 1000 : 0));
    expect(pcoCompress(skewed, "i32").length).toBeLessThan((4096 * 10) / 8 / 3);
  });

  it("spreads bins over tANS states that decode back to each lane's next state", () => {
    const symbols = Uint16Array.from({ length: 1000 }, (_, i) => (i * i) % 3);
    const weights = [3, 3, 2];
    const code = ansEncode(symbols, weights, 3);
    const decoder = buildAnsDecoder(3, Uint32Array.from(weights));
    const states = [...code.initialStates];
    for (let i = 0; i < symbols.length; i++) {
      const s = states[i % 4];
      expect(decoder.symbol[s]).toBe(symbols[i]);
      expect(decoder.bitsToRead[s]).toBe(code.bits[i]);
      states[i % 4] = decoder.nextBase[s] + code.values[i];
    }
  });
});
