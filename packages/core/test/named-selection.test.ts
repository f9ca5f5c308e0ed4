/**
 * Selections by dimension name (`get(arr, { time: slice(0, 2), lat: 1 })`): the same
 * elements as the positional selection, for `get` and `set`; unknown names, arrays
 * without names and misplaced slices are `INVALID_SELECTION`.
 */
import { describe, expect, it } from "vitest";
import { createArray, get, MemoryStore, mask, set, slice, ZarrError } from "../src/index.js";

/** time × lat × lon = 4 × 3 × 5, values 0…59, chunks 2 × 2 × 2. */
async function cube(dimensionNames?: (string | null)[]) {
  const arr = await createArray(new MemoryStore(), "t", { shape: [4, 3, 5], chunkShape: [2, 2, 2], dataType: "int32", dimensionNames });
  await set(arr, null, Int32Array.from({ length: 60 }, (_, i) => i));
  return arr;
}

async function rejection(promise: Promise<unknown>): Promise<ZarrError> {
  try {
    await promise;
  } catch (error) {
    expect(error).toBeInstanceOf(ZarrError);
    return error as ZarrError;
  }
  throw new Error("expected a rejection");
}

describe("selection by dimension name", () => {
  it("reads what the positional selection reads; dimensions not named are whole", async () => {
    const arr = await cube(["time", "lat", "lon"]);
    const cases: [Record<string, unknown>, unknown[]][] = [
      [{ time: slice(0, 2), lat: 1 }, [slice(0, 2), 1]],
      [{ lon: [4, 0], time: -1 }, [-1, null, [4, 0]]],
      [{ lat: mask([true, false, true]) }, [null, mask([true, false, true])]],
      [{ lat: [false, true, true], lon: slice(null, null, -2) }, [null, [false, true, true], slice(null, null, -2)]],
      [{}, []],
      [{ time: null }, []],
    ];
    for (const [named, positional] of cases) {
      const a = await get(arr, named as never);
      const b = await get(arr, positional as never);
      expect(a.shape).toEqual(b.shape);
      expect(Array.from(a.data as Int32Array)).toEqual(Array.from(b.data as Int32Array));
    }
    const point = await get(arr, { time: 2, lat: 1, lon: 3 });
    expect(point.shape).toEqual([]);
    expect(Array.from(point.data as Int32Array)).toEqual([2 * 15 + 1 * 5 + 3]);
  });

  it("writes by name", async () => {
    const arr = await cube(["time", "lat", "lon"]);
    await set(arr, { lat: 0, time: slice(1, 3) }, { data: [-1, -2, -3, -4, -5], shape: [5] });
    const got = await get(arr, [slice(1, 3), 0]);
    expect(Array.from(got.data as Int32Array)).toEqual([-1, -2, -3, -4, -5, -1, -2, -3, -4, -5]);
    await set(arr, { lon: 4 }, 0);
    expect(Array.from((await get(arr, [null, null, 4])).data as Int32Array)).toEqual(new Array(12).fill(0));
  });

  it("refuses a name the array does not have, naming it and the names it has", async () => {
    const arr = await cube(["time", "lat", null]);
    for (const run of [() => get(arr, { time: 0, depth: 1 }), () => set(arr, { depth: 1 }, 0)]) {
      const error = await rejection(run());
      expect(error.code).toBe("INVALID_SELECTION");
      expect(error.message).toBe('Unknown dimension name "depth": the dimensions of "t" are named "time", "lat"');
    }
  });

  it("refuses names on arrays without dimension names, for get and set", async () => {
    for (const names of [undefined, [null, null, null]]) {
      const arr = await cube(names);
      for (const run of [() => get(arr, { time: 0 }), () => set(arr, { time: 0 }, 1)]) {
        const error = await rejection(run());
        expect(error.code).toBe("INVALID_SELECTION");
        expect(error.message).toBe('Array "t" has no dimension names, so it cannot be selected by name ("time"): select by position, with an array');
      }
    }
  });

  it("refuses a name given to several dimensions, and an ellipsis as a dimension's selection", async () => {
    const arr = await cube(["x", "x", "y"]);
    expect((await rejection(get(arr, { x: 0 }))).message).toBe('Dimension name "x" names several dimensions of "t": select them by position');
    expect((await get(arr, { y: 1 })).shape).toEqual([4, 3]);
    expect((await rejection(get(arr, { y: "..." } as never))).message).toBe('"..." cannot be the selection of dimension "y"');
  });

  it("does not take a bare slice(…) or mask(…) for a selection by name", async () => {
    const arr = await cube(["time", "lat", "lon"]);
    const error = await rejection(get(arr, slice(0, 2) as never));
    expect(error.code).toBe("INVALID_SELECTION");
    expect(error.message).toBe("A slice(…) selects one dimension: wrap the selection in an array, e.g. [slice(…)]");
    expect((await rejection(get(arr, mask([true]) as never))).message).toMatch(/A mask\(…\) selects one dimension/);
    // …unless a dimension is called "kind": then it is a selection by name like any other
    const odd = await cube(["kind", "start", "stop"]);
    expect((await rejection(get(odd, slice(0, 2) as never))).message).toMatch(/^Unknown dimension name "step"/);
    expect((await get(odd, { kind: 1, stop: slice(0, 2) })).shape).toEqual([3, 2]);
  });

  it("keeps refusing other non-array selections", async () => {
    const arr = await cube(["time", "lat", "lon"]);
    for (const bad of ["0:2", 3, new Int32Array([0])]) {
      const error = await rejection(get(arr, bad as never));
      expect(error.code).toBe("INVALID_SELECTION");
      expect(error.message).toBe("A selection must be an array with one entry per dimension, or an object of dimension names");
    }
  });
});
