/**
 * The lazy projections of a range (`rangeProjections`) against the eager ones
 * (`projectRange`, itself checked against a model in indexer.test.ts): the same sequence,
 * whether read in order, backwards or at random, on regular partitions (declaring
 * `uniformSize`, or not) and rectilinear ones; and a count and any projection of a range
 * over 10^15 chunks without holding them.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { type DimensionPartition, projectRange, rangeProjections, regularPartition, ZarrError } from "../src/index.js";
import { rectilinear } from "./partitions.js";

interface Case {
  part: DimensionPartition;
  length: number;
  sel: { start: number; step: number; count: number };
}

const regular = fc
  .record({ length: fc.integer({ min: 1, max: 40 }), chunk: fc.integer({ min: 1, max: 6 }), declared: fc.boolean() })
  .map(({ length, chunk, declared }) => {
    // The same grid with and without `uniformSize`: arithmetic and general paths alike.
    const part = declared ? regularPartition(chunk, length) : rectilinear(new Array(Math.ceil(length / chunk)).fill(chunk));
    return { part, length };
  });

const rectilinearGrid = fc.array(fc.integer({ min: 1, max: 5 }), { minLength: 1, maxLength: 8 }).map((edges) => ({
  part: rectilinear(edges),
  length: edges.reduce((a, b) => a + b, 0),
}));

/** Ranges of every kind over `[0, length)`: steps shorter and longer than a chunk, either sign, empty. */
const withRange = fc.oneof(regular, rectilinearGrid).chain(({ part, length }) =>
  fc
    .record({ start: fc.integer({ min: 0, max: length - 1 }), step: fc.integer({ min: 1, max: 9 }), negative: fc.boolean() })
    .chain(({ start, step, negative }) => {
      const s = negative ? -step : step;
      const max = s > 0 ? Math.floor((length - 1 - start) / s) + 1 : Math.floor(start / -s) + 1;
      return fc.integer({ min: 0, max }).map((count): Case => ({ part, length, sel: { start, step: s, count } }));
    }),
);

describe("rangeProjections", () => {
  it("is projectRange's sequence, read in order", () => {
    fc.assert(
      fc.property(withRange, ({ part, length, sel }) => {
        const eager = projectRange(sel, part, length);
        const lazy = rangeProjections(sel, part, length);
        expect(lazy.length).toBe(eager.length);
        expect(Array.from({ length: lazy.length }, (_, i) => lazy.at(i))).toEqual(eager);
      }),
      { numRuns: 3000 },
    );
  });

  it("gives the same projections in any order of access, and undefined outside [0, length)", () => {
    fc.assert(
      fc.property(withRange, fc.array(fc.nat(), { maxLength: 12 }), ({ part, length, sel }, picks) => {
        const eager = projectRange(sel, part, length);
        const lazy = rangeProjections(sel, part, length);
        // backwards, then at random, then each one twice in a row
        for (let i = eager.length - 1; i >= 0; i--) expect(lazy.at(i)).toEqual(eager[i]);
        for (const p of picks) {
          const i = eager.length === 0 ? 0 : p % eager.length;
          expect(lazy.at(i)).toEqual(eager[i]);
          expect(lazy.at(i)).toEqual(eager[i]);
        }
        expect(lazy.at(eager.length)).toBeUndefined();
        expect(lazy.at(-1)).toBeUndefined();
        expect(lazy.at(0.5)).toBeUndefined();
      }),
      { numRuns: 2000 },
    );
  });

  it("counts and projects a range over 10^15 chunks in constant time and memory", () => {
    const n = 1e15;
    let calls = 0;
    const inner = regularPartition(1, n);
    const counting =
      <A extends unknown[]>(f: (...args: A) => number) =>
      (...args: A): number => {
        calls++;
        return f(...args);
      };
    const counted: DimensionPartition = {
      count: inner.count,
      uniformSize: 1,
      start: counting((i: number) => inner.start(i)),
      size: counting((i: number) => inner.size(i)),
      chunkOf: counting((i: number) => inner.chunkOf(i)),
    };
    const all = rangeProjections({ start: 0, step: 1, count: n }, counted, n);
    expect(all.length).toBe(n);
    expect(all.at(n - 1)).toEqual({ chunk: n - 1, src: { start: 0, step: 1, count: 1 }, dst: { start: n - 1, step: 1, count: 1 }, covers: true });
    const backwards = rangeProjections({ start: n - 1, step: -3, count: Math.floor((n - 1) / 3) + 1 }, regularPartition(2, n), n);
    expect(backwards.length).toBe(Math.floor((n - 1) / 3) + 1);
    expect(backwards.at(1)).toEqual({ chunk: (n - 4) / 2, src: { start: 0, step: -3, count: 1 }, dst: { start: 1, step: 1, count: 1 }, covers: false });
    // A handful of partition calls, not one per chunk.
    expect(calls).toBeLessThan(20);
  });

  it("refuses what projectRange refuses, with its codes", () => {
    const part = regularPartition(4, 10);
    for (const sel of [
      { start: 0, step: 1, count: 11 },
      { start: 3, step: -1, count: 5 },
    ]) {
      expect(() => rangeProjections(sel, part, 10)).toThrow(expect.objectContaining({ code: "OUT_OF_BOUNDS" }));
    }
    for (const sel of [
      { start: 0, step: 0, count: 2 },
      { start: 0, step: 1, count: -1 },
      { start: 0.5, step: 1, count: 2 },
    ]) {
      expect(() => rangeProjections(sel, part, 10)).toThrow(ZarrError);
      expect(() => rangeProjections(sel, part, 10)).toThrow(expect.objectContaining({ code: "INVALID_ARGUMENT" }));
    }
  });
});
