import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  chunkProjections,
  countChunks,
  cStrides,
  type DimChunkProjection,
  type DimensionPartition,
  type DimIndexer,
  linearChunkProjections,
  projectDimension,
  projectRange,
  regularPartition,
  ZarrError,
} from "../src/index.js";
import { rectilinear } from "./partitions.js";

// The reference model: every selected position written out, mapped to its chunk and
// chunk-local position by plain arithmetic over the chunk edges.

/** Positions a dimension indexer selects, in output order. */
function positions(sel: DimIndexer): number[] {
  if ("indices" in sel) return Array.from(sel.indices);
  return Array.from({ length: sel.count }, (_, i) => sel.start + i * sel.step);
}

/** A partition described by where each chunk starts and its nominal size. */
interface Model {
  starts: number[];
  sizes: number[];
  length: number;
}

function modelChunkOf(m: Model, index: number): number {
  let c = 0;
  while (c + 1 < m.starts.length && m.starts[c + 1] <= index) c++;
  return c;
}

/** In-array positions of chunk `c`. */
function modelExtent(m: Model, c: number): number {
  return Math.min(m.starts[c] + m.sizes[c], m.length) - m.starts[c];
}

interface Dim {
  part: DimensionPartition;
  model: Model;
}

const regularDim: fc.Arbitrary<Dim> = fc
  .record({ length: fc.integer({ min: 1, max: 13 }), chunk: fc.integer({ min: 1, max: 5 }) })
  .map(({ length, chunk }) => {
    const count = Math.ceil(length / chunk);
    return {
      part: regularPartition(chunk, length),
      model: { starts: Array.from({ length: count }, (_, i) => i * chunk), sizes: new Array(count).fill(chunk), length },
    };
  });

const rectilinearDim: fc.Arbitrary<Dim> = fc.array(fc.integer({ min: 1, max: 4 }), { minLength: 1, maxLength: 5 }).map((edges) => {
  const starts = [0];
  for (const e of edges.slice(0, -1)) starts.push(starts[starts.length - 1] + e);
  return { part: rectilinear(edges), model: { starts, sizes: edges, length: edges.reduce((a, b) => a + b, 0) } };
});

const anyDim = fc.oneof(regularDim, rectilinearDim);

/** Every kind of one-dimension selection over `[0, n)`. */
function selectionOf(n: number): fc.Arbitrary<DimIndexer> {
  const range = fc
    .record({ start: fc.integer({ min: 0, max: n - 1 }), step: fc.integer({ min: 1, max: 4 }), negative: fc.boolean() })
    .chain(({ start, step, negative }) => {
      const s = negative ? -step : step;
      const max = s > 0 ? Math.floor((n - 1 - start) / s) + 1 : Math.floor(start / -s) + 1;
      return fc.integer({ min: 0, max }).map((count): DimIndexer => ({ start, step: s, count }));
    });
  const index = fc.integer({ min: 0, max: n - 1 });
  return fc.oneof(
    index.map((i): DimIndexer => ({ start: i, step: 1, count: 1 })),
    fc.constant<DimIndexer>({ start: 0, step: 1, count: n }),
    fc.constant<DimIndexer>({ start: n - 1, step: -1, count: n }),
    range,
    // unsorted, with duplicates
    fc.array(index, { maxLength: 2 * n + 2 }).map((ix): DimIndexer => ({ indices: ix })),
    // a boolean mask resolved to its (sorted, distinct) indices
    fc.array(fc.boolean(), { minLength: n, maxLength: n }).map((mask): DimIndexer => ({
      indices: mask.flatMap((b, i) => (b ? [i] : [])),
    })),
    // every position, shuffled, plus duplicates; or all but one position padded with
    // duplicates to at least n entries (a chunk that is listed often but not covered)
    fc
      .record({ drop: fc.option(index), extra: fc.array(index, { minLength: 1, maxLength: n + 1 }), seed: fc.integer() })
      .map(({ drop, extra, seed }): DimIndexer => {
        const all = Array.from({ length: n }, (_, i) => i).filter((i) => i !== drop);
        const list = [...all, ...extra.filter((i) => i !== drop)];
        if (drop !== null) while (list.length < n + 1 && all.length > 0) list.push(all[list.length % all.length]);
        return { indices: shuffle(list, seed) };
      }),
  );
}

