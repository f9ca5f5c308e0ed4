/**
 * XXH64 (seed 0), the hash behind zstd's `Content_Checksum` (the frame stores its low
 * 32 bits). 64-bit lanes are kept as pairs of uint32 so no BigInt is needed: BigInt
 * arithmetic allocates per operation, which would make verifying a 4 MiB chunk slow.
 */

// The five 64-bit primes of XXH64, split into high and low 32-bit halves.
const P1_HI = 0x9e3779b1;
const P1_LO = 0x85ebca87;
const P2_HI = 0xc2b2ae3d;
const P2_LO = 0x27d4eb4f;
const P3_HI = 0x165667b1;
const P3_LO = 0x9e3779f9;
const P4_HI = 0x85ebca77;
const P4_LO = 0xc2b2ae63;
const P5_HI = 0x27d4eb2f;
const P5_LO = 0x165667c5;

// Results of the 64-bit helpers below (module-level scratch, so nothing is allocated per call).
let rHi = 0;
let rLo = 0;

/** (aHi:aLo) * (bHi:bLo) mod 2^64 into rHi:rLo. */
function mul64(aHi: number, aLo: number, bHi: number, bLo: number): void {
  const a0 = aLo & 0xffff;
  const a1 = aLo >>> 16;
  const b0 = bLo & 0xffff;
  const b1 = bLo >>> 16;
  const p00 = a0 * b0;
  const p01 = a0 * b1;
  const p10 = a1 * b0;
  const p11 = a1 * b1;
  const mid = (p00 >>> 16) + (p01 & 0xffff) + (p10 & 0xffff);
  rLo = ((mid << 16) | (p00 & 0xffff)) >>> 0;
  rHi = (p11 + (p01 >>> 16) + (p10 >>> 16) + (mid >>> 16) + Math.imul(aLo, bHi) + Math.imul(aHi, bLo)) >>> 0;
}

/** (aHi:aLo) + (bHi:bLo) mod 2^64 into rHi:rLo. */
function add64(aHi: number, aLo: number, bHi: number, bLo: number): void {
  const lo = aLo + bLo;
  rLo = lo >>> 0;
  rHi = (aHi + bHi + (lo > 0xffffffff ? 1 : 0)) >>> 0;
}

/** Rotates (hi:lo) left by n (0 < n < 64) into rHi:rLo. */
function rotl64(hi: number, lo: number, n: number): void {
  if (n >= 32) {
    const t = hi;
    hi = lo;
    lo = t;
    n -= 32;
  }
  if (n === 0) {
    rHi = hi >>> 0;
    rLo = lo >>> 0;
    return;
  }
  rHi = ((hi << n) | (lo >>> (32 - n))) >>> 0;
  rLo = ((lo << n) | (hi >>> (32 - n))) >>> 0;
}

/** XXH64 round: acc = rotl(acc + input * P2, 31) * P1, into rHi:rLo. */
function round(accHi: number, accLo: number, inHi: number, inLo: number): void {
  mul64(inHi, inLo, P2_HI, P2_LO);
  add64(accHi, accLo, rHi, rLo);
  rotl64(rHi, rLo, 31);
  mul64(rHi, rLo, P1_HI, P1_LO);
}

/** h = (h ^ round(0, v)) * P1 + P4, into rHi:rLo. */
function mergeRound(hHi: number, hLo: number, vHi: number, vLo: number): void {
  round(0, 0, vHi, vLo);
  mul64((hHi ^ rHi) >>> 0, (hLo ^ rLo) >>> 0, P1_HI, P1_LO);
  add64(rHi, rLo, P4_HI, P4_LO);
}

function readU32(b: Uint8Array, i: number): number {
  return (b[i] | (b[i + 1] << 8) | (b[i + 2] << 16) | (b[i + 3] << 24)) >>> 0;
}

/**
 * XXH64 of `data` with seed 0, returned as `[high32, low32]` (unsigned).
 *
 * @example
 * ```ts
 * xxh64(new Uint8Array(0)); // [0xef46db37, 0x51d8e999]
 * ```
 */
