/**
 * Exact pyramids: every level equals numpy's reduction of the full-resolution blocks at
 * the level's total factor (2×, 4×, 8×), for every method, with NaNs (float32), an
 * integer nodata value (uint16 nodata 0, uint8 nodata 4) and partial edge blocks. The
 * reference is numpy in /usr/bin/python3, written block by block from the definitions.
 */
import { MemoryStore } from "@zarr/core";
import fc from "fast-check";
import { beforeAll, describe, expect, it } from "vitest";
import { buildPyramid, type ResamplingMethod } from "../src/index.js";
import { dataset, python, values } from "./helpers.js";

const H = 75;
const W = 93;
const FACTORS = [2, 4, 8];
const METHODS: ResamplingMethod[] = ["average", "nearest", "mode", "min", "max", "sum"];

/** Float32 with ~5% NaN (and a fully NaN 8×8 corner), uint16 with nodata 0, uint8 classes with nodata 4, a 0/1 mask. */
function inputs() {
  const rnd = fc.sample(fc.integer({ min: 0, max: 1_000_000 }), { numRuns: H * W, seed: 7 });
  const f = new Float32Array(H * W);
  const u = new Uint16Array(H * W);
  const c = new Uint8Array(H * W);
  const m = new Uint8Array(H * W);
  for (let i = 0; i < H * W; i++) {
    const r = rnd[i];
    f[i] = r % 20 === 0 ? Number.NaN : (r % 10007) / 7.3 - 500;
    u[i] = r % 9 === 0 ? 0 : 1 + (r % 60000);
    c[i] = r % 5;
    m[i] = r % 61 === 0 ? 1 : 0;
  }
  // Empty blocks at every factor: the top-left 8×8 is all NaN / all nodata.
  for (let y = 0; y < 8; y++) {
    for (let x = 0; x < 8; x++) {
      f[y * W + x] = Number.NaN;
      u[y * W + x] = 0;
      c[y * W + x] = 4;
    }
  }
  return { f, u, c, m };
}

const NUMPY = `
import json, sys, warnings
import numpy as np
warnings.simplefilter("ignore")
inp = json.load(sys.stdin)
H, W = inp["H"], inp["W"]
out = {}
def level(a, f, method, nodata, kind):
    hb, wb = -(-H // f), -(-W // f)
    res = np.empty((hb, wb))
    empty = np.nan if kind == "float" else (0 if nodata is None else nodata)
    for i in range(hb):
        for j in range(wb):
            if method == "nearest":
                # The pixel whose centre is nearest the output pixel's centre (i + 0.5) * f,
                # the one below/right on a tie; the last one that exists in a partial block.
                res[i, j] = a[min(int(np.floor((i + 0.5) * f)), H - 1), min(int(np.floor((j + 0.5) * f)), W - 1)]
                continue
            b = a[i * f:(i + 1) * f, j * f:(j + 1) * f].ravel()
            v = b[~np.isnan(b)]
            if nodata is not None:
                v = v[v != nodata]
            if method == "or":
                res[i, j] = 1.0 if np.any(v != 0) else 0.0
                continue
            if v.size == 0:
                res[i, j] = empty
                continue
            if method == "average":
                r = np.mean(v)
                res[i, j] = np.sign(r) * np.floor(np.abs(r) + 0.5) if kind != "float" else r
            elif method == "sum":
                res[i, j] = np.sum(v)
            elif method == "min":
                res[i, j] = np.min(v)
            elif method == "max":
                res[i, j] = np.max(v)
            elif method == "mode":
                vals, counts = np.unique(v, return_counts=True)
                res[i, j] = vals[np.argmax(counts)]  # ascending values: a tie goes to the smallest
    if kind == "float":
        res = res.astype(np.float32).astype(np.float64)
    elif kind == "uint16":
        res = np.clip(res, 0, 65535)
    elif kind == "uint8":
        res = np.clip(res, 0, 255)
    return [None if np.isnan(x) else float(x) for x in res.ravel()]
arrays = {}
for name, kind, nodata in (("f", "float", None), ("u", "uint16", 0), ("c", "uint8", 4), ("m", "bool", None)):
    arrays[name] = (np.array([np.nan if x is None else x for x in inp[name]], dtype=np.float64).reshape(H, W), kind, nodata)
for f in inp["factors"]:
    for method in inp["methods"]:
        for name in ("f", "u", "c"):
            a, kind, nodata = arrays[name]
            out[f"{f}:{name}_{method}"] = level(a, f, method, nodata, kind)
    a, kind, nodata = arrays["m"]
    out[f"{f}:m"] = level(a, f, "or", None, kind)
print(json.dumps(out))
`;

