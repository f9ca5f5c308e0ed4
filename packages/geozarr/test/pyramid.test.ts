import { crc32cCodec } from "@zarr/codec-crc32c";
import { zlib } from "@zarr/codec-gzip";
import { shardingIndexed } from "@zarr/codec-sharding";
import { createArray, createRegistry, MemoryStore, openArray, readNodeMetadata, set } from "@zarr/core";
import { ZarrError } from "@zarr/spec";
import { v2Format } from "@zarr/v2-compat";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  buildPyramid,
  datasetAttributes,
  describeMultiscales,
  loadHierarchy,
  planPyramid,
  type Plane,
  reducePlane,
  type ResamplingMethod,
  v2Writer,
  validate,
} from "../src/index.js";
import { dataset, python, values } from "./helpers.js";

// --- An independent reference: block values collected into plain arrays, no strides. ---

function blocks(data: ArrayLike<number>, h: number, w: number, f: number): number[][][] {
  const out: number[][][] = [];
  for (let by = 0; by < Math.ceil(h / f); by++) {
    const row: number[][] = [];
    for (let bx = 0; bx < Math.ceil(w / f); bx++) {
      const vals: number[] = [];
      for (let y = by * f; y < Math.min(h, by * f + f); y++) for (let x = bx * f; x < Math.min(w, bx * f + f); x++) vals.push(data[y * w + x]);
      row.push(vals);
    }
    out.push(row);
  }
  return out;
}

function roundHalfAway(v: number): number {
  return Math.sign(v) * Math.floor(Math.abs(v) + 0.5);
}

/** What each method must produce for one block (`centre` is the nearest pixel's value). */
function reference(method: ResamplingMethod, vals: number[], centre: number, nodata: number | undefined, integer: boolean): number {
  const valid = vals.filter((v) => !Number.isNaN(v) && v !== nodata);
  const empty = nodata ?? (integer ? 0 : Number.NaN);
  switch (method) {
    case "nearest":
      return centre;
    case "average": {
      if (valid.length === 0) return empty;
      const m = valid.reduce((a, b) => a + b, 0) / valid.length;
      return integer ? roundHalfAway(m) : m;
    }
    case "sum":
      return valid.length === 0 ? empty : valid.reduce((a, b) => a + b, 0);
    case "min":
      return valid.length === 0 ? empty : Math.min(...valid);
    case "max":
      return valid.length === 0 ? empty : Math.max(...valid);
    case "or":
      return valid.some((v) => v !== 0) ? 1 : 0;
    case "mode": {
      if (valid.length === 0) return empty;
      const counts = new Map<number, number>();
      for (const v of valid) counts.set(v, (counts.get(v) ?? 0) + 1);
      let best = Number.NaN;
      let n = 0;
      for (const [v, c] of counts) if (c > n || (c === n && v < best)) [best, n] = [v, c];
      return best;
    }
  }
}

function referenceLevel(method: ResamplingMethod, data: ArrayLike<number>, h: number, w: number, f: number, nodata: number | undefined, integer: boolean): number[] {
  const out: number[] = [];
  const c = Math.floor(f / 2);
  for (const [by, row] of blocks(data, h, w, f).entries()) {
    for (const [bx, vals] of row.entries()) {
      const y = by * f + Math.min(c, h - 1 - by * f);
      const x = bx * f + Math.min(c, w - 1 - bx * f);
      out.push(reference(method, vals, data[y * w + x], nodata, integer));
    }
  }
  return out;
}

function closeOrBothNaN(a: number, b: number, tol: number): boolean {
  if (Number.isNaN(a) || Number.isNaN(b)) return Number.isNaN(a) && Number.isNaN(b);
  return Math.abs(a - b) <= tol * Math.max(1, Math.abs(b));
}

const H = 75;
const W = 93;