export function xxh64(data: Uint8Array): [number, number] {
  const len = data.length;
  let p = 0;
  let hHi: number;
  let hLo: number;
  if (len >= 32) {
    // v1 = P1 + P2, v2 = P2, v3 = 0, v4 = -P1 (all mod 2^64, seed 0).
    add64(P1_HI, P1_LO, P2_HI, P2_LO);
    let v1Hi = rHi;
    let v1Lo = rLo;
    let v2Hi = P2_HI;
    let v2Lo = P2_LO;
    let v3Hi = 0;
    let v3Lo = 0;
    add64(~P1_HI >>> 0, ~P1_LO >>> 0, 0, 1);
    let v4Hi = rHi;
    let v4Lo = rLo;
    const limit = len - 32;
    while (p <= limit) {
      round(v1Hi, v1Lo, readU32(data, p + 4), readU32(data, p));
      v1Hi = rHi;
      v1Lo = rLo;
      round(v2Hi, v2Lo, readU32(data, p + 12), readU32(data, p + 8));
      v2Hi = rHi;
      v2Lo = rLo;
      round(v3Hi, v3Lo, readU32(data, p + 20), readU32(data, p + 16));
      v3Hi = rHi;
      v3Lo = rLo;
      round(v4Hi, v4Lo, readU32(data, p + 28), readU32(data, p + 24));
      v4Hi = rHi;
      v4Lo = rLo;
      p += 32;
    }
    rotl64(v1Hi, v1Lo, 1);
    hHi = rHi;
    hLo = rLo;
    rotl64(v2Hi, v2Lo, 7);
    add64(hHi, hLo, rHi, rLo);
    hHi = rHi;
    hLo = rLo;
    rotl64(v3Hi, v3Lo, 12);
    add64(hHi, hLo, rHi, rLo);
    hHi = rHi;
    hLo = rLo;
    rotl64(v4Hi, v4Lo, 18);
    add64(hHi, hLo, rHi, rLo);
    mergeRound(rHi, rLo, v1Hi, v1Lo);
    mergeRound(rHi, rLo, v2Hi, v2Lo);
    mergeRound(rHi, rLo, v3Hi, v3Lo);
    mergeRound(rHi, rLo, v4Hi, v4Lo);
    hHi = rHi;
    hLo = rLo;
  } else {
    hHi = P5_HI;
    hLo = P5_LO;
  }
  // h += len (len < 2^53: split into the two halves).
  add64(hHi, hLo, Math.floor(len / 0x100000000) >>> 0, len >>> 0);
  hHi = rHi;
  hLo = rLo;
  while (p + 8 <= len) {
    round(0, 0, readU32(data, p + 4), readU32(data, p));
    rotl64((hHi ^ rHi) >>> 0, (hLo ^ rLo) >>> 0, 27);
    mul64(rHi, rLo, P1_HI, P1_LO);
    add64(rHi, rLo, P4_HI, P4_LO);
    hHi = rHi;
    hLo = rLo;
    p += 8;
  }
  if (p + 4 <= len) {
    mul64(0, readU32(data, p), P1_HI, P1_LO);
    rotl64((hHi ^ rHi) >>> 0, (hLo ^ rLo) >>> 0, 23);
    mul64(rHi, rLo, P2_HI, P2_LO);
    add64(rHi, rLo, P3_HI, P3_LO);
    hHi = rHi;
    hLo = rLo;
    p += 4;
  }
  while (p < len) {
    mul64(0, data[p], P5_HI, P5_LO);
    rotl64((hHi ^ rHi) >>> 0, (hLo ^ rLo) >>> 0, 11);
    mul64(rHi, rLo, P1_HI, P1_LO);
    hHi = rHi;
    hLo = rLo;
    p++;
  }
  // Avalanche.
  hLo = (hLo ^ (hHi >>> 1)) >>> 0; // h ^= h >> 33
  mul64(hHi, hLo, P2_HI, P2_LO);
  hHi = rHi;
  hLo = rLo;
  hLo = (hLo ^ ((hLo >>> 29) | (hHi << 3))) >>> 0; // h ^= h >> 29
  hHi = (hHi ^ (hHi >>> 29)) >>> 0;
  mul64(hHi, hLo, P3_HI, P3_LO);
  hHi = rHi;
  hLo = rLo;
  hLo = (hLo ^ hHi) >>> 0; // h ^= h >> 32
  return [hHi, hLo];
}

/** The value zstd stores as `Content_Checksum`: the low 32 bits of XXH64 (seed 0). */
export function zstdChecksum(data: Uint8Array): number {
  return xxh64(data)[1];
}
