/** The 64-bit arithmetic on 32-bit halves agrees with BigInt's int64 arithmetic, wrapping included. */
import fc from "fast-check";
import { expect, it } from "vitest";
import { add64, H, L, sub64, toNumber64 } from "../src/int64.js";

const halves = (v: bigint): [number, number] => [Number(BigInt.asIntN(32, v >> 32n)), Number(BigInt.asIntN(32, v))];
const join = (h: number, l: number): bigint => BigInt.asIntN(64, (BigInt(h) << 32n) | BigInt(l >>> 0));
const int64 = fc.oneof(fc.bigInt({ min: -(2n ** 63n), max: 2n ** 63n - 1n }), fc.constantFrom(0n, -1n, 2n ** 63n - 1n, -(2n ** 63n), 0xffffffffn, -0x100000000n));

it("add64 and sub64 wrap like int64", () => {
  fc.assert(
    fc.property(int64, int64, (a, b) => {
      const [ah, al] = halves(a);
      const [bh, bl] = halves(b);
      add64(ah, al, bh, bl);
      expect(join(H, L)).toBe(BigInt.asIntN(64, a + b));
      sub64(ah, al, bh, bl);
      expect(join(H, L)).toBe(BigInt.asIntN(64, a - b));
    }),
    { numRuns: 2000, seed: 7 },
  );
});

it("toNumber64 rounds once, as Number(bigint) does", () => {
  fc.assert(
    fc.property(int64, (a) => {
      const [h, l] = halves(a);
      expect(toNumber64(h, l)).toBe(Number(a));
    }),
    { numRuns: 2000, seed: 8 },
  );
});
