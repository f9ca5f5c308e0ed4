/**
 * Byte shuffle and bit shuffle against straightforward reference implementations of
 * their definitions (c-blosc's shuffle-generic.c and bitshuffle-generic.c), over every
 * path: word paths (aligned, element count divisible by 4) and byte loops.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { bitShuffle, bitShuffleApplies, bitUnshuffle } from "../src/bitshuffle.js";
import { byteShuffle, byteUnshuffle } from "../src/shuffle.js";
import { sameBytes } from "./helpers.js";

function referenceShuffle(src: Uint8Array, typesize: number): Uint8Array {
  const n = Math.floor(src.length / typesize);
  const out = src.slice();
  for (let i = 0; i < n; i++) for (let j = 0; j < typesize; j++) out[j * n + i] = src[i * typesize + j];
  return out;
}

function referenceBitShuffle(src: Uint8Array, typesize: number): Uint8Array {
  const n = Math.floor(src.length / typesize);
  const out = src.slice();
  if (n === 0 || n % 8 !== 0) return out;
  out.fill(0, 0, n * typesize);
  const rowBytes = n / 8;
  for (let e = 0; e < n; e++)
    for (let j = 0; j < typesize; j++)
      for (let k = 0; k < 8; k++) {
        const bit = (src[e * typesize + j] >> k) & 1;
        const row = 8 * j + k;
        out[row * rowBytes + (e >> 3)] |= bit << (e & 7);
      }
  return out;
}

const blocks = fc.record({
  typesize: fc.oneof(fc.constantFrom(1, 2, 4, 8), fc.integer({ min: 1, max: 40 })),
  elements: fc.oneof(fc.integer({ min: 0, max: 70 }), fc.integer({ min: 0, max: 40 }).map((k) => 8 * k)),
  tail: fc.integer({ min: 0, max: 3 }),
  offset: fc.integer({ min: 0, max: 7 }),
  seed: fc.integer(),
});

function makeBlock(typesize: number, elements: number, tail: number, seed: number): Uint8Array {
  const size = typesize * elements + (typesize > 1 ? Math.min(tail, typesize - 1) : 0);
  const out = new Uint8Array(size);
  let s = seed >>> 0;
  for (let i = 0; i < size; i++) {
    s = (Math.imul(s, 1103515245) + 12345) >>> 0;
    out[i] = s >>> 24;
  }
  return out;
}

describe("byte shuffle", () => {
  it("matches the definition and round trips, at any alignment", () => {
    fc.assert(
      fc.property(blocks, ({ typesize, elements, tail, offset, seed }) => {
        const block = makeBlock(typesize, elements, tail, seed);
        const src = new Uint8Array(block.length + 16);
        src.set(block, offset);
        const shuffled = new Uint8Array(block.length + 16).fill(0xaa);
        byteShuffle(src, offset, shuffled, offset, block.length, typesize);
        expect(sameBytes(shuffled.subarray(offset, offset + block.length), referenceShuffle(block, typesize))).toBe("equal");
        expect(shuffled[offset + block.length]).toBe(0xaa);
        const back = new Uint8Array(block.length + 16).fill(0x55);
        byteUnshuffle(shuffled, offset, back, offset, block.length, typesize);
        expect(sameBytes(back.subarray(offset, offset + block.length), block)).toBe("equal");
        expect(back[offset + block.length]).toBe(0x55);
        if (offset > 0) expect(back[offset - 1]).toBe(0x55);
      }),
      { numRuns: 1000 },
    );
  });

  it("word paths agree with the byte loops on large blocks", () => {
    for (const typesize of [2, 4, 8]) {
      const block = makeBlock(typesize, 4096, 0, typesize);
      const aligned = new Uint8Array(block.length);
      byteShuffle(block, 0, aligned, 0, block.length, typesize);
      expect(sameBytes(aligned, referenceShuffle(block, typesize))).toBe("equal");
      const back = new Uint8Array(block.length);
      byteUnshuffle(aligned, 0, back, 0, block.length, typesize);
      expect(sameBytes(back, block)).toBe("equal");
    }
  });
});

describe("bit shuffle", () => {
  it("applies only to blocks of a multiple of 8 elements", () => {
    expect(bitShuffleApplies(60, 4)).toBe(false);
    expect(bitShuffleApplies(64, 4)).toBe(true);
    expect(bitShuffleApplies(128, 4)).toBe(true);
    expect(bitShuffleApplies(131, 4)).toBe(true);
    expect(bitShuffleApplies(0, 4)).toBe(false);
    expect(bitShuffleApplies(24, 3)).toBe(true);
  });

  it("matches the definition and round trips", () => {
    fc.assert(
      fc.property(blocks, ({ typesize, elements, tail, offset, seed }) => {
        const block = makeBlock(typesize, elements, tail, seed);
        const src = new Uint8Array(block.length + 8);
        src.set(block, offset);
        const shuffled = new Uint8Array(block.length + 8);
        bitShuffle(src, offset, shuffled, offset, block.length, typesize);
        expect(sameBytes(shuffled.subarray(offset, offset + block.length), referenceBitShuffle(block, typesize))).toBe(
          "equal",
        );
        const back = new Uint8Array(block.length + 8);
        bitUnshuffle(shuffled, offset, back, offset, block.length, typesize);
        expect(sameBytes(back.subarray(offset, offset + block.length), block)).toBe("equal");
      }),
      { numRuns: 500 },
    );
  });

  it("the 4-byte fast path (multiples of 32 elements, aligned) matches the definition", () => {
    fc.assert(
      fc.property(
        fc.record({ groups: fc.integer({ min: 1, max: 40 }), tail: fc.integer({ min: 0, max: 3 }), offset: fc.constantFrom(0, 4, 8), seed: fc.integer() }),
        ({ groups, tail, offset, seed }) => {
          const block = makeBlock(4, 32 * groups, tail, seed);
          const shuffled = new Uint8Array(block.length + 8);
          shuffled.set(referenceBitShuffle(block, 4), offset);
          const back = new Uint8Array(block.length + 8);
          bitUnshuffle(shuffled, offset, back, offset, block.length, 4);
          expect(sameBytes(back.subarray(offset, offset + block.length), block)).toBe("equal");
        },
      ),
      { numRuns: 300 },
    );
  });
});
