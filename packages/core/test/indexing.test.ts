import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  createArray,
  type DimSelection,
  get,
  MemoryStore,
  mask,
  openArray,
  parseSelection,
  type Selection,
  set,
  slice,
  ZarrError,
} from "../src/index.js";

/** Python's `range(n)[start:stop:step]`, written out independently of the library. */
function pySlice(n: number, start: number | null, stop: number | null, step: number | null): number[] {
  const st = step ?? 1;
  const out: number[] = [];
  const norm = (v: number) => (v < 0 ? v + n : v);
  if (st > 0) {
    const a = start === null ? 0 : Math.min(Math.max(norm(start), 0), n);
    const b = stop === null ? n : Math.min(Math.max(norm(stop), 0), n);
    for (let i = a; i < b; i += st) out.push(i);
  } else {
    const a = start === null ? n - 1 : Math.min(Math.max(norm(start), -1), n - 1);
    const b = stop === null ? -1 : Math.min(Math.max(norm(stop), -1), n - 1);
    for (let i = a; i > b; i += st) out.push(i);
  }
  return out;
}

type RefDim = { drop: boolean; idx: number[] };

function refDim(sel: DimSelection | undefined, n: number): RefDim {
  if (sel === undefined || sel === null) return { drop: false, idx: [...Array(n).keys()] };
  if (typeof sel === "number") return { drop: true, idx: [sel < 0 ? sel + n : sel] };
  if (Array.isArray(sel) && typeof sel[0] === "boolean") {
    return { drop: false, idx: (sel as boolean[]).flatMap((b, i) => (b ? [i] : [])) };
  }
  if (Array.isArray(sel)) return { drop: false, idx: (sel as number[]).map((i) => (i < 0 ? i + n : i)) };
  const s = sel as { kind: string; start: number | null; stop: number | null; step: number | null };
  return { drop: false, idx: pySlice(n, s.start, s.stop, s.step) };
}

function refGet(data: number[], shape: number[], selection: DimSelection[]): { shape: number[]; values: number[] } {
  const dims = shape.map((n, d) => refDim(selection[d], n));
  const strides = shape.map((_, d) => shape.slice(d + 1).reduce((a, b) => a * b, 1));
  const values: number[] = [];
  const rec = (d: number, offset: number) => {
    if (d === shape.length) {
      values.push(data[offset]);
      return;
    }
    for (const i of dims[d].idx) rec(d + 1, offset + i * strides[d]);
  };
  rec(0, 0);
  return { shape: dims.filter((x) => !x.drop).map((x) => x.idx.length), values };
}

function refSet(data: number[], shape: number[], selection: DimSelection[], values: number[]): void {
  const dims = shape.map((n, d) => refDim(selection[d], n));
  const strides = shape.map((_, d) => shape.slice(d + 1).reduce((a, b) => a * b, 1));
  let k = 0;
  const rec = (d: number, offset: number) => {
    if (d === shape.length) {
      data[offset] = values[k++];
      return;
    }
    for (const i of dims[d].idx) rec(d + 1, offset + i * strides[d]);
  };
  rec(0, 0);
}

const dimSelection = (n: number, allowDuplicates: boolean): fc.Arbitrary<DimSelection> => {
  const options: fc.Arbitrary<DimSelection>[] = [
    fc.constant(null),
    fc.record({
      start: fc.option(fc.integer({ min: -n - 2, max: n + 2 })),
      stop: fc.option(fc.integer({ min: -n - 2, max: n + 2 })),
      step: fc.option(fc.integer({ min: -3, max: 3 }).filter((s) => s !== 0)),
    }).map(({ start, stop, step }) => slice(start, stop, step ?? 1)),
  ];
  if (n > 0) {
    options.push(fc.integer({ min: -n, max: n - 1 }));
    options.push(
      allowDuplicates
        ? fc.array(fc.integer({ min: -n, max: n - 1 }), { maxLength: 6 })
        : fc.uniqueArray(fc.integer({ min: 0, max: n - 1 }), { maxLength: n }),
    );
    options.push(fc.array(fc.boolean(), { minLength: n, maxLength: n }).filter((m) => m.some(Boolean)));
  }
  return fc.oneof(...options);
};

