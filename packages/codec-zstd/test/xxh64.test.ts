/** XXH64 (32-bit arithmetic) against published vectors and a straightforward BigInt model. */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { xxh64, zstdChecksum } from "../src/xxh64.js";

const M = (1n << 64n) - 1n;
const P1 = 0x9e3779b185ebca87n;
const P2 = 0xc2b2ae3d27d4eb4fn;
const P3 = 0x165667b19e3779f9n;
const P4 = 0x85ebca77c2b2ae63n;
const P5 = 0x27d4eb2f165667c5n;
const rotl = (x: bigint, r: bigint) => ((x << r) | (x >> (64n - r))) & M;
const round = (acc: bigint, v: bigint) => (rotl((acc + v * P2) & M, 31n) * P1) & M;
const merge = (h: bigint, v: bigint) => ((((h ^ round(0n, v)) * P1) & M) + P4) & M;

/** XXH64 written directly from the specification, with BigInt. */
function referenceXxh64(b: Uint8Array): bigint {
  const view = new DataView(b.buffer, b.byteOffset, b.byteLength);
  const u64 = (i: number) => view.getBigUint64(i, true);
  let p = 0;
  let h: bigint;
  if (b.length >= 32) {
    let v1 = (P1 + P2) & M;
    let v2 = P2;
    let v3 = 0n;
    let v4 = (0n - P1) & M;
    while (p + 32 <= b.length) {
      v1 = round(v1, u64(p));
      v2 = round(v2, u64(p + 8));
      v3 = round(v3, u64(p + 16));
      v4 = round(v4, u64(p + 24));
      p += 32;
    }
    h = (rotl(v1, 1n) + rotl(v2, 7n) + rotl(v3, 12n) + rotl(v4, 18n)) & M;
    for (const v of [v1, v2, v3, v4]) h = merge(h, v) & M;
  } else {
    h = P5;
  }
  h = (h + BigInt(b.length)) & M;
  for (; p + 8 <= b.length; p += 8) h = (((rotl(h ^ round(0n, u64(p)), 27n) * P1) & M) + P4) & M;
  if (p + 4 <= b.length) {
    h = (((rotl(h ^ ((BigInt(view.getUint32(p, true)) * P1) & M), 23n) * P2) & M) + P3) & M;
    p += 4;
  }
  for (; p < b.length; p++) h = (rotl(h ^ ((BigInt(b[p]) * P5) & M), 11n) * P1) & M;
  h &= M;
  h ^= h >> 33n;
  h = (h * P2) & M;
  h ^= h >> 29n;
  h = (h * P3) & M;
  h ^= h >> 32n;
  return h;
}

const asBigInt = ([hi, lo]: [number, number]) => (BigInt(hi) << 32n) | BigInt(lo);

describe("xxh64", () => {
  it("matches published vectors", () => {
    expect(asBigInt(xxh64(new Uint8Array(0)))).toBe(0xef46db3751d8e999n);
    expect(asBigInt(xxh64(new TextEncoder().encode("abc")))).toBe(0x44bc2cf5ad770999n);
    expect(zstdChecksum(new Uint8Array(0))).toBe(0x51d8e999);
  });

  it("property: equals the BigInt model for every length class", () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 300 }), (bytes) => {
        expect(asBigInt(xxh64(bytes))).toBe(referenceXxh64(bytes));
      }),
      { numRuns: 300, seed: 64 },
    );
    const big = Uint8Array.from({ length: 100_003 }, (_, i) => (i * 2654435761) >>> 24);
    expect(asBigInt(xxh64(big))).toBe(referenceXxh64(big));
  });
});