function shuffle<T>(a: T[], seed: number): T[] {
  let s = seed >>> 0 || 1;
  for (let i = a.length - 1; i > 0; i--) {
    s = (Math.imul(s, 1103515245) + 12345) >>> 0;
    const j = s % (i + 1);
    [a[i], a[j]] = [a[j], a[i]];
  }
  return a;
}

const dimWithSelection = anyDim.chain((dim) => selectionOf(dim.model.length).map((sel) => ({ ...dim, sel })));

/** A cheap assertion for inner loops (vitest's expect per element would dominate the run time). */
function check(ok: boolean, what: string): void {
  if (!ok) throw new Error(what);
}

/** Checks one dimension's projections against the model; returns nothing, throws on a mismatch. */
function checkDimension(dim: Dim, sel: DimIndexer, projs: DimChunkProjection[]): void {
  const { model } = dim;
  const pos = positions(sel);
  const produced = new Array<number>(pos.length).fill(0);
  const chunksSeen = new Set<number>();
  for (const p of projs) {
    check(!chunksSeen.has(p.chunk), `chunk ${p.chunk} listed twice`);
    chunksSeen.add(p.chunk);
    const src = positions(p.src);
    const dst = positions(p.dst);
    check(src.length === dst.length && src.length > 0, `src/dst lengths of chunk ${p.chunk}`);
    for (let k = 0; k < src.length; k++) {
      const o = dst[k];
      produced[o]++;
      check(modelChunkOf(model, pos[o]) === p.chunk, `output ${o} (index ${pos[o]}) is not in chunk ${p.chunk}`);
      check(src[k] === pos[o] - model.starts[p.chunk], `output ${o}: local ${src[k]} for index ${pos[o]}`);
      // the selection's order within a chunk survives (last write wins, as in NumPy)
      if (k > 0) check(dst[k] > dst[k - 1], `chunk ${p.chunk}: outputs out of order`);
    }
    const selectedHere = new Set(pos.filter((i) => modelChunkOf(model, i) === p.chunk));
    check(p.covers === (selectedHere.size === modelExtent(model, p.chunk)), `covers of chunk ${p.chunk} is ${p.covers}`);
  }
  check(
    produced.every((c) => c === 1),
    `outputs produced ${JSON.stringify(produced)} times`,
  );
}

