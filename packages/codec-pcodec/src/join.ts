/**
 * The last decoding step: a mode joins the primary (and secondary) latents into one
 * order-preserving latent per number, which then maps to the number's bit pattern.
 */
import { floatFromLatent, type LatentArray, type Mode } from "./chunk-meta.js";
import { corrupt } from "./errors.js";
import { floatToHalfBits } from "./half.js";
import type { NumberTypeInfo } from "./number-types.js";

/** Whether typed arrays are little-endian here (they are on every platform Node runs on). */
const HOST_IS_LITTLE_ENDIAN = new Uint8Array(Uint16Array.of(1).buffer)[0] === 1;

/** Bit patterns of decoded numbers, one array element per number. */
export type BitsArray = Uint8Array | Uint16Array | Uint32Array | BigUint64Array;

/** Joins latents per `mode` into each number's ordered latent (in place when it can). */
export function joinLatents(mode: Mode, primary: LatentArray, secondary: LatentArray | undefined, type: NumberTypeInfo): LatentArray {
  const n = primary.length;
  switch (mode.kind) {
    case "classic":
      return primary;
    case "dict": {
      const dict = mode.dict;
      const idx = primary as Uint32Array;
      const out = type.bits === 64 ? new BigUint64Array(n) : new Uint32Array(n);
      for (let i = 0; i < n; i++) {
        const j = idx[i];
        if (j >= dict.length) corrupt(`dictionary index ${j} is past the ${dict.length}-entry dictionary`);
        out[i] = dict[j] as never;
      }
      return out;
    }
    case "int_mult":
      return joinIntMult(mode.base, primary, secondary as LatentArray, type.bits);
    case "float_quant":
      return joinFloatQuant(mode.k, primary, secondary as LatentArray, type.bits);
    case "float_mult":
      return joinFloatMult(mode.baseLatent, primary, secondary as LatentArray, type);
  }
}

function joinIntMult(base: number | bigint, primary: LatentArray, secondary: LatentArray, bits: number): LatentArray {
  const n = primary.length;
  if (bits === 64) {
    const p = primary as BigUint64Array;
    const s = secondary as BigUint64Array;
    const b = BigInt(base);
    for (let i = 0; i < n; i++) p[i] = p[i] * b + s[i];
    return p;
  }
  const p = primary as Uint32Array;
  const s = secondary as Uint32Array;
  const b = Number(base);
  if (bits === 32) {
    for (let i = 0; i < n; i++) p[i] = Math.imul(p[i], b) + s[i];
  } else {
    const mask = 2 ** bits - 1;
    for (let i = 0; i < n; i++) p[i] = (p[i] * b + s[i]) & mask;
  }
  return p;
}

function joinFloatQuant(k: number, primary: LatentArray, secondary: LatentArray, bits: number): LatentArray {
  const n = primary.length;
  if (bits === 64) {
    const p = primary as BigUint64Array;
    const s = secondary as BigUint64Array;
    const bk = BigInt(k);
    const cutoff = (1n << 63n) >> bk;
    const lowMax = (1n << bk) - 1n;
    for (let i = 0; i < n; i++) {
      const y = p[i];
      p[i] = (y << bk) + (y >= cutoff ? s[i] : lowMax - s[i]);
    }
    return p;
  }
  const p = primary as Uint32Array;
  const s = secondary as Uint32Array;
  const mask = bits === 32 ? 0xffffffff : 2 ** bits - 1;
  const cutoff = 2 ** (bits - 1 - k);
  const lowMax = 2 ** k - 1;
  for (let i = 0; i < n; i++) {
    const y = p[i];
    p[i] = ((y << k) + (y >= cutoff ? s[i] : lowMax - s[i])) & mask;
  }
  return p;
}

/** The float bits of `int_float_from_latent`: integers exactly, then one ULP per step. */
function intFloatBits32(l: number): number {
  const neg = l < 0x80000000;
  const absInt = neg ? 0x7fffffff - l : l - 0x80000000;
  const absBits = absInt < 2 ** 24 ? f32Bits(absInt) : (((127 + 24) << 23) + (absInt - 2 ** 24)) >>> 0;
  return neg ? (absBits ^ 0x80000000) >>> 0 : absBits;
}

const f32 = new Float32Array(1);
const u32 = new Uint32Array(f32.buffer);
const f64 = new Float64Array(1);
const u64 = new BigUint64Array(f64.buffer);

function f32Bits(x: number): number {
  f32[0] = x;
  return u32[0];
}
function f32FromBits(b: number): number {
  u32[0] = b;
  return f32[0];
}
function f64Bits(x: number): bigint {
  f64[0] = x;
  return u64[0];
}
function f64FromBits(b: bigint): number {
  u64[0] = b;
  return f64[0];
}

