/** Sample data for interop tests: random values plus the edge values of each type. */
import type { DataType, TypedArray } from "@zarr/spec";
import { roundToFloat16 } from "../src/float16.js";
import type { NumType } from "../src/numeric-type.js";
import { rng } from "./helpers.js";

/** `n` elements of numeric type `t`: extremes, zero, ±1 and random values (in memory). */
export function sampleValues(t: NumType, dt: DataType, n: number, seed: number, opts: { specials?: boolean; scale?: number } = {}): TypedArray {
  const r = rng(seed);
  const out = dt.allocate(n) as TypedArray;
  const slots = t.kind === "c" ? 2 * n : n;
  if (t.kind === "b") {
    for (let i = 0; i < n; i++) (out as Uint8Array)[i] = r() < 0.5 ? 1 : 0;
    return out;
  }
  if (t.kind === "f" || t.kind === "c") {
    const specials = [0, -0, 1, -1, 0.5, 2.5, Number.NaN, Number.POSITIVE_INFINITY, Number.NEGATIVE_INFINITY];
    const scale = opts.scale ?? 1000;
    for (let i = 0; i < slots; i++) {
      let v = (r() - 0.5) * scale;
      if (opts.specials && i < specials.length) v = specials[i];
      else if (opts.specials && r() < 0.05) v = specials[Math.floor(r() * specials.length)];
      (out as Float64Array)[i] = t.code === "f2" ? roundToFloat16(v) : v;
    }
    return out;
  }
  const bits = 8 * t.size;
  const lo = t.kind === "u" ? 0n : -(2n ** BigInt(bits - 1));
  const hi = t.kind === "u" ? 2n ** BigInt(bits) - 1n : 2n ** BigInt(bits - 1) - 1n;
  const span = hi - lo + 1n;
  const o = out as unknown as { [i: number]: number | bigint };
  for (let i = 0; i < n; i++) {
    let v: bigint;
    if (i === 0) v = lo;
    else if (i === 1) v = hi;
    else if (i === 2) v = 0n;
    else {
      // random bits over the whole range, sometimes small values
      const small = r() < 0.3;
      const raw = BigInt(Math.floor(r() * 2 ** 32)) * 2n ** 32n + BigInt(Math.floor(r() * 2 ** 32));
      v = small ? BigInt(Math.floor((r() - 0.5) * 200)) : lo + (raw % span);
      if (v < lo) v = lo;
      if (v > hi) v = hi;
    }
    o[i] = t.size === 8 ? v : Number(v);
  }
  return out;
}