const arrayCase = (allowDuplicates: boolean) =>
  fc
    .array(fc.integer({ min: 0, max: 7 }), { minLength: 0, maxLength: 4 })
    .chain((shape) =>
      fc.record({
        shape: fc.constant(shape),
        chunks: fc.tuple(...shape.map(() => fc.integer({ min: 1, max: 5 }))),
        selection: fc.tuple(...shape.map((n) => dimSelection(n, allowDuplicates))),
        transpose: fc.boolean(),
      }),
    );

async function makeArray(shape: number[], chunks: number[], transpose: boolean) {
  const store = new MemoryStore();
  const codecs: { name: string; configuration?: Record<string, unknown> }[] = [];
  if (transpose && shape.length > 1) codecs.push({ name: "transpose", configuration: { order: [...shape.keys()].reverse() } });
  codecs.push({ name: "bytes", configuration: { endian: "little" } });
  const arr = await createArray(store, "a", {
    shape,
    chunkShape: chunks,
    dataType: "int32",
    fillValue: -1,
    codecs: codecs as never,
  });
  const n = shape.reduce((a, b) => a * b, 1);
  const data = Array.from({ length: n }, (_, i) => i * 7 + 3);
  await set(arr, null, Int32Array.from(data));
  return { arr, data, store };
}

describe("orthogonal indexing matches a reference model", () => {
  it("get", async () => {
    await fc.assert(
      fc.asyncProperty(arrayCase(true), async ({ shape, chunks, selection, transpose }) => {
        const { arr, data } = await makeArray(shape, chunks, transpose);
        const result = await get(arr, selection as Selection);
        const expected = refGet(data, shape, selection as DimSelection[]);
        expect(result.shape).toEqual(expected.shape);
        expect(Array.from(result.data as Int32Array)).toEqual(expected.values);
      }),
      { numRuns: 300 },
    );
  });

  it("set then get", async () => {
    await fc.assert(
      fc.asyncProperty(arrayCase(false), fc.integer({ min: 1, max: 1000 }), async ({ shape, chunks, selection, transpose }, seed) => {
        const { arr, data } = await makeArray(shape, chunks, transpose);
        const sel = selection as DimSelection[];
        const target = refGet(data, shape, sel);
        const values = target.values.map((_, i) => seed * 1000 + i);
        await set(arr, sel, { data: Int32Array.from(values), shape: target.shape });
        refSet(data, shape, sel, values);
        const after = await get(arr, null);
        expect(Array.from(after.data as Int32Array)).toEqual(data);
      }),
      { numRuns: 300 },
    );
  });
});

describe("selections", () => {
  it("ellipsis, negative steps and masks", async () => {
    const { arr, data } = await makeArray([4, 5, 6], [3, 2, 4], false);
    const r = await get(arr, ["...", slice(null, null, -2)]);
    expect(r.shape).toEqual([4, 5, 3]);
    expect(Array.from(r.data as Int32Array)).toEqual(refGet(data, [4, 5, 6], [null, null, slice(null, null, -2)]).values);
    const m = await get(arr, [mask(new Uint8Array([1, 0, 0, 1])), 2]);
    expect(m.shape).toEqual([2, 6]);
    expect(Array.from(m.data as Int32Array)).toEqual(refGet(data, [4, 5, 6], [[true, false, false, true], 2]).values);
  });

  it("parses selection strings", () => {
    expect(parseSelection("0:10, ::2, 5")).toEqual([slice(0, 10), slice(null, null, 2), 5]);
    expect(parseSelection("..., [1, 3], -1")).toEqual(["...", [1, 3], -1]);
    expect(parseSelection("::-1")).toEqual([slice(null, null, -1)]);
    expect(parseSelection("[true,false]")).toEqual([[true, false]]);
    expect(() => parseSelection("a:b")).toThrow(ZarrError);
  });

  it("rejects out-of-range and malformed selections with codes", async () => {
    const { arr } = await makeArray([4, 5], [2, 2], false);
    const codeOf = (p: Promise<unknown>) => p.then(() => "ok", (e: ZarrError) => e.code);
    expect(await codeOf(get(arr, [4]))).toBe("OUT_OF_BOUNDS");
    expect(await codeOf(get(arr, [-5]))).toBe("OUT_OF_BOUNDS");
    expect(await codeOf(get(arr, [[0, 9]]))).toBe("OUT_OF_BOUNDS");
    expect(await codeOf(get(arr, [0, 0, 0]))).toBe("INVALID_SELECTION");
    expect(await codeOf(get(arr, [slice(0, 2, 0)]))).toBe("INVALID_SELECTION");
    expect(await codeOf(get(arr, [[true, false]]))).toBe("INVALID_SELECTION");
    expect(await codeOf(get(arr, ["...", "..."]))).toBe("INVALID_SELECTION");
    expect(await codeOf(get(arr, [1.5]))).toBe("INVALID_SELECTION");
    // Entries that are no selection at all go to the resolver loaded for index arrays and masks.
    expect(await codeOf(get(arr, ["a" as never]))).toBe("INVALID_SELECTION");
    expect(await codeOf(get(arr, [slice(0, 2), { kind: "ranges" } as never]))).toBe("INVALID_SELECTION");
    expect(((await get(arr, [null, true as never]).catch((x: ZarrError) => x)) as ZarrError).message).toMatch(/Cannot select dimension 1 with true/);
    const e = await get(arr, [4]).catch((x: ZarrError) => x);
    expect((e as ZarrError).message).toMatch(/Index 4 is out of bounds for dimension 0 of length 4/);
  });
});