describe("projectDimension", () => {
  it("matches the reference model: ranges (either sign of step), index lists, masks; regular and rectilinear", () => {
    fc.assert(
      fc.property(dimWithSelection, ({ part, model, sel }) => {
        checkDimension({ part, model }, sel, projectDimension(sel, part, model.length));
      }),
      { numRuns: 5000 },
    );
  });

  it("projectRange gives what projectDimension gives for the same range", () => {
    fc.assert(
      fc.property(dimWithSelection, ({ part, model, sel }) => {
        if ("indices" in sel) return;
        expect(projectRange(sel, part, model.length)).toEqual(projectDimension(sel, part, model.length));
        checkDimension({ part, model }, sel, projectRange(sel, part, model.length));
      }),
      { numRuns: 2000 },
    );
  });

  it("covers an edge chunk once its in-array positions are selected", () => {
    // length 10 in chunks of 4: the last chunk holds 8 and 9 only
    const part = regularPartition(4, 10);
    const [edge] = projectDimension({ indices: [9, 8] }, part, 10);
    expect(edge).toMatchObject({ chunk: 2, covers: true });
    expect(projectDimension({ start: 8, step: 1, count: 2 }, part, 10)[0].covers).toBe(true);
    expect(projectDimension({ start: 9, step: 1, count: 1 }, part, 10)[0].covers).toBe(false);
  });

  it("does not count a repeated index as covering a missing one", () => {
    // four entries for a chunk of four, but position 3 is never selected
    const [p] = projectDimension({ indices: [0, 1, 2, 2] }, regularPartition(4, 8), 8);
    expect(p.covers).toBe(false);
    const [q] = projectDimension({ indices: [3, 0, 1, 2, 2] }, regularPartition(4, 8), 8);
    expect(q.covers).toBe(true);
  });

  it("covers a one-position chunk with any step", () => {
    const projs = projectDimension({ start: 1, step: 3, count: 2 }, regularPartition(1, 5), 5);
    expect(projs.map((p) => [p.chunk, p.covers])).toEqual([
      [1, true],
      [4, true],
    ]);
  });

  it("does work proportional to the chunks touched, not the length", () => {
    const length = 2 ** 50;
    const projs = projectDimension({ start: length - 1, step: -(2 ** 48), count: 4 }, regularPartition(1, length), length);
    expect(projs.map((p) => p.chunk)).toEqual([length - 1, length - 1 - 2 ** 48, length - 1 - 2 ** 49, length - 1 - 3 * 2 ** 48]);
    const listed = projectDimension({ indices: [length - 1, 0] }, regularPartition(2 ** 20, length), length);
    expect(listed.map((p) => p.chunk)).toEqual([0, 2 ** 30 - 1]);
  });

  it("returns nothing for empty selections", () => {
    expect(projectDimension({ start: 0, step: 1, count: 0 }, regularPartition(2, 0), 0)).toEqual([]);
    expect(projectDimension({ indices: [] }, regularPartition(2, 4), 4)).toEqual([]);
  });

  it("refuses positions outside the array and malformed ranges", () => {
    const part = regularPartition(2, 4);
    const code = (f: () => unknown) => {
      try {
        f();
      } catch (e) {
        return (e as ZarrError).code;
      }
      return "no error";
    };
    expect(code(() => projectDimension({ indices: [0, 4] }, part, 4))).toBe("OUT_OF_BOUNDS");
    expect(code(() => projectDimension({ indices: [-1] }, part, 4))).toBe("OUT_OF_BOUNDS");
    expect(code(() => projectDimension({ indices: [1.5] }, part, 4))).toBe("OUT_OF_BOUNDS");
    expect(code(() => projectDimension({ start: 1, step: 2, count: 2 }, part, 4))).toBe("no error");
    expect(code(() => projectDimension({ start: 1, step: 2, count: 3 }, part, 4))).toBe("OUT_OF_BOUNDS");
    expect(code(() => projectDimension({ start: 1, step: -1, count: 3 }, part, 4))).toBe("OUT_OF_BOUNDS");
    expect(code(() => projectDimension({ start: 0, step: 0, count: 2 }, part, 4))).toBe("INVALID_ARGUMENT");
    expect(code(() => projectDimension({ start: 0, step: 1, count: -1 }, part, 4))).toBe("INVALID_ARGUMENT");
    expect(() => projectDimension({ indices: [7] }, part, 4)).toThrow(/lists index 7, outside \[0, 4\)/);
  });
});

describe("regularPartition", () => {
  it("splits an extent into equal chunks, the last one overhanging", () => {
    const p = regularPartition(4, 10);
    expect([p.count, p.start(2), p.size(2), p.chunkOf(7), p.chunkOf(8)]).toEqual([3, 8, 4, 1, 2]);
    expect(regularPartition(5, 10).count).toBe(2);
    expect(regularPartition(3, 0).count).toBe(0);
  });

  it("refuses a chunk size below 1 and a negative extent", () => {
    expect(() => regularPartition(0, 4)).toThrow(ZarrError);
    expect(() => regularPartition(1.5, 4)).toThrow(/chunk size must be a positive integer, got 1.5/);
    expect(() => regularPartition(2, -1)).toThrow(/extent must be a non-negative integer, got -1/);
  });
});