function testData() {
  const rnd = fc.sample(fc.integer({ min: 0, max: 1_000_000 }), { numRuns: H * W, seed: 42 });
  const f = new Float32Array(H * W);
  const u = new Uint16Array(H * W);
  const c = new Uint8Array(H * W);
  const m = new Uint8Array(H * W);
  const t = new Int16Array(3 * H * W);
  for (let i = 0; i < H * W; i++) {
    const r = rnd[i];
    f[i] = r % 13 === 0 ? Number.NaN : (r % 10007) / 7.3 - 500;
    u[i] = r % 7 === 0 ? 0 : 1 + (r % 60000);
    c[i] = r % 5; // few classes: modes with ties
    m[i] = r % 23 === 0 ? 1 : 0;
  }
  for (let i = 0; i < 3 * H * W; i++) t[i] = (rnd[i % (H * W)] % 60001) - 30000;
  // A fully NaN and a fully nodata 3×3 block, so empty blocks are exercised.
  for (let y = 0; y < 3; y++) for (let x = 0; x < 3; x++) {
    f[y * W + x] = Number.NaN;
    u[y * W + x] = 0;
  }
  return { f, u, c, m, t };
}

describe("pyramid levels against independently computed block reductions", () => {
  const methods: ResamplingMethod[] = ["average", "nearest", "mode", "min", "max", "sum", "or"];

  it.each([2, 3])("every method, factor %i, two levels, partial edge blocks, NaN and nodata", async (factor) => {
    const d = testData();
    // One variable per method and input, all in one pyramid.
    const inputs = [
      ["f", d.f, "float32", undefined, false],
      ["u", d.u, "uint16", 0, true],
      ["c", d.c, "uint8", undefined, true],
    ] as const;
    const variables: Parameters<typeof dataset>[0] = { m: { data: Array.from(d.m, (v) => v === 1) as unknown as number[], dataType: "bool" } };
    const resampling: Record<string, ResamplingMethod> = {};
    for (const method of methods.filter((m) => m !== "or")) {
      for (const [name, data, dataType, nodata] of inputs) {
        variables[`${name}_${method}`] = { data, dataType, attributes: nodata === undefined ? {} : { _FillValue: nodata } };
        resampling[`${name}_${method}`] = method;
      }
    }
    const src = await dataset(variables, { shape: [H, W] });
    const dst = new MemoryStore();
    const res = await buildPyramid(src, dst, { factors: factor, minSize: 8, resampling });
    expect(res.levels.length).toBeGreaterThanOrEqual(3);
    expect(res.variables.find((v) => v.name === "m")?.resampling).toBe("or");
    for (const method of methods.filter((m) => m !== "or")) {
      for (const [name, src0, , nodata, integer] of inputs) {
        let prev: ArrayLike<number> = src0;
        let [h, w] = [H, W];
        for (let level = 1; level <= 2; level++) {
          const expected = referenceLevel(method, prev, h, w, factor, nodata, integer);
          [h, w] = [Math.ceil(h / factor), Math.ceil(w / factor)];
          const got = await values(dst, `${level}/${name}_${method}`);
          expect(got.shape).toEqual([h, w]);
          const tol = method === "average" && !integer ? 1e-6 : 0;
          const cast = name === "f" ? (v: number) => Math.fround(v) : name === "u" ? (v: number) => Math.min(65535, v) : (v: number) => Math.min(255, v);
          const bad = got.data.findIndex((v, i) => !closeOrBothNaN(v, cast(expected[i]), tol));
          expect(bad, `${method} ${name} level ${level} at ${bad}: got ${got.data[bad]}, expected ${expected[bad]}`).toBe(-1);
          prev = Float64Array.from(got.data);
        }
      }
    }
    // The boolean mask with logical or.
    const mask = await values(dst, "1/m");
    expect(mask.data).toEqual(referenceLevel("or", d.m, H, W, factor, undefined, true));
  });

  it("a 3-D (band, y, x) variable is reduced band by band", async () => {
    const d = testData();
    const src = await dataset({ t: { data: d.t, dataType: "int16", shape: [3, H, W], dims: ["band", "y", "x"] } }, { shape: [H, W], chunk: [1, 16, 16] });
    for (const method of ["min", "max", "sum", "average"] as ResamplingMethod[]) {
      const dst = new MemoryStore();
      await buildPyramid(src, dst, { minSize: 20, resampling: method });
      const got = await values(dst, "1/t");
      expect(got.shape).toEqual([3, Math.ceil(H / 2), Math.ceil(W / 2)]);
      const per = Math.ceil(H / 2) * Math.ceil(W / 2);
      for (let b = 0; b < 3; b++) {
        const expected = referenceLevel(method, d.t.subarray(b * H * W, (b + 1) * H * W), H, W, 2, undefined, true).map((v) => Math.max(-32768, Math.min(32767, v)));
        expect(got.data.slice(b * per, (b + 1) * per)).toEqual(expected);
      }
      // The band coordinate is carried to every level.
      expect((await values(dst, "1/band")).data).toEqual([1, 2, 3]);
    }
  });

  it("matches numpy's block reductions (nanmean, nanmin, nanmax, nansum, unique-count mode) within 1e-6", async () => {
    const d = testData();
    const code = `
import json, sys, numpy as np
inp = json.load(sys.stdin)
H, W, f = inp["H"], inp["W"], inp["factor"]
def blocks(a):
    hb, wb = -(-H // f), -(-W // f)
    p = np.full((hb * f, wb * f), np.nan)
    p[:H, :W] = a
    return p.reshape(hb, f, wb, f).transpose(0, 2, 1, 3).reshape(hb, wb, f * f)
out = {}
for name, nodata, integer in (("f", None, False), ("u", 0, True)):
    a = np.array([np.nan if v is None else v for v in inp[name]], dtype=np.float64).reshape(H, W)
    if nodata is not None:
        a[a == nodata] = np.nan
    b = blocks(a)
    empty = np.all(np.isnan(b), axis=2)
    fill = np.nan if nodata is None else nodata
    with np.errstate(all="ignore"):
        import warnings; warnings.simplefilter("ignore")
        mean = np.nanmean(b, axis=2)
        res = {"average": mean, "min": np.nanmin(b, axis=2), "max": np.nanmax(b, axis=2), "sum": np.nansum(b, axis=2)}
    if integer:
        res["average"] = np.sign(mean) * np.floor(np.abs(mean) + 0.5)
    mode = np.empty(empty.shape)
    for i in range(b.shape[0]):
        for j in range(b.shape[1]):
            v = b[i, j][~np.isnan(b[i, j])]
            if v.size == 0: mode[i, j] = fill; continue
            u, c = np.unique(v, return_counts=True)
            mode[i, j] = u[np.argmax(c)]
    res["mode"] = mode
    for k in res:
        r = np.where(empty, fill, res[k])
        if not integer: r = r.astype(np.float32).astype(np.float64)
        out[name + ":" + k] = [None if np.isnan(x) else float(x) for x in r.ravel()]
print(json.dumps(out))
`;
    const toJson = (a: ArrayLike<number>) => Array.from(a, (v) => (Number.isNaN(v) ? null : v));
    const ref = python(code, { H, W, factor: 2, f: toJson(d.f), u: toJson(d.u) }) as Record<string, Array<number | null>>;
    const numpyMethods: ResamplingMethod[] = ["average", "min", "max", "sum", "mode"];
    const vars: Parameters<typeof dataset>[0] = {};
    const resampling: Record<string, ResamplingMethod> = {};
    for (const method of numpyMethods) {
      vars[`f_${method}`] = { data: d.f, dataType: "float32" };
      vars[`u_${method}`] = { data: d.u, dataType: "uint16", attributes: { _FillValue: 0 } };
      resampling[`f_${method}`] = method;
      resampling[`u_${method}`] = method;
    }
    const dst = new MemoryStore();
    await buildPyramid(await dataset(vars, { shape: [H, W] }), dst, { minSize: 30, resampling });
    for (const method of numpyMethods) {
      for (const name of ["f", "u"]) {
        const got = await values(dst, `1/${name}_${method}`);
        const expected = ref[`${name}:${method}`].map((v) => (v === null ? Number.NaN : v));
        const cast = name === "u" ? (v: number) => Math.min(65535, v) : (v: number) => v;
        const bad = got.data.findIndex((v, i) => !closeOrBothNaN(v, cast(expected[i]), 1e-6));
        expect(bad, `${method} ${name} at ${bad}: got ${got.data[bad]}, numpy ${expected[bad]}`).toBe(-1);
      }
    }
  });
});

