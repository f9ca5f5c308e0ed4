/** `convertJob`: a conversion in parts equals `convert` in one piece, object by object. */
import { MemoryStore, openArray, openGroup, set } from "@zarr/core";
import { type Store, ZarrError } from "@zarr/spec";
import { FileSystemStore } from "@zarr/store-fs";
import { finalizeJob, initJob, planParts, runPart } from "@zarr/store-utils";
import { describe, expect, it } from "vitest";
import { convert, convertJob } from "../src/index.js";
import { fixture, fullRegistry } from "./helpers.js";

async function contents(store: MemoryStore): Promise<Map<string, Uint8Array>> {
  return new Map([...store.map].filter(([k]) => !k.startsWith(".zarr-jobs/")).sort(([a], [b]) => (a < b ? -1 : 1)));
}

const registry = fullRegistry();
const source = (): Store => new FileSystemStore(fixture("v2", "data.zarr"), { readOnly: true });

describe("convertJob", () => {
  for (const variableLengthStrings of [false, true]) {
    it(`in 4 concurrent parts writes what convert writes${variableLengthStrings ? " (strings rewritten)" : ""}`, async () => {
      const root = await openGroup(source(), "", { registry });
      const single = new MemoryStore();
      await convert(root, { target: single, registry, variableLengthStrings });
      const parted = new MemoryStore();
      const job = () => convertJob(root, parted, { registry, variableLengthStrings, name: "fixture" });
      const plan = await planParts(job(), 4);
      expect(plan.units).toBeGreaterThan(20);
      const results = await Promise.all([0, 1, 2, 3].map((i) => runPart(job(), i, 4)));
      expect(results.reduce((n, r) => n + r.written, 0)).toBe(plan.units);
      // Parts never write metadata: only chunks and markers so far.
      expect([...parted.map.keys()].some((k) => k.endsWith("zarr.json"))).toBe(false);
      await finalizeJob(job(), 4);
      expect(await contents(parted)).toEqual(await contents(single));
      expect([...parted.map.keys()].some((k) => k.startsWith(".zarr-jobs/"))).toBe(false);
    });
  }

  it("initJob writes the v3 documents first; resume skips verified chunks and redoes a wrong one", async () => {
    const root = await openGroup(source(), "", { registry });
    const target = new MemoryStore();
    const job = () => convertJob(root, target, { registry, variableLengthStrings: true });
    const init = await initJob(job());
    expect(init.written).toBeGreaterThan(10);
    expect(target.map.has("zarr.json")).toBe(true);
    await runPart(job(), 0, 1);
    const chunks = [...target.map.keys()].filter((k) => !k.endsWith("zarr.json") && !k.startsWith(".zarr-jobs/"));
    // A rewritten (string) chunk and a copied one, each replaced by other bytes.
    const stringChunk = chunks.find((k) => k.startsWith("1d.contiguous.U7/")) as string;
    const copiedChunk = chunks.find((k) => k.startsWith("1d.chunked.i2/")) as string;
    const want = [target.map.get(stringChunk), target.map.get(copiedChunk)];
    target.map.set(copiedChunk, new Uint8Array(3));
    // Other strings in the string array: its chunks decode, to values that are not the source's.
    const arr = await openArray(target, "1d.contiguous.U7", { registry });
    await set(arr, null, Array.from({ length: arr.shape[0] }, () => "x"));
    const stringChunks = chunks.filter((k) => k.startsWith("1d.contiguous.U7/")).length;
    const again = await runPart(job(), 0, 1, { resume: true });
    expect(again.written).toBe(stringChunks + 1);
    expect(again.skipped).toBe(chunks.length - again.written);
    expect([target.map.get(stringChunk), target.map.get(copiedChunk)]).toEqual(want);
  });

  it("refuses in-place conversion, naming why", async () => {
    const root = await openGroup(source(), "", { registry });
    let error: unknown;
    try {
      convertJob(root, root.store);
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(ZarrError);
    expect((error as ZarrError).message).toMatch(/In-place conversion cannot run in parts/);
  });
});
