/**
 * Live comparison with libzfp 1.0 through Debian's zfpy and zarr-python 2: random shapes
 * (1–4 dimensions, sizes that are not multiples of 4), every mode and type, smooth, sparse
 * and random-bit data; each stream must decode to exactly what zfpy's `decompress_numpy`
 * gives. Skipped with a message where Python or zfpy is missing (a failure under CI).
 */
import { execFileSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createRegistry, get, openArray, set } from "@zarr/core";
import { FileSystemStore } from "@zarr/store-fs";
import { createArrayV2, v2Format } from "@zarr/v2-compat";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { havePythonZarr, requirePeer } from "../../../scripts/test-env.mjs";
import { mulberry32 as random } from "../../../scripts/test-random.mjs";
import { type ZfpValues, zfpCompressReversible, zfpDecompress, zfpy } from "../src/index.js";
import { bytesOf, firstDifference } from "./helpers.js";
import { type ZfpyCase, type ZfpyResult, zfpyBatch } from "./python.js";

function haveZfpy(): boolean {
  if (!havePythonZarr()) return false;
  try {
    execFileSync("/usr/bin/python3", ["-c", "import zfpy, numcodecs.zfpy"], { stdio: "ignore", timeout: 30_000 });
    return true;
  } catch {
    return false;
  }
}
const PEER = "python3-zfpy (libzfp 1.0) with zarr-python 2 and numcodecs";

/** Random cases: every type × mode, random dimensionality and sizes (1–11 per axis, more for 1-D). */
function randomCases(count: number, seed: number): ZfpyCase[] {
  const next = random(seed);
  const pick = <T>(items: readonly T[]): T => items[Math.floor(next() * items.length)];
  const cases: ZfpyCase[] = [];
  const dtypes = ["float32", "float64", "int32", "int64"] as const;
  for (let i = 0; i < count; i++) {
    const dtype = dtypes[i % 4];
    const dims = 1 + Math.floor(next() * 4);
    const shape = Array.from({ length: dims }, () => 1 + Math.floor(next() * (dims === 1 ? 40 : 11)));
    // Fixed rates that leave a block at least 16 bits: below that zfpy 1.0 (Debian's) writes
    // past its buffer and crashes now and then (a 1-D float32 array at rate 1 does).
    const rates = [0.5, 1, 2.5, 4, 8, 13, 16, 32, 48, 64].filter((r) => r * 4 ** dims >= 16);
    const modes: ZfpyCase["args"][] = [
      {},
      { rate: pick(rates) },
      { precision: 1 + Math.floor(next() * 64) },
    ];
    if (dtype.startsWith("float")) modes.push({ tolerance: pick([0, 1e-12, 1e-6, 1e-3, 0.1, 10]) });
    cases.push({ dtype, shape, args: modes[Math.floor(next() * modes.length)], fill: pick(["smooth", "wild", "sparse"] as const), seed: i });
  }
  return cases;
}

const CASES = randomCases(160, 20261126);
let results: ZfpyResult[] = [];

beforeAll(() => {
  if (haveZfpy()) results = zfpyBatch(CASES);
}, 120_000);

describe("random streams from zfpy", () => {
  it("decode bit for bit like zfpy's decompress_numpy", () => {
    requirePeer(haveZfpy(), PEER);
    expect(results).toHaveLength(CASES.length);
    const failures: string[] = [];
    results.forEach((r, i) => {
      const c = CASES[i];
      try {
        const out = zfpDecompress(r.stream, { key: `case ${i}` });
        const at = firstDifference(bytesOf(out.data), r.decoded);
        if (at >= 0 || out.shape.join() !== c.shape.join()) failures.push(`${JSON.stringify(c)}: first difference at byte ${at}`);
      } catch (error) {
        failures.push(`${JSON.stringify(c)}: ${error}`);
      }
    });
    expect(failures).toEqual([]);
    // The cases did cover what they should.
    expect(new Set(CASES.map((c) => c.shape.length))).toEqual(new Set([1, 2, 3, 4]));
    expect(CASES.some((c) => c.shape.some((n) => n % 4 !== 0))).toBe(true);
  });

  it("our lossless encoding is byte for byte zfpy's", () => {
    requirePeer(haveZfpy(), PEER);
    expect(results).toHaveLength(CASES.length);
    const arrays = { float32: Float32Array, float64: Float64Array, int32: Int32Array, int64: BigInt64Array };
    const failures: string[] = [];
    results.forEach((r, i) => {
      const c = CASES[i];
      if (Object.keys(c.args).length > 0) return;
      const values = new arrays[c.dtype](r.input.slice().buffer) as ZfpValues;
      const at = firstDifference(zfpCompressReversible(values, c.shape), r.stream);
      if (at >= 0) failures.push(`${JSON.stringify(c)}: first difference at byte ${at}`);
    });
    expect(failures).toEqual([]);
  });

  it("lossless streams give the input back", () => {
    requirePeer(haveZfpy(), PEER);
    expect(results).toHaveLength(CASES.length);
    const lossless = results.filter((_, i) => Object.keys(CASES[i].args).length === 0);
    expect(lossless.length).toBeGreaterThan(10);
    for (const r of lossless) expect(firstDifference(bytesOf(zfpDecompress(r.stream).data), r.input)).toBe(-1);
  });
});