describe("pyramid metadata, planning, chunking, progress and cancellation", () => {
  it("plans levels: factor lists, the minimum size, exact shapes and transforms", () => {
    const t = [10, 0, 600000, 0, -10, 5300040] as const;
    const plan = planPyramid({ shape: [10980, 10980], transform: t, factors: [2, 3, 2, 3, 2], minSize: 100 });
    expect(plan.map((l) => l.shape)).toEqual([[10980, 10980], [5490, 5490], [1830, 1830], [915, 915], [305, 305], [153, 153]]);
    expect(plan.map((l) => l.cumulative)).toEqual([1, 2, 6, 12, 36, 72]);
    expect(plan[5].transform).toEqual([720, 0, 600000, 0, -720, 5300040]);
    // A single factor repeats until the next level would be below minSize (default 256).
    expect(planPyramid({ shape: [10980, 10980] }).map((l) => l.shape[0])).toEqual([10980, 5490, 2745, 1373, 687, 344]);
    expect(planPyramid({ shape: [100, 5000], minSize: 10, factors: 3 }).map((l) => l.shape)).toEqual([[100, 5000], [34, 1667], [12, 556]]);
    // Chunks are capped at the level; shards at the level rounded up to whole chunks.
    const sharded = planPyramid({ shape: [3000, 1000], chunkShape: [256, 256], shardShape: [1024, 1024], minSize: 200 });
    expect(sharded.map((l) => [l.chunkShape, l.shardShape])).toEqual([
      [[256, 256], [1024, 1024]],
      [[256, 256], [1024, 512]],
      [[256, 250], [768, 250]],
    ]);
    expect(() => planPyramid({ shape: [10, 10], factors: [1] })).toThrow(ZarrError);
    expect(() => planPyramid({ shape: [10, 10], chunkShape: [4, 4], shardShape: [6, 8] })).toThrow(/multiple/);
  });

  it("writes exact spatial:shape, spatial:transform, relative transforms and the resampling of every level", async () => {
    const d = testData();
    const src = await dataset(
      { f: { data: d.f, dataType: "float32" }, c: { data: d.c, dataType: "uint8" } },
      { shape: [H, W], transform: [0.25, 0, -10, 0, -0.25, 50], code: "EPSG:4326" },
    );
    const dst = new MemoryStore();
    const res = await buildPyramid(src, dst, { factors: [2, 3], minSize: 5, resampling: { f: "average", c: "mode" }, levelName: (l) => `L${l.index}` });
    const root = await readNodeMetadata(dst, "");
    const ms = root?.attributes.multiscales as { layout: Record<string, unknown>[]; resampling_method: string };
    expect(ms.layout).toEqual([
      { asset: "L0", transform: { scale: [1, 1], translation: [0, 0] }, "spatial:shape": [75, 93], "spatial:transform": [0.25, 0, -10, 0, -0.25, 50] },
      {
        asset: "L1",
        derived_from: "L0",
        transform: { scale: [2, 2], translation: [0, 0] },
        resampling_method: "average",
        "spatial:shape": [38, 47],
        "spatial:transform": [0.5, 0, -10, 0, -0.5, 50],
        resampling_methods: { f: "average", c: "mode" },
      },
      {
        asset: "L2",
        derived_from: "L1",
        transform: { scale: [3, 3], translation: [0, 0] },
        resampling_method: "average",
        "spatial:shape": [13, 16],
        "spatial:transform": [1.5, 0, -10, 0, -1.5, 50],
        resampling_methods: { f: "average", c: "mode" },
      },
    ]);
    expect(root?.attributes["proj:code"]).toBe("EPSG:4326");
    expect(root?.attributes["spatial:bbox"]).toEqual([-10, 31.25, 13.25, 50]);
    expect(res.variables).toEqual([
      { name: "c", resampling: "mode" },
      { name: "f", resampling: "average" },
    ]);
    // Every level is a Dataset: CRS, transform, shape, coordinates (pixel centres).
    const l2 = await readNodeMetadata(dst, "L2");
    expect(l2?.attributes["spatial:transform"]).toEqual([1.5, 0, -10, 0, -1.5, 50]);
    expect((await values(dst, "L2/x")).data.slice(0, 3)).toEqual([-9.25, -7.75, -6.25]);
    expect((await values(dst, "L2/y")).data.slice(0, 2)).toEqual([49.25, 47.75]);
    const report = await validate(dst);
    expect(report.findings).toEqual([]);
    const h = await loadHierarchy(dst);
    expect(describeMultiscales(h).levels.map((l) => [l.asset, l.shape, l.resolution, l.variables])).toEqual([
      ["L0", [75, 93], [0.25, 0.25], ["c", "f"]],
      ["L1", [38, 47], [0.5, 0.5], ["c", "f"]],
      ["L2", [13, 16], [1.5, 1.5], ["c", "f"]],
    ]);
  });

  it("plans chunks per level, shards when asked, and the data is the same either way", async () => {
    const d = testData();
    const src = await dataset({ u: { data: d.u, dataType: "uint16", attributes: { _FillValue: 0 } } }, { shape: [H, W] });
    const registry = createRegistry([shardingIndexed, crc32cCodec]);
    const plain = new MemoryStore();
    const sharded = new MemoryStore();
    await buildPyramid(src, plain, { minSize: 10, chunkShape: [16, 16] });
    await buildPyramid(src, sharded, { minSize: 10, chunkShape: [16, 16], shardShape: [32, 64], registry });
    for (const level of ["0", "1", "2", "3"]) {
      const a = await openArray(plain, `${level}/u`);
      const b = await openArray(sharded, `${level}/u`, { registry });
      expect(a.chunkShape).toEqual([Math.min(16, a.shape[0]), Math.min(16, a.shape[1])]);
      expect(b.metadata.codecs[0].name).toBe("sharding_indexed");
      expect(b.metadata.codecs[0].configuration.chunk_shape).toEqual(a.chunkShape);
      expect((await values(plain, `${level}/u`)).data).toEqual((await values(sharded, `${level}/u`, registry)).data);
    }
    expect((await openArray(sharded, "0/u", { registry })).chunkShape).toEqual([32, 64]);
    expect((await openArray(sharded, "3/u", { registry })).chunkShape).toEqual([10, 12]);
  });

  it("reports progress chunk by chunk and stops on abort", async () => {
    const d = testData();
    const src = await dataset({ u: { data: d.u, dataType: "uint16" } }, { shape: [H, W] });
    const seen: number[] = [];
    let total = 0;
    await buildPyramid(src, new MemoryStore(), { minSize: 10, chunkShape: [16, 16], onProgress: (p) => { seen.push(p.done); total = p.total; } });
    // 5×6 + 3×3 + 2×2 + 1×1 chunks of 16×16 over levels 75×93, 38×47, 19×24, 10×12.
    expect(total).toBe(30 + 9 + 4 + 1);
    expect(seen).toEqual(Array.from({ length: total }, (_, i) => i + 1));
    const controller = new AbortController();
    const dst = new MemoryStore();
    const run = buildPyramid(src, dst, { minSize: 10, chunkShape: [16, 16], concurrency: 1, signal: controller.signal, onProgress: (p) => { if (p.done === 5) controller.abort(); } });
    await expect(run).rejects.toMatchObject({ code: "ABORTED" });
    expect(dst.keys().filter((k) => k.startsWith("1/u/c/"))).toEqual([]);
  });

  it("refuses what it cannot build", async () => {
    const src = await dataset({ z: { data: new Float32Array(8), dataType: "complex64", shape: [2, 2] } }, { shape: [2, 2] });
    await expect(buildPyramid(src, new MemoryStore())).rejects.toThrow(/data type complex64/);
    const ok = await dataset({ u: { data: new Uint16Array(4), dataType: "uint16", shape: [2, 2] } }, { shape: [2, 2] });
    await expect(buildPyramid(ok, new MemoryStore(), { variables: ["nope"] })).rejects.toThrow(/"nope"/);
    const target = new MemoryStore();
    await buildPyramid(ok, target);
    await expect(buildPyramid(ok, target)).rejects.toMatchObject({ code: "NODE_EXISTS" });
    await expect(buildPyramid(ok, new MemoryStore(), { resampling: "bilinear" })).rejects.toThrow(/Unknown resampling/);
  });
});

