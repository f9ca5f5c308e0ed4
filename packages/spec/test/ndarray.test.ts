import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { copyRegion, cStrides, type DimIndexer, fullSelection, shapeSize } from "../src/index.js";

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