describe("a Zarr v2 array zarr-python writes with numcodecs.ZFPY", () => {
  let dir = "";
  afterAll(() => {
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it.each([
    ["float64, fixed rate, 3-D", "f8", "dict(mode=zfpy.mode_fixed_rate, rate=12)", [9, 7, 5], [4, 5, 3]],
    ["int32, fixed precision, 2-D", "i4", "dict(mode=zfpy.mode_fixed_precision, precision=20)", [11, 6], [5, 6]],
    ["float32, fixed accuracy, 4-D", "f4", "dict(mode=zfpy.mode_fixed_accuracy, tolerance=1e-4)", [3, 5, 6, 7], [2, 5, 4, 4]],
  ])("%s reads as zarr-python reads it", async (_, dtype, codecArgs, shape, chunks) => {
    requirePeer(haveZfpy(), PEER);
    dir ||= mkdtempSync(join(tmpdir(), "zfpy-"));
    const name = `a-${dtype}-${shape.length}`;
    const script = `
import sys, numpy as np, zarr, numcodecs, zfpy
shape, chunks = ${JSON.stringify(shape)}, ${JSON.stringify(chunks)}
v = np.random.default_rng(7).standard_normal(shape) * 1000
z = zarr.open(sys.argv[1], mode="w", shape=shape, chunks=chunks, dtype="${dtype}", compressor=numcodecs.ZFPY(**${codecArgs}))
z[:] = v.astype("${dtype}")
sys.stdout.buffer.write(zarr.open(sys.argv[1], mode="r")[:].astype("<${dtype}").tobytes())
`;
    const expected = new Uint8Array(execFileSync("/usr/bin/python3", ["-c", script, join(dir, name)], { maxBuffer: 1 << 28 }));
    const array = await openArray(new FileSystemStore(dir, { readOnly: true }), name, { registry: createRegistry([zfpy, v2Format]) });
    const result = await get(array);
    expect(firstDifference(bytesOf(result.data as ArrayBufferView), expected)).toBe(-1);
    expect(JSON.parse(readFileSync(join(dir, name, ".zarray"), "utf8")).compressor.id).toBe("zfpy");
  });

  it("zarr-python reads a v2 array we write with numcodecs' default ZFPY (lossless)", async () => {
    requirePeer(haveZfpy(), PEER);
    dir ||= mkdtempSync(join(tmpdir(), "zfpy-"));
    const store = new FileSystemStore(dir);
    const registry = createRegistry([zfpy, v2Format]);
    const compressor = { id: "zfpy", mode: 4, tolerance: -1, rate: -1, precision: -1 };
    const array = await createArrayV2(store, "ours", { shape: [9, 10], chunks: [4, 6], dtype: "<f4", compressor, registry });
    const values = Float32Array.from({ length: 90 }, (_, i) => Math.cos(i / 5) * 100 + i / 7);
    await set(array, null, values);
    const script = `
import sys, zarr, numcodecs
z = zarr.open(sys.argv[1], mode="r")
assert isinstance(z.compressor, numcodecs.ZFPY), z.compressor
sys.stdout.buffer.write(z[:].astype("<f4").tobytes())
`;
    const read = new Uint8Array(execFileSync("/usr/bin/python3", ["-c", script, join(dir, "ours")]));
    expect(firstDifference(read, bytesOf(values))).toBe(-1);
  });
});
