import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { affineBounds, affineFromGdal, affineToGdal, applyAffine, composeAffine, determinant, invertAffine, pixelSize, scaleAffine } from "../src/index.js";
import type { Affine } from "../src/index.js";

const coef = fc.double({ min: -1e4, max: 1e4, noNaN: true });
const affine = fc.tuple(coef, coef, coef, coef, coef, coef).filter((t) => Math.abs(determinant(t)) > 1e-3) as fc.Arbitrary<Affine>;

describe("affine transforms (Rasterio order)", () => {
  it("x = a*col + b*row + c and y = d*col + e*row + f", () => {
    expect(applyAffine([10, 0, 500000, 0, -10, 5000000], 2, 3)).toEqual([500020, 4999970]);
    expect(applyAffine([1, 2, 3, 4, 5, 6], 10, 100)).toEqual([213, 546]);
  });

  it("inverts, composes and converts to and from GDAL's order", () => {
    fc.assert(
      fc.property(affine, fc.double({ min: -1e3, max: 1e3, noNaN: true }), fc.double({ min: -1e3, max: 1e3, noNaN: true }), (t, u, v) => {
        const [x, y] = applyAffine(t, u, v);
        const [u2, v2] = applyAffine(invertAffine(t), x, y);
        const scale = Math.max(1, Math.abs(u), Math.abs(v)) * 1e-6 * (1 + Math.max(...t.map(Math.abs)) / Math.abs(determinant(t)));
        return Math.abs(u2 - u) <= scale * 1e4 && Math.abs(v2 - v) <= scale * 1e4 && affineFromGdal(affineToGdal(t)).every((c, i) => c === t[i]);
      }),
    );
    expect(affineToGdal([10, 0, 500000, 0, -10, 5000000])).toEqual([500000, 10, 0, 5000000, 0, -10]);
    const t: Affine = [2, 1, 5, -1, 3, 7];
    expect(composeAffine(t, [1, 0, 0, 0, 1, 0])).toEqual(t);
    expect(() => invertAffine([1, 2, 0, 2, 4, 0])).toThrow(/cannot be inverted/);
  });

  it("scales levels exactly and bounds rotated grids by their corners", () => {
    expect(scaleAffine([10, 0, 500000, 0, -10, 5000000], 6, 6)).toEqual([60, 0, 500000, 0, -60, 5000000]);
    expect(scaleAffine([10, 0, 0, 0, -10, 0], 2, 2, 0.5, 0.5)).toEqual([20, 0, 5, 0, -20, -5]);
    // A grid rotated by 90°: columns run south, rows run east.
    const rot: Affine = [0, 10, 100, -10, 0, 200];
    expect(affineBounds(rot, 0, 0, 4, 3)).toEqual([100, 160, 130, 200]);
    expect(pixelSize([3, 4, 0, -4, 3, 0])).toEqual([5, 5]);
  });
});
