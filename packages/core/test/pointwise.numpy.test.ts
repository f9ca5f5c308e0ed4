/**
 * Pointwise selections against NumPy itself (Debian's /usr/bin/python3): random arrays,
 * broadcasting index arrays (negative and repeated indices) and masks; NumPy computes
 * `a[i0, i1, …]`, `a[mask]`, `a[i0, i1, …] = v` and `a[mask] = v` (repeated points:
 * NumPy's last-wins assignment), and our results must equal its.
 */
import { execFileSync } from "node:child_process";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { requirePythonZarr } from "../../../scripts/test-env.mjs";
import { createArray, get, getCoordinates, getMask, MemoryStore, set, setCoordinates, setMask } from "../src/index.js";
import { coordinatesFor, maskFor, type ModelIndex, modelPoints } from "./pointwise-model.js";

const PYTHON = `
import json, sys
import numpy as np
cases = json.load(sys.stdin)
out = []
for c in cases:
    a = np.array(c["data"], dtype=np.int32).reshape(c["shape"])
    if c["kind"] == "coords":
        sel = tuple(np.array(x["data"], dtype=np.int64).reshape(x["shape"]) if isinstance(x, dict) else (np.array(x, dtype=np.int64) if isinstance(x, list) else x) for x in c["index"])
    else:
        sel = np.array(c["mask"], dtype=bool).reshape(c["shape"])
    got = a[sel]
    b = a.copy()
    b[sel] = np.array(c["values"], dtype=np.int32).reshape(got.shape)
    out.append({"shape": list(got.shape), "values": got.ravel().tolist(), "after": b.ravel().tolist()})
json.dump(out, sys.stdout)
`;

interface Case {
  shape: number[];
  chunks: number[];
  data: number[];
  kind: "coords" | "mask";
  index?: ModelIndex[];
  mask?: boolean[];
  values: number[];
}

/** Random cases from a fixed seed: shapes up to 4 × 5 × 6, chunks 1–4, values −50…49. */
function cases(): Case[] {
  const arb = fc
    .array(fc.integer({ min: 1, max: 6 }), { minLength: 1, maxLength: 3 })
    .chain((shape) =>
      fc.record({
        shape: fc.constant(shape),
        chunks: fc.tuple(...shape.map(() => fc.integer({ min: 1, max: 4 }))),
        seed: fc.integer({ min: 0, max: 1000 }),
        selection: fc.oneof(
          coordinatesFor(shape).map((index) => ({ kind: "coords" as const, index })),
          maskFor(shape).map((mask) => ({ kind: "mask" as const, mask })),
        ),
      }),
    );
  return fc.sample(arb, { seed: 14011, numRuns: 300 }).map(({ shape, chunks, seed, selection }) => {
    const size = shape.reduce((a, b) => a * b, 1);
    const data = Array.from({ length: size }, (_, i) => ((seed + i * 37) % 100) - 50);
    // one value per selected point (more than enough); NumPy reshapes them to the result's shape
    return { shape, chunks, data, ...selection, values: [] as number[] };
  });
}

describe("pointwise selections against NumPy's fancy indexing", () => {
  it("get and set by coordinates and by mask give NumPy's results", async () => {
    requirePythonZarr();
    const all = cases();
    // Our reads first, to size each case's values for NumPy.
    const ours: { shape: number[]; values: number[]; after: number[] }[] = [];
    for (const c of all) {
      const arr = await createArray(new MemoryStore(), "a", { shape: c.shape, chunkShape: c.chunks, dataType: "int32" });
      await set(arr, null, Int32Array.from(c.data));
      const read = c.kind === "coords" ? await getCoordinates(arr, c.index as ModelIndex[]) : await getMask(arr, { data: c.mask as boolean[], shape: c.shape });
      c.values = Array.from({ length: read.data.length }, (_, i) => 1000 + i); // distinct: repeated points must resolve like NumPy's
      const value = Int32Array.from(c.values);
      if (c.kind === "coords") await setCoordinates(arr, c.index as ModelIndex[], { data: value, shape: read.shape });
      else await setMask(arr, { data: c.mask as boolean[], shape: c.shape }, value);
      ours.push({ shape: read.shape, values: Array.from(read.data as Int32Array), after: Array.from((await get(arr, null)).data as Int32Array) });
    }
    const numpy = JSON.parse(execFileSync("/usr/bin/python3", ["-c", PYTHON], { input: JSON.stringify(all), encoding: "utf8", maxBuffer: 64 << 20 }));
    expect(numpy).toHaveLength(all.length);
    // Cases worth having: broadcasting to 2-D results, repeated points, empty selections.
    expect(ours.some((o) => o.shape.length === 2)).toBe(true);
    expect(ours.some((o) => o.values.length === 0)).toBe(true);
    const repeats = all.filter((c) => c.kind === "coords" && new Set(modelPoints(c.shape, c.index as ModelIndex[]).flat).size < c.values.length);
    expect(repeats.length).toBeGreaterThan(5);
    all.forEach((c, i) => {
      const label = JSON.stringify({ shape: c.shape, chunks: c.chunks, index: c.index, mask: c.mask });
      expect(ours[i], label).toEqual(numpy[i]);
    });
  });
});