describe("reducePlane on strided planes", () => {
  it("equals the reference for random planes, factors, strides and methods", () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 13 }),
        fc.integer({ min: 1, max: 13 }),
        fc.integer({ min: 2, max: 4 }),
        fc.constantFrom<ResamplingMethod>("average", "nearest", "mode", "min", "max", "sum", "or"),
        fc.boolean(),
        fc.integer({ min: 0, max: 1 << 30 }),
        (h, w, f, method, transposed, seed) => {
          const vals = fc.sample(fc.integer({ min: -5, max: 5 }), { numRuns: h * w, seed });
          const data = Float64Array.from(vals);
          // The same values laid out column-major when `transposed`.
          const src: Plane = transposed
            ? { data: Float64Array.from({ length: h * w }, (_, k) => data[(k % h) * w + Math.floor(k / h)]), offset: 0, height: h, width: w, rowStride: 1, colStride: h }
            : { data, offset: 0, height: h, width: w, rowStride: w, colStride: 1 };
          const oh = Math.ceil(h / f);
          const ow = Math.ceil(w / f);
          const out = new Float64Array(oh * ow + 3);
          reducePlane(src, { data: out, offset: 3, height: oh, width: ow, rowStride: ow, colStride: 1 }, { method, fy: f, fx: f, nodata: 0 });
          const expected = referenceLevel(method, data, h, w, f, 0, false);
          return expected.every((v, i) => closeOrBothNaN(out[3 + i], v, 1e-12));
        },
      ),
      { numRuns: 300 },
    );
  });
});

