/**
 * The lossless encoder without Python: every committed reversible vector re-encodes to
 * exactly zfpy's bytes, random data of every type and shape round-trips bit for bit
 * (NaN payloads, signed zeros, subnormals, infinities), and the codec writes arrays whose
 * configuration selects the reversible mode and refuses lossy ones.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { createArray, createRegistry, get, MemoryStore, set } from "@zarr/core";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { FUZZ_RUNS } from "../../../scripts/codec-fuzz.mjs";
import { lossySetting, type ZfpValues, zfpCompressReversible, zfpDecompress, zfpy } from "../src/index.js";
import { bytesOf, firstDifference } from "./helpers.js";

const DIR = join(import.meta.dirname, "..", "test-data", "vectors");
const manifest: { name: string; dtype: string; shape: number[]; args: Record<string, number> }[] = JSON.parse(
  readFileSync(join(DIR, "manifest.json"), "utf8"),
);
const ARRAYS = { float32: Float32Array, float64: Float64Array, int32: Int32Array, int64: BigInt64Array } as const;
type Dtype = keyof typeof ARRAYS;

/** Values of `dtype` from raw little-endian bytes. */
function valuesOf(dtype: Dtype, bytes: Uint8Array): ZfpValues {
  return new ARRAYS[dtype](bytes.slice().buffer) as ZfpValues;
}

describe("zfpCompressReversible", () => {
  const reversible = manifest.filter((v) => Object.keys(v.args).length === 0);

  it.each(reversible.map((v) => [v.name, v] as const))("%s re-encodes to zfpy's bytes", (_, v) => {
    const stream = new Uint8Array(readFileSync(join(DIR, `${v.name}.zfp`)));
    // Lossless: what zfpy decoded is what was compressed.
    const values = valuesOf(v.dtype as Dtype, new Uint8Array(readFileSync(join(DIR, `${v.name}.bin`))));
    expect(firstDifference(zfpCompressReversible(values, v.shape), stream)).toBe(-1);
  });

  it("round-trips random bits of every type, 1 to 4 dimensions, partial blocks", () => {
    const shape = fc.integer({ min: 1, max: 4 }).chain((dims) => fc.array(fc.integer({ min: 1, max: dims === 1 ? 40 : 9 }), { minLength: dims, maxLength: dims }));
    fc.assert(
      fc.property(fc.constantFrom<Dtype>("float32", "float64", "int32", "int64"), shape, fc.integer(), (dtype, dims, seed) => {
        const count = dims.reduce((a, b) => a * b, 1);
        const bytes = new Uint8Array(count * ARRAYS[dtype].BYTES_PER_ELEMENT);
        let x = seed | 1;
        for (let i = 0; i < bytes.length; i++) {
          x ^= x << 13;
          x ^= x >>> 17;
          x ^= x << 5;
          // A mix of random bytes, zeros and smooth runs, so both float block forms occur.
          bytes[i] = i % 97 < 40 ? x & 0xff : i % 97 < 60 ? 0 : (i >> 3) & 0xff;
        }
        const values = valuesOf(dtype, bytes);
        const back = zfpDecompress(zfpCompressReversible(values, dims));
        expect(back.shape).toEqual(dims);
        expect(firstDifference(bytesOf(back.data), bytes)).toBe(-1);
      }),
      { numRuns: FUZZ_RUNS, seed: 0x5eed },
    );
  });

  it("keeps every special float", () => {
    const specials = Float32Array.of(Number.NaN, -0, 0, Number.POSITIVE_INFINITY, Number.NEGATIVE_INFINITY, 1e-45, -1e-40, 3.4e38);
    const bits = new Int32Array(specials.buffer);
    bits[0] = 0x7f81be69; // a signalling NaN with a payload
    const back = zfpDecompress(zfpCompressReversible(specials, [2, 4]));
    expect(Array.from(new Int32Array(back.data.buffer))).toEqual(Array.from(bits));
    const doubles = Float64Array.of(Number.NaN, -0, 5e-324, -Number.MAX_VALUE, 1, 2, 3, Number.POSITIVE_INFINITY, 0, 0);
    expect(bytesOf(zfpDecompress(zfpCompressReversible(doubles, [10])).data)).toEqual(bytesOf(doubles));
  });

  it("refuses what zfpy cannot hold", () => {
    expect(() => zfpCompressReversible(new Float32Array(4), [2, 3])).toThrow(/do not fill shape/);
    expect(() => zfpCompressReversible(new Float32Array(32), [2, 2, 2, 2, 2])).toThrow(/1 to 4 dimensions/);
    expect(() => zfpCompressReversible(new Uint16Array(4) as unknown as ZfpValues, [4])).toThrow(/Float32Array/);
    expect(() => zfpCompressReversible(new Float32Array(0), [0])).toThrow(/axis of 0 values/);
  });
});

describe("the codec's encode", () => {
  it("selects the lossless mode the way numcodecs does", () => {
    expect(lossySetting({})).toBeUndefined();
    expect(lossySetting({ mode: 4, tolerance: -1, rate: -1, precision: -1 })).toBeUndefined();
    expect(lossySetting({ mode: 2, rate: -1, tolerance: 0.5 })).toBeUndefined();
    expect(lossySetting({ id: "zfpy", mode: 4, compression_kwargs: { tolerance: -1 } })).toBeUndefined();
    expect(lossySetting({ mode: 5 })).toBeUndefined();
    expect(lossySetting({ mode: 4, tolerance: 0.01 })).toBe("tolerance 0.01");
    expect(lossySetting({ mode: 4, tolerance: 0 })).toBe("tolerance 0");
    expect(lossySetting({ mode: 2, rate: 8 })).toBe("rate 8");
    expect(lossySetting({ mode: 3, precision: 16, tolerance: -1 })).toBe("precision 16");
    expect(lossySetting({ mode: 4, compression_kwargs: { tolerance: 1e-3 } })).toBe("tolerance 0.001");
    expect(lossySetting({ mode: 1 })).toBe("mode 1");
  });

  it("writes and reads back an array in the lossless mode; lossy settings are UNSUPPORTED", async () => {
    const registry = createRegistry([zfpy]);
    const store = new MemoryStore();
    const codecs = [{ name: "numcodecs.zfpy", configuration: { mode: 4, tolerance: -1, rate: -1, precision: -1 } }];
    const array = await createArray(store, "t", { shape: [7, 9, 5], chunkShape: [4, 6, 5], dataType: "float64", codecs, registry });
    const values = Float64Array.from({ length: 7 * 9 * 5 }, (_, i) => Math.sin(i / 7) * 1e3 + (i % 3 === 0 ? Number.NaN : 0));
    await set(array, null, values);
    expect(bytesOf((await get(array)).data as Float64Array)).toEqual(bytesOf(values));
    // Edge chunks are stored whole (chunk shape [4, 6, 5]), as numcodecs stores them.
    expect(zfpDecompress((await store.get("t/c/1/1/0")) as Uint8Array).shape).toEqual([4, 6, 5]);

    const lossy = await createArray(store, "l", { shape: [4], chunkShape: [4], dataType: "float32", codecs: [{ name: "numcodecs.zfpy", configuration: { mode: 4, tolerance: 0.01 } }], registry });
    await expect(set(lossy, null, 1)).rejects.toMatchObject({ code: "UNSUPPORTED", message: expect.stringMatching(/"l\/c\/0".*lossy ZFP streams \(tolerance 0.01\) is not implemented/) });
  });
});
