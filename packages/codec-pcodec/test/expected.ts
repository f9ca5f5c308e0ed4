/**
 * The values pcodec's compatibility files must decode to, as pcodec's own tests define
 * them (test-data/pcodec/README.md), each generated here from its recipe.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { fixturesDir } from "../../../scripts/test-env.mjs";
import { floatToHalfBits } from "../src/half.js";
import type { PcoNumberType } from "../src/number-types.js";

/** The folder of the pcodec files. */
export const PCODEC_FIXTURES = join(fixturesDir(), "pcodec");

/** The bytes of one compatibility file. */
export function fixture(name: string): Uint8Array {
  return new Uint8Array(readFileSync(join(PCODEC_FIXTURES, name)));
}

const fr = Math.fround;

function range(from: number, to: number): number[] {
  return Array.from({ length: to - from }, (_, i) => from + i);
}

/** pcodec's f16 generator, as f32 values (before narrowing to f16). */
function f16GeneratorAsF32(): number[] {
  let num = fr(0.1);
  const out: number[] = [];
  for (let i = 0; i < 2000; i++) {
    num = fr(fr(fr(num * fr(77.7)) + fr(0.1)) % 2);
    out.push(num < 1 ? fr(-1 - num) : num);
  }
  return out;
}

function halfBitsToF32(h: number): number {
  const exp = (h >> 10) & 0x1f;
  const frac = h & 0x3ff;
  const sign = h & 0x8000 ? -1 : 1;
  return sign * (exp === 0 ? frac * 2 ** -24 : (1 + frac / 1024) * 2 ** (exp - 15));
}

function f32Bits(values: number[]): Uint32Array {
  return new Uint32Array(Float32Array.from(values).buffer);
}

/** Expected type and element bit patterns (or values) for each file. */
export const EXPECTED: Record<string, { type: PcoNumberType | undefined; values: ArrayLike<number | bigint> }> = {
  "v0_0_0_classic.pco": { type: "i32", values: [...range(0, 1000), ...range(2000, 3000)] },
  "v0_0_0_delta_float_mult.pco": {
    type: "f32",
    values: f32Bits(range(0, 2000).map((i) => (i === 1337 ? fr(fr(1337) + fr(1.001)) : i))),
  },
  "v0_1_0_delta_int_mult.pco": { type: "i32", values: range(0, 2000).map((i) => (i === 1337 ? 1336999 : i * 1000)) },
  "v0_1_1_standalone_versioned.pco": { type: undefined, values: [] },
  "v0_3_0_f16.pco": { type: "f16", values: f16GeneratorAsF32().map(floatToHalfBits) },
  "v0_3_0_float_quant.pco": {
    type: "f32",
    values: f32Bits(f16GeneratorAsF32().map((x) => halfBitsToF32(floatToHalfBits(x)))).map((bits, i, all) => {
      const v = new Float32Array(all.buffer)[i];
      return Math.abs(v) < 1.1 ? bits + 1 : bits;
    }),
  },
  "v0_4_0_lookback_delta.pco": {
    type: "u32",
    values: Array.from({ length: 100 }, () => [1121827092, 729032807, 3968137854, 2875434067, 3775328080, 431649926, 1048116090, 1906978350, 14752788, 1180462487]).flat(),
  },
  "v0_4_5_uniform_type.pco": { type: "u32", values: [1, 2, 3, 4, 5] },
  "v0_4_8_minor_version.pco": { type: "u32", values: [1, 2, 3, 4, 5] },
  "v1_0_0_dict.pco": { type: "u64", values: Array.from({ length: 1000 }, () => [8924659283n, 234897984367n, 9827358920n]).flat() },
  "v1_0_0_conv1.pco": {
    type: "i32",
    values: (() => {
      let xm1 = 0;
      let xm2 = 0;
      const out: number[] = [];
      for (let i = 0; i < 2000; i++) {
        const x = fr(fr(fr(xm1 * fr(1.99)) - xm2) + (((i * 47) % 77) - 38));
        out.push(Math.trunc(fr(x + 10000)));
        xm2 = xm1;
        xm1 = x;
      }
      return out;
    })(),
  },
  "v1_0_0_u8.pco": { type: "u8", values: [...range(0, 65), ...range(192, 256)] },
  "v1_0_0_i8.pco": { type: "i8", values: [...range(-128, -63), ...range(64, 128)] },
};

/** A decoded array as comparable element values: floats by their bit patterns. */
export function comparable(type: PcoNumberType | undefined, values: ArrayLike<number | bigint>): (number | bigint)[] {
  if (type === "f32") return Array.from(new Uint32Array((values as Float32Array).buffer, (values as Float32Array).byteOffset, values.length));
  if (type === "f64") return Array.from(new BigUint64Array((values as Float64Array).buffer, (values as Float64Array).byteOffset, values.length));
  return Array.from(values);
}
