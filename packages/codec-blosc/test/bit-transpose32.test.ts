import { readFileSync } from "node:fs";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
// @ts-expect-error: a plain .mjs script without type declarations
import { generate } from "../scripts/gen-bit-transpose32.mjs";
import { bitShuffle, bitUnshuffle } from "../src/bitshuffle.js";

/** Bit `r` of element `e` lands in bit row `r` at position `e` (the definition, bit by bit). */
function referenceShuffle(bytes: Uint8Array): Uint8Array {
  const n = bytes.length / 4;
  const out = new Uint8Array(bytes.length);
  for (let e = 0; e < n; e++) {
    for (let r = 0; r < 32; r++) {
      const bit = (bytes[4 * e + (r >> 3)] >> (r & 7)) & 1;
      const at = r * n + e; // bit index in the output
      out[at >> 3] |= bit << (at & 7);
    }
  }
  return out;
}

describe("the 32×32 bit transposes of 4-byte bit shuffles", () => {
  it("src/bit-transpose32.ts is what the generator writes", () => {
    const current = readFileSync(new URL("../src/bit-transpose32.ts", import.meta.url), "utf8");
    expect(current).toBe(generate());
  });

  it("shuffle and unshuffle 4-byte elements as the bit-by-bit definition says", () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 40 }), fc.integer(), (groups, seed) => {
        const bytes = new Uint8Array(128 * groups).map((_, i) => (Math.imul(i + seed, 2654435761) >>> 13) & 0xff);
        const shuffled = new Uint8Array(bytes.length);
        bitShuffle(bytes, 0, shuffled, 0, bytes.length, 4);
        expect(shuffled).toEqual(referenceShuffle(bytes));
        const back = new Uint8Array(bytes.length);
        bitUnshuffle(shuffled, 0, back, 0, bytes.length, 4);
        expect(back).toEqual(bytes);
      }),
      { numRuns: 60 },
    );
  });
});
