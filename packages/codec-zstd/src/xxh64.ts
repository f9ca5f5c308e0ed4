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

// 16-bit halves of the low words of P1 and P2, for the high half of 32×32-bit products.
const P1_LO_L = P1_LO & 0xffff;
const P1_LO_H = P1_LO >>> 16;
const P2_LO_L = P2_LO & 0xffff;
const P2_LO_H = P2_LO >>> 16;

/** The four accumulator lanes after the stripe loop, as [v1Hi, v1Lo, v2Hi, v2Lo, ...]. */
const lanes = new Int32Array(8);

/**
 * The bulk of XXH64: every full 32-byte stripe of `data[0..limit]` through the four
 * lanes. The lanes are independent, so each runs as its own pass over the stripes: one
 * lane's state fits in registers, where four interleaved lanes spill. Returns the offset
 * after the last stripe; the lanes go to `lanes`.
 */
function stripes(data: Uint8Array, limit: number): number {
  const view = new DataView(data.buffer, data.byteOffset, data.byteLength);
  // Seed 0: v1 = P1 + P2, v2 = P2, v3 = 0, v4 = -P1 (mod 2^64).
  const v1Lo = (P1_LO + P2_LO) | 0;
  lane(view, 0, limit, (P1_HI + P2_HI + ((v1Lo >>> 0) < P2_LO ? 1 : 0)) | 0, v1Lo, 0);
  lane(view, 8, limit, P2_HI | 0, P2_LO | 0, 2);
  lane(view, 16, limit, 0, 0, 4);
  const v4Lo = -P1_LO | 0;
  lane(view, 24, limit, (~P1_HI + (v4Lo === 0 ? 1 : 0)) | 0, v4Lo, 6);
  return limit < 0 ? 0 : (Math.floor(limit / 32) + 1) * 32;
}

/**
 * One lane of the stripe loop: for the 8-byte word at `offset` of every stripe up to
 * `limit`, v = rotl(v + input * P2, 31) * P1, on int32 halves (a 64×64-bit product mod
 * 2^64 is the low word from Math.imul plus a high word built from 16-bit partial
 * products). The result goes to `lanes[at]` (high) and `lanes[at + 1]` (low).
 */
function lane(view: DataView, offset: number, limit: number, vHi: number, vLo: number, at: number): void {
  // int32 from the start, so the compiler keeps machine integers throughout.
  vHi |= 0;
  vLo |= 0;
  const end = (limit + offset) | 0;
  for (let p = offset | 0; p <= end; p += 32) {
    const inLo = view.getInt32(p, true);
    const inHi = view.getInt32(p + 4, true);
    // m = input * P2
    let x0 = inLo & 0xffff;
    let x1 = inLo >>> 16;
    let a = Math.imul(x1, P2_LO_L);
    let b = Math.imul(x0, P2_LO_H);
    let t = Math.imul(x0, P2_LO_L);
    const mHi =
      (Math.imul(x1, P2_LO_H) +
        (a >>> 16) +
        (b >>> 16) +
        (((t >>> 16) + (a & 0xffff) + (b & 0xffff)) >>> 16) +
        Math.imul(inHi, P2_LO) +
        Math.imul(inLo, P2_HI)) |
      0;
    const mLo = Math.imul(inLo, P2_LO);
    // v + m, then rotl 31
    const lo = (vLo + mLo) | 0;
    const hi = (vHi + mHi + ((lo >>> 0) < (mLo >>> 0) ? 1 : 0)) | 0;
    const qHi = (hi << 31) | (lo >>> 1);
    const qLo = (lo << 31) | (hi >>> 1);
    // * P1
    x0 = qLo & 0xffff;
    x1 = qLo >>> 16;
    a = Math.imul(x1, P1_LO_L);
    b = Math.imul(x0, P1_LO_H);
    t = Math.imul(x0, P1_LO_L);
    vHi =
      (Math.imul(x1, P1_LO_H) +
        (a >>> 16) +
        (b >>> 16) +
        (((t >>> 16) + (a & 0xffff) + (b & 0xffff)) >>> 16) +
        Math.imul(qHi, P1_LO) +
        Math.imul(qLo, P1_HI)) |
      0;
    vLo = Math.imul(qLo, P1_LO);
  }
  lanes[at] = vHi;
  lanes[at + 1] = vLo;
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
    p = stripes(data, len - 32);
    const v1Hi = lanes[0] >>> 0;
    const v1Lo = lanes[1] >>> 0;
    const v2Hi = lanes[2] >>> 0;
    const v2Lo = lanes[3] >>> 0;
    const v3Hi = lanes[4] >>> 0;
    const v3Lo = lanes[5] >>> 0;
    const v4Hi = lanes[6] >>> 0;
    const v4Lo = lanes[7] >>> 0;
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