describe("a bare georeferenced array as the source", () => {
  it("becomes a one-variable pyramid named data", async () => {
    const store = new MemoryStore();
    const attrs = datasetAttributes({ crs: { code: "EPSG:3857" }, spatial: { dimensions: ["y", "x"], transform: [1, 0, 0, 0, -1, 0], shape: [20, 30] } });
    const a = await createArray(store, "", { shape: [20, 30], dataType: "int16", dimensionNames: ["y", "x"], attributes: attrs });
    await set(a, null, Int16Array.from({ length: 600 }, (_, i) => i));
    const dst = new MemoryStore();
    const r = await buildPyramid(store, dst, { minSize: 5, resampling: "max" });
    expect(r.variables).toEqual([{ name: "data", resampling: "max" }]);
    expect((await values(dst, "1/data")).data.slice(0, 2)).toEqual([31, 33]);
  });
});

describe("sourceIsLevelZero", () => {
  it("keeps the source as level 0 and builds only the other levels from it", async () => {
    const data = Float32Array.from({ length: 64 * 64 }, (_, i) => (i * 37) % 101);
    const store = await dataset({ t: { data, dataType: "float32" } }, { shape: [64, 64], chunk: [16, 16] });
    // Move the Dataset under "p/0", where level 0 goes.
    const moved = new MemoryStore();
    for (const [k, v] of (store as MemoryStore).map) moved.map.set(`p/0/${k}`, v);
    const before = new Map(moved.map);
    const result = await buildPyramid(moved, moved, { sourcePath: "p/0", targetPath: "p", sourceIsLevelZero: true, chunkShape: [16, 16], minSize: 16, overwrite: true });
    expect(result.levels.map((l) => l.shape)).toEqual([[64, 64], [32, 32], [16, 16]]);
    for (const [k, v] of before) if (!k.endsWith("zarr.json")) expect(moved.map.get(k)).toBe(v); // level 0 chunks untouched
    expect((await values(moved, "p/1/t")).data[0]).toBeCloseTo((data[0] + data[1] + data[64] + data[65]) / 4, 4);
    const report = await validate(moved);
    expect(report.findings.filter((f) => f.severity === "error")).toEqual([]);
  });

  it("refuses a source that is not level 0 as planned", async () => {
    const data = new Float32Array(64 * 64);
    const store = await dataset({ t: { data, dataType: "float32" } }, { shape: [64, 64], chunk: [16, 16] });
    await expect(buildPyramid(store, store, { targetPath: "p", sourceIsLevelZero: true, chunkShape: [16, 16] })).rejects.toMatchObject({
      code: "INVALID_ARGUMENT",
      message: expect.stringContaining('must be the Dataset at "p/0"'),
    });
    const moved = new MemoryStore();
    for (const [k, v] of (store as MemoryStore).map) moved.map.set(`p/0/${k}`, v);
    await expect(buildPyramid(moved, moved, { sourcePath: "p/0", targetPath: "p", sourceIsLevelZero: true, chunkShape: [32, 32] })).rejects.toMatchObject({
      code: "INVALID_ARGUMENT",
      message: expect.stringContaining("level 0 is planned with 32×32"),
    });
    await expect(buildPyramid(moved, new MemoryStore(), { sourcePath: "p/0", targetPath: "p", sourceIsLevelZero: true, chunkShape: [16, 16] })).rejects.toMatchObject({
      code: "INVALID_ARGUMENT",
    });
  });

  it("writes Zarr v2 through core's createArray/createGroup with zarrFormat 2 (v2Writer), the same values as Zarr v3", async () => {
    const d = testData();
    const src = await dataset({ f: { data: d.f, dataType: "float32" }, u: { data: d.u, dataType: "uint16" } }, { shape: [H, W], transform: [30, 0, 300000, 0, -30, 4500000] });
    const registry = createRegistry([zlib, v2Format]);
    const v2Store = new MemoryStore();
    const v3Store = new MemoryStore();
    const options = { factors: 2, minSize: 15, chunkShape: [16, 16] as [number, number], registry };
    const r2 = await buildPyramid(src, v2Store, { ...options, writer: v2Writer({ registry }) });
    await buildPyramid(src, v3Store, options);
    expect(r2.format).toBe(2);
    expect(r2.levels.map((l) => l.asset)).toEqual(["0", "1", "2"]);
    const keys = [...v2Store.map.keys()];
    expect(keys.filter((k) => k.endsWith("zarr.json"))).toEqual([]);
    expect(keys).toEqual(expect.arrayContaining([".zgroup", ".zattrs", ".zmetadata", "1/.zgroup", "1/f/.zarray", "1/f/.zattrs"]));
    const zarray = JSON.parse(new TextDecoder().decode(v2Store.map.get("1/u/.zarray")));
    expect(zarray).toMatchObject({ zarr_format: 2, dtype: "<u2", chunks: [16, 16], compressor: { id: "zlib", level: 1 }, dimension_separator: "/" });
    for (const level of ["0", "1", "2"]) {
      for (const v of ["f", "u"]) {
        const a2 = await openArray(v2Store, `${level}/${v}`, { registry });
        expect(a2.zarrFormat).toBe(2);
        expect(await values(v2Store, `${level}/${v}`, registry), `${level}/${v}`).toEqual(await values(v3Store, `${level}/${v}`, registry));
      }
    }
    const report = await validate(v2Store, { registry });
    expect(report.findings.filter((f) => f.severity === "error")).toEqual([]);
  });

  it("refuses v2 output with a registry that lacks the Zarr v2 format, naming @zarr/v2-compat", async () => {
    const src = await dataset({ f: { data: new Float32Array(40 * 40), dataType: "float32" } }, { shape: [40, 40] });
    const dst = new MemoryStore();
    await expect(buildPyramid(src, dst, { writer: v2Writer({ registry: createRegistry([zlib]) }), minSize: 10 })).rejects.toMatchObject({
      code: "UNSUPPORTED",
      message: expect.stringContaining("v2Format from @zarr/v2-compat"),
    });
    expect(dst.map.size).toBe(0);
  });
});
