/**
 * `getCoordinates`/`setCoordinates` and `getMask`/`setMask` against the plain reference
 * model of NumPy's pointwise indexing (`pointwise-model.ts`): random small arrays
 * (regular grids ragged at the edge, rectilinear grids, two codec chains, missing
 * chunks), random broadcasting index arrays with negative and repeated indices, random
 * masks, a few writes in a row. After every write the whole array must equal the model.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { createArray, get, getCoordinates, getMask, MemoryStore, setCoordinates, setMask, type ZarrArray } from "../src/index.js";
import { type Grid, gridFor } from "./orthogonal-model.js";
import { coordinatesFor, type ModelIndex, maskFor, modelGather, modelMaskPoints, modelPoints, modelScatter } from "./pointwise-model.js";

function transposeChain(ndim: number) {
  return [
    { name: "transpose", configuration: { order: Array.from({ length: ndim }, (_, i) => ndim - 1 - i) } },
    { name: "bytes", configuration: { endian: "big" } },
  ];
}

async function makeArray(shape: number[], grid: Grid, transposed: boolean, fill: number, writeEmptyChunks: boolean): Promise<ZarrArray> {
  return createArray(new MemoryStore(), "a", {
    shape,
    ...("regular" in grid ? { chunkShape: grid.regular } : { chunkShapes: grid.rectilinear }),
    dataType: "int32",
    fillValue: fill,
    writeEmptyChunks,
    codecs: transposed ? (transposeChain(shape.length) as never) : undefined,
  });
}

/** Small values (0–4) that often equal the fill value, so chunks become empty and get deleted. */
function valuesFor(seed: number, n: number): number[] {
  return Array.from({ length: n }, (_, i) => (seed * 7 + i * 3 + ((seed >> 3) & i)) % 5);
}

type Write = { kind: "coords"; coords: ModelIndex[]; value: { scalar: number } | { seed: number } } | { kind: "mask"; mask: boolean[]; value: { scalar: number } | { seed: number } };

const value = fc.oneof(
  fc.integer({ min: 0, max: 4 }).map((scalar) => ({ scalar })),
  fc.integer({ min: 0, max: 1000 }).map((seed) => ({ seed })),
);

const testCase = fc
  .array(fc.integer({ min: 1, max: 6 }), { minLength: 0, maxLength: 3 })
  .chain((shape) =>
    fc.record({
      shape: fc.constant(shape),
      grid: gridFor(shape),
      transposed: fc.boolean(),
      fill: fc.constantFrom(0, 3),
      writeEmptyChunks: fc.boolean(),
      writes: fc.array(
        fc.oneof(
          fc.record({ kind: fc.constant("coords" as const), coords: coordinatesFor(shape), value }),
          fc.record({ kind: fc.constant("mask" as const), mask: maskFor(shape), value }),
        ),
        { minLength: 1, maxLength: 3 },
      ),
      readCoords: coordinatesFor(shape),
      readMask: maskFor(shape),
    }),
  );

/** The library's spelling of a model index array (lists as typed arrays now and then). */
function toLibrary(coords: ModelIndex[]) {
  return coords.map((x, d) => (Array.isArray(x) && d % 2 === 1 ? Int32Array.from(x) : x));
}

async function applyWrite(arr: ZarrArray, model: number[], write: Write): Promise<void> {
  const flat = write.kind === "coords" ? modelPoints(arr.shape, write.coords).flat : modelMaskPoints(write.mask);
  const values = "scalar" in write.value ? write.value.scalar : valuesFor(write.value.seed, flat.length);
  const given = typeof values === "number" ? values : Int32Array.from(values);
  if (write.kind === "coords") await setCoordinates(arr, toLibrary(write.coords), given);
  else await setMask(arr, { data: write.mask, shape: arr.shape }, given);
  modelScatter(model, flat, values);
}

describe("pointwise get and set match NumPy's fancy indexing (reference model)", () => {
  it("on regular and rectilinear grids, with the default and a transpose + big-endian chain", async () => {
    await fc.assert(
      fc.asyncProperty(testCase, async ({ shape, grid, transposed, fill, writeEmptyChunks, writes, readCoords, readMask }) => {
        const arr = await makeArray(shape, grid, transposed, fill, writeEmptyChunks);
        const model = new Array<number>(shape.reduce((a, b) => a * b, 1)).fill(fill);
        for (const write of writes) {
          await applyWrite(arr, model, write);
          expect(Array.from((await get(arr, null)).data as Int32Array)).toEqual(model);
        }
        const want = modelPoints(shape, readCoords);
        const got = await getCoordinates(arr, toLibrary(readCoords));
        expect(got.shape).toEqual(want.shape);
        expect(Array.from(got.data as Int32Array)).toEqual(modelGather(model, want.flat));
        const masked = await getMask(arr, { data: readMask, shape });
        const picked = modelMaskPoints(readMask);
        expect(masked.shape).toEqual([picked.length]);
        expect(Array.from(masked.data as Int32Array)).toEqual(modelGather(model, picked));
      }),
      { numRuns: 400 },
    );
  });
});