describe("chunkProjections and linearChunkProjections", () => {
  it("match the model: every selected N-d position exactly once, in its chunk, covers exact, C-order linear index", () => {
    const nd = fc.array(dimWithSelection, { minLength: 0, maxLength: 3 });
    fc.assert(
      fc.property(nd, (dims) => {
        const perDim = dims.map((d) => projectDimension(d.sel, d.part, d.model.length));
        const gridShape = dims.map((d) => d.part.count);
        const strides = cStrides(gridShape);
        const chunks = [...linearChunkProjections(perDim, strides)];
        expect(chunks.length).toBe(countChunks(perDim));
        const plain = [...chunkProjections(perDim)];
        expect(plain.map((c) => c.coords)).toEqual(chunks.map((c) => c.coords));
        // F order: the C order of the dimensions reversed, first dimension fastest.
        const fortran = [...chunkProjections(perDim, "F")];
        const reversed = [...chunkProjections([...perDim].reverse())];
        expect(fortran.map((c) => c.coords)).toEqual(reversed.map((c) => [...c.coords].reverse()));
        expect(fortran.map((c) => c.src)).toEqual(reversed.map((c) => [...c.src].reverse()));

        const pos = dims.map((d) => positions(d.sel));
        const outShape = pos.map((p) => p.length);
        const outStrides = cStrides(outShape);
        const produced = new Map<number, number>();
        const selected = pos.map((p) => new Set(p));
        for (const ch of chunks) {
          check(ch.linear === ch.coords.reduce((acc, c, d) => acc * gridShape[d] + c, 0), `linear index of ${ch.coords}`);
          const src = ch.src.map(positions);
          const dst = ch.dst.map(positions);
          // every output position of the chunk's block, with its chunk-local position
          forEachIndex(
            src.map((s) => s.length),
            (k) => {
              const out = k.map((kk, d) => dst[d][kk]);
              const flat = out.reduce((acc, o, d) => acc + o * outStrides[d], 0);
              produced.set(flat, (produced.get(flat) ?? 0) + 1);
              for (let d = 0; d < dims.length; d++) {
                const at = pos[d][out[d]];
                check(modelChunkOf(dims[d].model, at) === ch.coords[d], `output ${out} is not in chunk ${ch.coords}`);
                check(src[d][k[d]] === at - dims[d].model.starts[ch.coords[d]], `output ${out}: wrong local position`);
              }
            },
          );
          // covers: every in-array position of the chunk is selected
          const extents = dims.map((d, i) => modelExtent(d.model, ch.coords[i]));
          let all = true;
          forEachIndex(extents, (k) => {
            if (!k.every((kk, d) => selected[d].has(dims[d].model.starts[ch.coords[d]] + kk))) all = false;
          });
          check(ch.covers === all, `covers of chunk ${ch.coords} is ${ch.covers}`);
        }
        const total = outShape.reduce((a, b) => a * b, 1);
        check(produced.size === total, `${produced.size} of ${total} outputs produced`);
        for (const n of produced.values()) check(n === 1, "an output produced twice");
      }),
      { numRuns: 2000 },
    );
  });

  it("in F order, advances the first dimension fastest", () => {
    const part = regularPartition(2, 6);
    const all = { start: 0, step: 1, count: 6 };
    const perDim = [projectDimension(all, part, 6), projectDimension(all, part, 6)];
    expect([...chunkProjections(perDim, "F")].map((c) => c.coords.join(","))).toEqual(["0,0", "1,0", "2,0", "0,1", "1,1", "2,1", "0,2", "1,2", "2,2"]);
    expect([...chunkProjections(perDim)].map((c) => c.coords.join(","))).toEqual(["0,0", "0,1", "0,2", "1,0", "1,1", "1,2", "2,0", "2,1", "2,2"]);
  });

  it("yields the single chunk of a 0-d selection and nothing when a dimension selects nothing", () => {
    expect([...chunkProjections([])]).toEqual([{ coords: [], src: [], dst: [], covers: true }]);
    const part = regularPartition(2, 4);
    const perDim = [projectDimension({ start: 0, step: 1, count: 4 }, part, 4), projectDimension({ indices: [] }, part, 4)];
    expect(countChunks(perDim)).toBe(0);
    expect([...linearChunkProjections(perDim, [2, 1])]).toEqual([]);
  });

  it("refuses grid strides of the wrong rank", () => {
    const perDim = [projectDimension({ start: 0, step: 1, count: 2 }, regularPartition(2, 2), 2)];
    expect(() => [...linearChunkProjections(perDim, [1, 1])]).toThrow(/2 grid strides for a selection of 1 dimensions/);
  });
});

/** Calls `f` with every index of `shape`, in C order. */
function forEachIndex(shape: readonly number[], f: (index: number[]) => void): void {
  if (shape.some((n) => n === 0)) return;
  const k = new Array<number>(shape.length).fill(0);
  for (;;) {
    f(k.slice());
    let d = shape.length - 1;
    for (; d >= 0; d--) {
      if (++k[d] < shape[d]) break;
      k[d] = 0;
    }
    if (d < 0) return;
  }
}