/** Order-preserving latent of a float's bit pattern. */
function orderedFromBits32(b: number): number {
  return b >= 0x80000000 ? ~b >>> 0 : (b ^ 0x80000000) >>> 0;
}

function joinFloatMult(baseLatent: number | bigint, primary: LatentArray, secondary: LatentArray, type: NumberTypeInfo): LatentArray {
  const base = floatFromLatent(baseLatent, type);
  const n = primary.length;
  if (type.bits === 64) {
    const p = primary as BigUint64Array;
    const s = secondary as BigUint64Array;
    const mid = 1n << 63n;
    const gpiBits = f64Bits(2 ** 53);
    for (let i = 0; i < n; i++) {
      const l = p[i];
      const neg = l < mid;
      const absInt = neg ? mid - 1n - l : l - mid;
      let absBits = absInt < 2n ** 53n ? f64Bits(Number(absInt)) : gpiBits + (absInt - 2n ** 53n);
      if (neg) absBits ^= mid;
      const productBits = f64Bits(f64FromBits(BigInt.asUintN(64, absBits)) * base);
      const ordered = productBits & mid ? BigInt.asUintN(64, ~productBits) : productBits ^ mid;
      p[i] = ordered + s[i] + mid;
    }
    return p;
  }
  const p = primary as Uint32Array;
  const s = secondary as Uint32Array;
  if (type.bits === 32) {
    for (let i = 0; i < n; i++) {
      // Both factors have 24-bit mantissas: the double product is exact, fround rounds once.
      const product = Math.fround(f32FromBits(intFloatBits32(p[i])) * base);
      p[i] = orderedFromBits32(f32Bits(product)) + s[i] + 0x80000000;
    }
    return p;
  }
  // f16: latents of 16 bits.
  for (let i = 0; i < n; i++) {
    const l = p[i];
    const neg = l < 0x8000;
    const absInt = neg ? 0x7fff - l : l - 0x8000;
    let absBits = absInt < 2048 ? floatToHalfBits(absInt) : ((15 + 11) << 10) + (absInt - 2048);
    absBits &= 0xffff;
    const b = neg ? absBits ^ 0x8000 : absBits;
    const productBits = floatToHalfBits(halfValue(b) * base);
    const ordered = productBits & 0x8000 ? ~productBits & 0xffff : productBits ^ 0x8000;
    p[i] = (ordered + s[i] + 0x8000) & 0xffff;
  }
  return p;
}

function halfValue(h: number): number {
  return floatFromLatent(h & 0x8000 ? ~h & 0xffff : h ^ 0x8000, { name: "f16", byte: 9, bits: 16, kind: "float", precisionBits: 10 });
}

/** Maps each number's ordered latent to its bit pattern in an array of the type's width. */
export function latentsToBits(latents: LatentArray, type: NumberTypeInfo): BitsArray {
  const n = latents.length;
  if (type.bits === 64 && HOST_IS_LITTLE_ENDIAN) {
    // On the (low, high) 32-bit halves: no BigInt per number.
    const l = latents as BigUint64Array;
    const h = new Uint32Array(l.buffer, l.byteOffset, n * 2);
    if (type.kind === "int") {
      for (let i = 1; i < 2 * n; i += 2) h[i] ^= 0x80000000;
    } else if (type.kind === "float") {
      for (let i = 0; i < 2 * n; i += 2) {
        if (h[i + 1] & 0x80000000) h[i + 1] ^= 0x80000000;
        else {
          h[i] = ~h[i];
          h[i + 1] = ~h[i + 1];
        }
      }
    }
    return l;
  }
  if (type.bits === 64) {
    const l = latents as BigUint64Array;
    const sign = 1n << 63n;
    if (type.kind === "uint") return l;
    if (type.kind === "int") {
      for (let i = 0; i < n; i++) l[i] ^= sign;
      return l;
    }
    for (let i = 0; i < n; i++) {
      const x = l[i];
      l[i] = x & sign ? x ^ sign : ~x;
    }
    return l;
  }
  const l = latents as Uint32Array;
  const out = type.bits === 32 ? l : type.bits === 16 ? new Uint16Array(n) : new Uint8Array(n);
  const sign = 2 ** (type.bits - 1);
  if (type.kind === "uint") {
    if (out !== l) out.set(l);
  } else if (type.kind === "int") {
    for (let i = 0; i < n; i++) out[i] = l[i] ^ sign;
  } else {
    for (let i = 0; i < n; i++) {
      const x = l[i];
      out[i] = x & sign ? x ^ sign : ~x;
    }
  }
  return out;
}