describe("set", () => {
  it("broadcasts scalars and arrays, and deletes chunks that become all fill value", async () => {
    const store = new MemoryStore();
    const arr = await createArray(store, "b", { shape: [4, 6], chunkShape: [2, 3], dataType: "float64", fillValue: Number.NaN });
    await set(arr, null, 1.5);
    expect(store.keys().filter((k) => k.startsWith("b/c/"))).toHaveLength(4);
    await set(arr, [slice(0, 2), slice(0, 3)], Number.NaN);
    expect(store.keys()).not.toContain("b/c/0/0");
    await set(arr, [slice(2, 4)], { data: new Float64Array([1, 2, 3, 4, 5, 6]), shape: [6] });
    const r = await get(arr);
    expect(Array.from(r.data as Float64Array)).toEqual([
      Number.NaN, Number.NaN, Number.NaN, 1.5, 1.5, 1.5,
      Number.NaN, Number.NaN, Number.NaN, 1.5, 1.5, 1.5,
      1, 2, 3, 4, 5, 6,
      1, 2, 3, 4, 5, 6,
    ]);
    await set(arr, null, Number.NaN);
    expect(store.keys().filter((k) => k.startsWith("b/c/"))).toHaveLength(0);
    await set(arr, null, Number.NaN, { writeEmptyChunks: true });
    expect(store.keys().filter((k) => k.startsWith("b/c/"))).toHaveLength(4);
  });

  it("converts foreign storage and refuses shape mismatches", async () => {
    const store = new MemoryStore();
    const arr = await createArray(store, "c", { shape: [3], chunkShape: [2], dataType: "int64", fillValue: 0 });
    await set(arr, null, [1, 2, 3]);
    expect(Array.from((await get(arr)).data as BigInt64Array)).toEqual([1n, 2n, 3n]);
    await set(arr, [1], 9007199254740993n);
    expect((await get(arr, [1])).data[0]).toBe(9007199254740993n);
    const err = await set(arr, null, [1, 2]).catch((e: ZarrError) => e);
    expect(err).toBeInstanceOf(ZarrError);
    expect((err as ZarrError).code).toBe("INVALID_ARGUMENT");
    const err2 = await set(arr, null, { data: new BigInt64Array(2), shape: [2] }).catch((e: ZarrError) => e);
    expect((err2 as ZarrError).code).toBe("INVALID_ARGUMENT");
  });

  it("honours AbortSignal and reports progress", async () => {
    const store = new MemoryStore();
    const arr = await createArray(store, "d", { shape: [100], chunkShape: [10], dataType: "uint8", fillValue: 0 });
    const seen: number[] = [];
    await set(arr, null, 7, { onProgress: (p) => seen.push(p.done), concurrency: 3 });
    expect(seen).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 10]);
    const controller = new AbortController();
    controller.abort();
    const err = await get(arr, null, { signal: controller.signal }).catch((e: ZarrError) => e);
    expect((err as ZarrError).code).toBe("ABORTED");
  });
});