function sameOrBothNaN(got: number, want: number, relTol: number): boolean {
  if (Number.isNaN(got) || Number.isNaN(want)) return Number.isNaN(got) && Number.isNaN(want);
  if (relTol === 0) return got === want;
  return Math.abs(got - want) <= relTol * Math.max(Math.abs(want), 1e-30);
}

describe("pyramid levels equal numpy's reduction of the full-resolution blocks at each level's total factor", () => {
  const d = inputs();
  let ref: Record<string, Array<number | null>>;
  const stores = new Map<string, MemoryStore>();

  beforeAll(async () => {
    const json = (a: ArrayLike<number>) => Array.from(a, (v) => (Number.isNaN(v) ? null : v));
    ref = python(NUMPY, { H, W, factors: FACTORS, methods: METHODS, f: json(d.f), u: json(d.u), c: json(d.c), m: json(d.m) }) as typeof ref;
    const variables: Parameters<typeof dataset>[0] = { m: { data: Array.from(d.m, (v) => v === 1) as unknown as number[], dataType: "bool" } };
    const resampling: Record<string, ResamplingMethod> = {};
    for (const method of METHODS) {
      variables[`f_${method}`] = { data: d.f, dataType: "float32" };
      variables[`u_${method}`] = { data: d.u, dataType: "uint16", attributes: { _FillValue: 0 } };
      variables[`c_${method}`] = { data: d.c, dataType: "uint8", attributes: { _FillValue: 4 } };
      for (const name of ["f", "u", "c"]) resampling[`${name}_${method}`] = method;
    }
    const src = await dataset(variables, { shape: [H, W], chunk: [20, 20] });
    // Levels 2×, 4×, 8× in 16×16 chunks; once with whole reads, once in strips of a few output pixels.
    for (const [label, readBudget] of [["whole", undefined], ["strips", 40]] as const) {
      const dst = new MemoryStore();
      const res = await buildPyramid(src, dst, { factors: 2, minSize: 9, chunkShape: [16, 16], resampling, readBudget });
      expect(res.levels.map((l) => l.cumulative)).toEqual([1, ...FACTORS]);
      stores.set(label, dst);
    }
  }, 120_000);

  for (const method of METHODS) {
    for (const name of ["f", "u", "c"]) {
      it(`${method} of ${name === "f" ? "float32 with NaNs" : name === "u" ? "uint16 with nodata 0" : "uint8 classes with nodata 4"} at 2×, 4× and 8×`, async () => {
        // Float averages and sums: 1e-6 relative (summation order); everything else exactly.
        const tol = name === "f" && (method === "average" || method === "sum") ? 1e-6 : 0;
        for (const [label, dst] of stores) {
          for (const [i, factor] of FACTORS.entries()) {
            const got = await values(dst, `${i + 1}/${name}_${method}`);
            expect(got.shape).toEqual([Math.ceil(H / factor), Math.ceil(W / factor)]);
            const want = ref[`${factor}:${name}_${method}`].map((v) => (v === null ? Number.NaN : v));
            const bad = got.data.findIndex((v, k) => !sameOrBothNaN(v, want[k], tol));
            expect(bad, `${label} ${factor}× at ${bad}: got ${got.data[bad]}, numpy ${want[bad]}`).toBe(-1);
          }
        }
      });
    }
  }

  it("or of a boolean mask at 2×, 4× and 8×", async () => {
    for (const dst of stores.values()) {
      for (const [i, factor] of FACTORS.entries()) {
        const got = await values(dst, `${i + 1}/m`);
        expect(got.data).toEqual(ref[`${factor}:m`]);
      }
    }
  });

  it("the empty corner block is NaN / nodata at every level, and nearest takes the pixel below-right of an even block's centre", async () => {
    const dst = stores.get("whole") as MemoryStore;
    for (const [i, factor] of FACTORS.entries()) {
      expect((await values(dst, `${i + 1}/f_average`)).data[0]).toBeNaN();
      expect((await values(dst, `${i + 1}/u_mode`)).data[0]).toBe(0);
      expect((await values(dst, `${i + 1}/c_min`)).data[0]).toBe(4);
      // Output pixel (5, 6): its centre (5.5F, 6.5F) is the corner four source pixels share; the one below-right is taken.
      const nearest = (await values(dst, `${i + 1}/u_nearest`)).data;
      const [y, x] = [5.5 * factor, 6.5 * factor];
      expect(nearest[5 * Math.ceil(W / factor) + 6]).toBe(d.u[y * W + x]);
      expect(d.u[y * W + x]).not.toBe(d.u[(y - 1) * W + (x - 1)]); // the other candidate would be seen

    }
  });
});
