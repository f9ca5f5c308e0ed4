import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { checkReadIntoRanges, copyRegion, cStrides, type DimIndexer, fullSelection, shapeSize } from "../src/index.js";

/** Positions a dimension indexer selects, written out. */
function positions(sel: DimIndexer): number[] {
  if ("indices" in sel) return Array.from(sel.indices);
  return Array.from({ length: sel.count }, (_, i) => sel.start + i * sel.step);
}

describe("copyRegion", () => {
  it("matches an element-by-element copy for random strided selections", () => {
    const dim = fc.integer({ min: 1, max: 6 }).chain((n) =>
      fc.record({
        n: fc.constant(n),
        sel: fc.oneof(
          fc.record({ start: fc.integer({ min: 0, max: n - 1 }), step: fc.constant(1) }).map(({ start }) => ({ start, step: 1, count: n - start })),
          fc.constant({ start: n - 1, step: -1, count: n }),
          fc.uniqueArray(fc.integer({ min: 0, max: n - 1 }), { minLength: 1, maxLength: n }).map((ix) => ({ indices: ix })),
        ),
      }),
    );
    fc.assert(
      fc.property(fc.array(dim, { minLength: 0, maxLength: 4 }), fc.integer({ min: 1, max: 2 }), (dims, width) => {
        const shape = dims.map((d) => d.n);
        const srcSel = dims.map((d) => d.sel as DimIndexer);
        const counts = srcSel.map((s) => positions(s).length);
        const src = { data: Float64Array.from({ length: shapeSize(shape) * width }, (_, i) => i + 1), shape, stride: cStrides(shape) };
        const dst = { data: new Float64Array(shapeSize(counts) * width), shape: counts, stride: cStrides(counts) };
        copyRegion(src, srcSel, dst, fullSelection(counts), width);
        // reference
        const expected: number[] = [];
        const rec = (d: number, off: number) => {
          if (d === shape.length) {
            for (let w = 0; w < width; w++) expected.push(src.data[off * width + w]);
            return;
          }
          for (const p of positions(srcSel[d])) rec(d + 1, off + p * src.stride[d]);
        };
        rec(0, 0);
        expect(Array.from(dst.data)).toEqual(expected);
      }),
    );
  });
  it("copies plain arrays too", () => {
    const src = { data: ["a", "b", "c", "d"], shape: [2, 2], stride: [2, 1] };
    const dst = { data: ["", "", "", ""], shape: [2, 2], stride: [1, 2] };
    copyRegion(src, fullSelection([2, 2]), dst, fullSelection([2, 2]));
    expect(dst.data).toEqual(["a", "c", "b", "d"]);
  });
});

describe("copyRegion keeps float bits", () => {
  it("signalling NaNs survive element-wise copies", () => {
    const bits32 = new Uint32Array([0x7f800001, 0xffbfffff, 0x7fc00001, 0x3f800000]);
    const src32 = { data: new Float32Array(bits32.buffer), shape: [4], stride: [1] };
    const dst32 = { data: new Float32Array(8), shape: [8], stride: [1] };
    copyRegion(src32, [{ start: 3, step: -1, count: 4 }], dst32, [{ start: 0, step: 2, count: 4 }]);
    const out32 = new Uint32Array(dst32.data.buffer);
    expect([out32[0], out32[2], out32[4], out32[6]]).toEqual([0x3f800000, 0x7fc00001, 0xffbfffff, 0x7f800001]);
    const bits64 = new BigUint64Array([0x7ff0000000000001n, 0xfff4000000000000n]);
    const src64 = { data: new Float64Array(bits64.buffer), shape: [2], stride: [1] };
    const dst64 = { data: new Float64Array(2), shape: [2], stride: [1] };
    copyRegion(src64, [{ indices: [1, 0] }], dst64, [{ start: 0, step: 1, count: 2 }]);
    expect(Array.from(new BigUint64Array(dst64.data.buffer))).toEqual([0xfff4000000000000n, 0x7ff0000000000001n]);
  });
});

describe("checkReadIntoRanges", () => {
  it("gives the span of the non-empty targets and names a bad range", () => {
    const t = (n: number) => new Uint8Array(n);
    expect(checkReadIntoRanges("k", [{ offset: 9, target: t(1) }, { offset: 3, target: t(2) }, { offset: 100, target: t(0) }])).toEqual([3, 10]);
    expect(checkReadIntoRanges("k", [{ offset: 5, target: t(0) }])).toEqual([0, 0]);
    expect(() => checkReadIntoRanges("c/1", [{ offset: 0, target: t(1) }, { offset: -2, target: t(1) }])).toThrow(
      'Invalid scatter-read range 1 for key "c/1": offset -2',
    );
    expect(() => checkReadIntoRanges("c/1", [{ offset: 0, target: [1] as unknown as Uint8Array }])).toThrow("not a Uint8Array");
  });
});
