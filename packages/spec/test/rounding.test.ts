import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { roundHalfEven } from "../src/index.js";

/** Reference: round to nearest, ties to even, from the floor and the distance to it. */
function reference(x: number): number {
  if (!Number.isFinite(x) || Object.is(x, -0)) return x;
  const f = Math.floor(x);
  const d = x - f;
  const r = d > 0.5 || (d === 0.5 && f % 2 !== 0) ? f + 1 : f;
  return r === 0 && x < 0 ? -0 : r;
}

describe("roundHalfEven", () => {
  it("rounds ties to even, both signs", () => {
    expect([0.5, 1.5, 2.5, 3.5, -0.5, -1.5, -2.5, 4097.5].map(roundHalfEven)).toEqual([0, 2, 2, 4, -0, -2, -2, 4098]);
    expect([0.49999999999999994, 1.4999999999999998, 2.5000000000000004].map(roundHalfEven)).toEqual([0, 1, 3]);
  });

  it("keeps -0, NaN, ±Infinity and integers beyond 2^52", () => {
    expect(Object.is(roundHalfEven(-0), -0)).toBe(true);
    expect(roundHalfEven(Number.NaN)).toBeNaN();
    expect(roundHalfEven(Number.POSITIVE_INFINITY)).toBe(Number.POSITIVE_INFINITY);
    expect(roundHalfEven(Number.NEGATIVE_INFINITY)).toBe(Number.NEGATIVE_INFINITY);
    expect(roundHalfEven(2 ** 53 + 2)).toBe(2 ** 53 + 2);
  });

  it("agrees with a floor-based reference on any double and on every half-integer tie", () => {
    fc.assert(fc.property(fc.double({ noNaN: true }), (x) => Object.is(roundHalfEven(x), reference(x))));
    fc.assert(fc.property(fc.integer({ min: -(2 ** 30), max: 2 ** 30 }), (k) => Object.is(roundHalfEven(k + 0.5), reference(k + 0.5))));
  });
});
