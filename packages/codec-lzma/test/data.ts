/** Test inputs: deterministic pseudo-random generators so failures reproduce. */

import { mulberry32 as prng } from "../../../scripts/test-random.mjs";

/** Uniformly random bytes (incompressible). */
export function randomBytes(n: number, seed = 1): Uint8Array {
  const r = prng(seed);
  const out = new Uint8Array(n);
  for (let i = 0; i < n; i++) out[i] = (r() * 256) | 0;
  return out;
}

/** A float32 array like a climate field: smooth signal plus a random walk, as bytes. */
export function float32Field(count: number, seed = 2): Uint8Array {
  const r = prng(seed);
  const f = new Float32Array(count);
  let walk = 0;
  for (let i = 0; i < count; i++) {
    walk += (r() - 0.5) * 0.01;
    f[i] = 280 + 10 * Math.sin((i / 1440) * 2 * Math.PI) + walk;
  }
  return new Uint8Array(f.buffer);
}

/** Text-like bytes: words from a small vocabulary (compressible, with many matches). */
export function textBytes(n: number, seed = 3): Uint8Array {
  const r = prng(seed);
  const words = [
    "zarr", "chunk", "array", "codec", "lzma", "the", "of", "and", "compression", "dictionary",
    "range", "coder", "match", "literal", "stream", "block", "index", "footer", "header", "check",
  ];
  const out = new Uint8Array(n);
  let p = 0;
  while (p < n) {
    const w = words[(r() * words.length) | 0];
    for (let i = 0; i < w.length && p < n; i++) out[p++] = w.charCodeAt(i);
    if (p < n) out[p++] = r() < 0.1 ? 10 : 32;
  }
  return out;
}

/** Equality of byte arrays as a boolean (fast for large arrays). */
export function sameBytes(a: Uint8Array, b: Uint8Array): boolean {
  return Buffer.compare(Buffer.from(a.buffer, a.byteOffset, a.byteLength), Buffer.from(b.buffer, b.byteOffset, b.byteLength)) === 0;
}

/** Deterministic pseudo-random numbers in [0, 1) (mulberry32, shared by the tests). */
export { prng };
