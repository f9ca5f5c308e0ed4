/** `pyramidJob`: a pyramid built in parts equals `buildPyramid` in one piece, object by object. */
import { crc32cCodec } from "@zarr/codec-crc32c";
import { shardingIndexed } from "@zarr/codec-sharding";
import { createRegistry, MemoryStore } from "@zarr/core";
import { ZarrError } from "@zarr/spec";
import { finalizeJob, initJob, planParts, runPart } from "@zarr/store-utils";
import { describe, expect, it } from "vitest";
import { buildPyramid, type PyramidOptions, pyramidJob } from "../src/index.js";
import { dataset } from "./helpers.js";

const H = 70;
const W = 90;

async function source() {
  const u = Uint16Array.from({ length: H * W }, (_, i) => (i * 37) % 1009);
  const f = Float32Array.from({ length: H * W }, (_, i) => (i % 13 === 0 ? Number.NaN : Math.sin(i) * 100));
  return dataset({ u: { data: u, dataType: "uint16", attributes: { _FillValue: 0 } }, f: { data: f, dataType: "float32" } }, { shape: [H, W], chunk: [16, 16] });
}

function contents(store: MemoryStore): [string, Uint8Array][] {
  return [...store.map].filter(([k]) => !k.startsWith(".zarr-jobs/")).sort(([a], [b]) => (a < b ? -1 : 1));
}

async function code(promise: Promise<unknown>): Promise<string> {
  try {
    await promise;
  } catch (error) {
    if (error instanceof ZarrError) return `${error.code}: ${error.message}`;
    throw error;
  }
  return "resolved";
}

const THREE_LEVELS: PyramidOptions = { minSize: 16, chunkShape: [16, 16] };
const registry = createRegistry([shardingIndexed, crc32cCodec]);
const cases: Array<[string, PyramidOptions]> = [
  ["chunks", { minSize: 8, chunkShape: [16, 16], resampling: { u: "mode", f: "average" } }],
  ["shards", { minSize: 8, chunkShape: [8, 8], shardShape: [16, 32], registry }],
];

describe("pyramidJob", () => {
  for (const [name, options] of cases) {
    it(`in 4 concurrent parts writes what buildPyramid writes (${name})`, async () => {
      const src = await source();
      const single = new MemoryStore();
      await buildPyramid(src, single, options);
      const parted = new MemoryStore();
      const job = () => pyramidJob(src, parted, { ...options, name: "test" });
      const plan = await planParts(job(), 4);
      expect(plan.parts.every((p) => p.objects > 0)).toBe(true);
      await Promise.all([0, 1, 2, 3].map((i) => runPart(job(), i, 4)));
      expect([...parted.map.keys()].some((k) => k.endsWith("zarr.json"))).toBe(false);
      await finalizeJob(job(), 4);
      expect(contents(parted)).toEqual(contents(single));
    });
  }

  it("cuts parts into bands of the map with every level over them", async () => {
    const src = await source();
    const plan = await planParts(pyramidJob(src, new MemoryStore(), THREE_LEVELS), 2);
    // Level 0 has 5×6 chunks per variable, level 1 (35×45) 3×3, level 2 (18×23) 2×2.
    expect(plan.units).toBe(2 * (30 + 9 + 4));
    expect(plan.parts.map((p) => p.objects)).toEqual([43, 43]);
  });

  it("plans by level-0 regions; regions that share a level's chunk are refused, naming both and the chunk", async () => {
    const src = await source();
    const target = new MemoryStore();
    const job = () => pyramidJob(src, target, THREE_LEVELS);
    // Rows split at 64: a multiple of every level's chunk footprint (16, 32, 64 pixels).
    const good = [
      [[0, 64], [0, W]],
      [[64, H], [0, W]],
    ] as const;
    const plan = await planParts(job(), 2, { regions: good });
    expect(plan.parts.map((p) => p.end - p.start)).toEqual([2 * (24 + 6 + 2), 2 * (6 + 3 + 2)]);
    // Split at 48: aligned to level 0's 16-row chunks, not to level 2's 64-pixel-high footprints.
    const bad = [
      [[0, 48], [0, W]],
      [[48, H], [0, W]],
    ] as const;
    expect(await code(runPart(job(), 0, 2, { regions: bad }))).toMatch(
      /^INVALID_ARGUMENT: Regions 0 \[0:48, 0:90\] and 1 \[48:70, 0:90\] overlap in chunk "2\/f\/c\/0\/0" \(level 2, variable f\), which covers \[0:64, 0:64\]: two parts would both write it/,
    );
    expect([...target.map.keys()]).toEqual([]);
  });

  it("initJob first, then parts with resume skip the chunks already there", async () => {
    const src = await source();
    const target = new MemoryStore();
    const job = () => pyramidJob(src, target, cases[0][1]);
    expect((await initJob(job())).written).toBeGreaterThan(5);
    const first = await runPart(job(), 1, 2);
    const again = await runPart(job(), 1, 2, { resume: true });
    expect(again.skipped).toBe(first.units);
    // A corrupt chunk is computed again.
    const key = [...target.map.keys()].find((k) => k.startsWith("1/u/c/")) as string;
    const want = target.map.get(key);
    target.map.set(key, new Uint8Array([1, 2, 3]));
    const repaired = await runPart(job(), key === "1/u/c/0/0" ? 0 : 1, 2, { resume: true });
    expect(repaired.written).toBe(1);
    expect(target.map.get(key)).toEqual(want);
  });

  it("refuses overwrite, and a different node at the target path", async () => {
    const src = await source();
    expect(() => pyramidJob(src, new MemoryStore(), { overwrite: true } as never)).toThrow(/cannot overwrite/);
    const target = new MemoryStore();
    await buildPyramid(src, target, { minSize: 8, factors: 3 });
    expect(await code(planParts(pyramidJob(src, target, { minSize: 8 }), 2))).toMatch(/^NODE_EXISTS: Another node already exists at "\/"/);
  });
});