describe("scatter reads straight into the result", () => {
  it("give the same values as decoding, for random selections", async () => {
    const store = new MemoryStore();
    const arr = await createArray(store, "s", { shape: [40, 300], chunkShape: [7, 128], dataType: "float64", fillValue: -1 });
    const values = Float64Array.from({ length: 40 * 300 }, (_, i) => i * 0.5);
    await set(arr, [slice(0, 35)], { data: values.subarray(0, 35 * 300), shape: [35, 300] });
    let scatterCalls = 0;
    const counting = new Proxy(store, {
      get(target, prop, receiver) {
        if (prop === "readInto") {
          return (...args: Parameters<MemoryStore["readInto"]>) => {
            scatterCalls++;
            return target.readInto(...args);
          };
        }
        return Reflect.get(target, prop, receiver);
      },
    });
    const plain = { get: store.get.bind(store) };
    const direct = await openArray(counting, "s");
    const decoded = await openArray(plain, "s");
    await fc.assert(
      fc.asyncProperty(
        fc.tuple(
          fc.oneof(fc.constant(null), fc.record({ a: fc.integer({ min: 0, max: 40 }), b: fc.integer({ min: 0, max: 40 }) }).map(({ a, b }) => slice(Math.min(a, b), Math.max(a, b)))),
          fc.record({ a: fc.integer({ min: 0, max: 300 }), b: fc.integer({ min: 0, max: 300 }) }).map(({ a, b }) => slice(Math.min(a, b), Math.max(a, b))),
        ),
        async (sel) => {
          const x = await get(direct, sel);
          const y = await get(decoded, sel);
          expect(x.shape).toEqual(y.shape);
          expect(Buffer.compare(Buffer.from((x.data as Float64Array).buffer), Buffer.from((y.data as Float64Array).buffer))).toBe(0);
        },
      ),
      { numRuns: 100 },
    );
    expect(scatterCalls).toBeGreaterThan(0);
  });
});

describe("reads only what a selection touches", () => {
  it("a sub-selection reads (and decodes) only the chunks it overlaps", async () => {
    const store = new MemoryStore();
    const arr = await createArray(store, "big", { shape: [100, 100], chunkShape: [10, 10], dataType: "uint16", codecs: ["bytes"] });
    await set(arr, null, 1);
    const seen: string[] = [];
    const spy = new Proxy(store, {
      get(target, prop, receiver) {
        const v = Reflect.get(target, prop, receiver);
        if ((prop === "get" || prop === "readInto") && typeof v === "function") {
          return (key: string, ...rest: unknown[]) => {
            if (key.includes("/c/")) seen.push(key);
            return v.call(target, key, ...rest);
          };
        }
        return v;
      },
    });
    const again = await openArray(spy, "big");
    await get(again, [slice(15, 32), slice(95, 100)]);
    expect(seen.sort()).toEqual(["big/c/1/9", "big/c/2/9", "big/c/3/9"]);
    seen.length = 0;
    await get(again, [[5, 55], 0]);
    expect(seen.sort()).toEqual(["big/c/0/0", "big/c/5/0"]);
  });
});

describe("get into a caller's buffer (options.out)", () => {
  it("overwrites every element, also where chunks are missing, on both read paths", async () => {
    const store = new MemoryStore();
    const arr = await createArray(store, "o", { shape: [20, 30], chunkShape: [8, 8], dataType: "int32", fillValue: 0 });
    const values = Int32Array.from({ length: 20 * 30 }, (_, i) => i + 1);
    await set(arr, [slice(0, 8)], { data: values.subarray(0, 8 * 30), shape: [8, 30] }); // rows 8.. stay missing
    const scatter = await openArray(store, "o");
    const decode = await openArray({ get: store.get.bind(store) }, "o");
    for (const node of [scatter, decode]) {
      const fresh = await get(node, [slice(3, 17), slice(5, 29)]);
      const out = new Int32Array(14 * 24).fill(-7); // stale contents must not survive
      const got = await get(node, [slice(3, 17), slice(5, 29)], { out });
      expect(got.data).toBe(out);
      expect(got.shape).toEqual([14, 24]);
      expect(Array.from(out)).toEqual(Array.from(fresh.data as Int32Array));
      expect(out.includes(-7)).toBe(false);
    }
  });

  it("rejects a buffer of the wrong type or size with INVALID_ARGUMENT", async () => {
    const arr = await createArray(new MemoryStore(), "o", { shape: [4, 4], chunkShape: [2, 2], dataType: "float32" });
    await expect(get(arr, null, { out: new Float64Array(16) })).rejects.toMatchObject({
      code: "INVALID_ARGUMENT",
      message: expect.stringContaining("Float32Array"),
    });
    await expect(get(arr, [0], { out: new Float32Array(16) })).rejects.toMatchObject({
      code: "INVALID_ARGUMENT",
      message: expect.stringContaining("needs 4"),
    });
  });
});
