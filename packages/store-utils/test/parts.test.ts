import { MemoryStore } from "@zarr/core";
import { type Store, ZarrError } from "@zarr/spec";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { copy, copyJob, finalizeJob, initJob, JOBS_PREFIX, markerKey, type PartitionedJob, planParts, runPart } from "../src/index.js";
import { writeOnce } from "../src/parts/write-once.js";
import { startS3, type TestS3 } from "./s3.js";

const text = (s: string) => new TextEncoder().encode(s);
const filled = (n: number, seed: number) => new Uint8Array(n).map((_, i) => (i * 7 + seed) & 255);

function hierarchy(chunks = 10): MemoryStore {
  const store = new MemoryStore();
  store.map.set("zarr.json", text('{"zarr_format":3,"node_type":"group","attributes":{}}'));
  store.map.set("a/zarr.json", text('{"zarr_format":3,"node_type":"array"}'));
  for (let i = 0; i < chunks; i++) store.map.set(`a/c/${i}`, filled(50 + i, i));
  store.map.set("g/.zgroup", text('{"zarr_format":2}'));
  store.map.set("g/.zmetadata", text("{}"));
  return store;
}

async function contents(store: Store): Promise<Map<string, Uint8Array>> {
  const out = new Map<string, Uint8Array>();
  for await (const k of store.list?.() ?? []) out.set(k, (await store.get(k)) as Uint8Array);
  return out;
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

/**
 * A MemoryStore with versions and conditional writes checked and applied in one step, as
 * S3 does (s3rver ignores If-Match and If-None-Match: see @zarr/store-s3's tests).
 */
class VersionedStore extends MemoryStore {
  readonly versions = new Map<string, number>();
  #next = 1;
  override async set(key: string, value: Uint8Array): Promise<void> {
    this.map.set(key, value.slice());
    this.versions.set(key, this.#next++);
  }
  async getVersioned(key: string) {
    const bytes = this.map.get(key);
    return bytes === undefined ? undefined : { bytes: bytes.slice(), version: String(this.versions.get(key)) };
  }
  async setIfVersion(key: string, value: Uint8Array, expected: string | null): Promise<void> {
    const now = this.map.has(key) ? String(this.versions.get(key)) : null;
    if (now !== expected) throw new ZarrError("STORE_CHANGED", `"${key}" changed`, { key });
    await this.set(key, value);
  }
}

describe("conditional writes", () => {
  it("of the same bytes: created once, then left alone", async () => {
    const store = new VersionedStore();
    expect(await writeOnce(store, "zarr.json", text("one"))).toBe("created");
    expect(await writeOnce(store, "zarr.json", text("one"))).toBe("same");
    expect(store.versions.get("zarr.json")).toBe(1);
    expect(await writeOnce(store, "zarr.json", text("two"))).toBe("replaced");
  });

  it("of different bytes racing: one wins, the other fails naming the key", async () => {
    const store = new VersionedStore();
    await store.set("zarr.json", text("old"));
    // Both read the old version, then both replace it: the second replacement must lose.
    const results = await Promise.allSettled([writeOnce(store, "zarr.json", text("from a")), writeOnce(store, "zarr.json", text("from b"))]);
    expect(results.map((r) => r.status).sort()).toEqual(["fulfilled", "rejected"]);
    const lost = results.find((r) => r.status === "rejected") as PromiseRejectedResult;
    expect(lost.reason).toMatchObject({ code: "STORE_CHANGED", key: "zarr.json" });
    expect(lost.reason.message).toContain('Another writer wrote different bytes to "zarr.json"');
  });

  it("of markers and metadata, when the target has them", async () => {
    const source = hierarchy();
    const target = new VersionedStore();
    const calls: string[] = [];
    const conditional = target.setIfVersion.bind(target);
    target.setIfVersion = async (key, value, expected) => {
      calls.push(key);
      return conditional(key, value, expected);
    };
    const job = copyJob(source, target);
    await runPart(job, 0, 1);
    await finalizeJob(job, 1);
    expect(calls.some((k) => k.startsWith(JOBS_PREFIX))).toBe(true);
    expect(calls).toContain("zarr.json");
    expect(calls).not.toContain("a/c/0");
  });
});

describe("copy in parts", () => {
  it("plans contiguous, disjoint parts of the data keys only", async () => {
    const plan = await planParts(copyJob(hierarchy(), new MemoryStore()), 4);
    expect(plan.units).toBe(10);
    expect(plan.parts.map((p) => [p.start, p.end])).toEqual([[0, 3], [3, 6], [6, 8], [8, 10]]);
    expect(plan.job).toMatch(/^[0-9a-f]{16}$/);
  });

  it("4 parts and a finalize give the same objects as one copy, and no markers", async () => {
    const source = hierarchy();
    const single = new MemoryStore();
    await copy(source, single);
    const target = new MemoryStore();
    const job = copyJob(source, target);
    const results = await Promise.all([0, 1, 2, 3].map((i) => runPart(job, i, 4)));
    expect(results.reduce((n, r) => n + r.written, 0)).toBe(10);
    // Parts never write metadata.
    expect([...target.map.keys()].filter((k) => k.endsWith("zarr.json"))).toEqual([]);
    expect(target.map.has(markerKey(results[0].job, 2, 4))).toBe(true);
    const fin = await finalizeJob(job, 4);
    expect(fin).toMatchObject({ written: 4, alreadyFinalized: false });
    expect(await contents(target)).toEqual(await contents(single));
    expect([...target.map.keys()].some((k) => k.startsWith(JOBS_PREFIX))).toBe(false);
    // Again: nothing left to check, everything in place.
    expect(await finalizeJob(job, 4)).toMatchObject({ written: 0, alreadyFinalized: true });
  });

  it("refuses to finalize while a part has not finished, naming it", async () => {
    const source = hierarchy();
    const target = new MemoryStore();
    const job = copyJob(source, target);
    await runPart(job, 0, 3);
    await runPart(job, 2, 3);
    const message = await code(finalizeJob(job, 3));
    expect(message).toMatch(/^JOB_INCOMPLETE: .*1 of 3 parts have not finished .*part 1\)/);
    expect(target.map.has("zarr.json")).toBe(false);
  });

  it("initJob writes the metadata first, idempotently", async () => {
    const source = hierarchy();
    const target = new MemoryStore();
    const job = copyJob(source, target);
    expect(await initJob(job)).toMatchObject({ written: 4, unchanged: 0 });
    expect(await initJob(job)).toMatchObject({ written: 0, unchanged: 4 });
    expect(target.map.get("a/zarr.json")).toEqual(source.map.get("a/zarr.json"));
    expect(target.map.has("a/c/0")).toBe(false);
    await runPart(job, 0, 2);
    await runPart(job, 1, 2);
    const single = new MemoryStore();
    await copy(source, single);
    await finalizeJob(job, 2);
    expect(await contents(target)).toEqual(await contents(single));
  });

  it("refuses parts that ran against a different listing", async () => {
    const source = hierarchy();
    const target = new MemoryStore();
    const job = copyJob(source, target);
    await runPart(job, 0, 2);
    source.map.set("a/c/99", filled(3, 3));
    await runPart(job, 1, 2);
    expect(await code(finalizeJob(job, 2))).toMatch(/^STORE_CHANGED: .*part 0 ran another plan/);
  });

  it("resume skips keys already there with the source's size and rewrites the others", async () => {
    const source = hierarchy();
    const target = new MemoryStore();
    const job = copyJob(source, target);
    await runPart(job, 0, 1);
    target.map.set("a/c/3", filled(2, 0)); // a different (shorter) value
    target.map.delete("a/c/4");
    const again = await runPart(job, 0, 1, { resume: true });
    expect(again).toMatchObject({ units: 10, written: 2, skipped: 8 });
    expect(target.map.get("a/c/3")).toEqual(source.map.get("a/c/3"));
  });

  it("names the object two units of a job would both write", async () => {
    const target = new MemoryStore();
    const unit = (key: string) => ({ keys: [key], run: async () => ({ skipped: false, bytes: 0 }) });
    const job: PartitionedJob = {
      kind: "test",
      target,
      describe: () => null,
      prepare: async () => ({ units: [unit("x/0"), unit("x/1"), unit("x/0")] }),
    };
    expect(await code(planParts(job, 2))).toBe('INVALID_ARGUMENT: Units 0 and 2 of the job both write "x/0": parts must not share an object');
  });

  it("checks the part index and count", async () => {
    const job = copyJob(hierarchy(), new MemoryStore());
    expect(await code(runPart(job, 4, 4))).toMatch(/^INVALID_ARGUMENT: Part index 4 is out of range: parts are numbered 0 to 3/);
    expect(await code(runPart(job, 0, 0))).toMatch(/^INVALID_ARGUMENT: The number of parts must be a positive integer/);
  });
});

describe("parts by region", () => {
  // A 1-D job of 4 chunks of 100 "pixels", each writing "c/<i>" with its index.
  function tiled(target: MemoryStore): PartitionedJob {
    const units = [0, 1, 2, 3].map((c) => ({
      keys: [`c/${c}`],
      footprint: [[c * 100, c * 100 + 100]] as const,
      run: async () => {
        await target.set(`c/${c}`, text(String(c)));
        return { skipped: false, bytes: 1 };
      },
    }));
    return { kind: "test", target, describe: () => "tiled", prepare: async () => ({ units }) };
  }

  it("gives each part the chunks its region meets", async () => {
    const target = new MemoryStore();
    const regions = [[[200, 400]], [[0, 200]]] as const;
    const plan = await planParts(tiled(target), 2, { regions });
    expect(plan.parts.map((p) => [p.start, p.end])).toEqual([[0, 2], [2, 4]]);
    await runPart(tiled(target), 0, 2, { regions });
    expect([...target.map.keys()].filter((k) => k.startsWith("c/")).sort()).toEqual(["c/2", "c/3"]);
    await runPart(tiled(target), 1, 2, { regions });
    expect((await finalizeJob(tiled(target), 2, { regions })).alreadyFinalized).toBe(false);
  });

  it("refuses regions that share a chunk, naming both regions and the chunk", async () => {
    const regions = [[[0, 150]], [[150, 400]]] as const;
    expect(await code(planParts(tiled(new MemoryStore()), 2, { regions }))).toBe(
      'INVALID_ARGUMENT: Regions 0 [0:150] and 1 [150:400] overlap in chunk "c/1", which covers [100:200]: two parts would both write it and one part\'s update would be lost; align the regions to that chunk\'s edges',
    );
    expect(await code(runPart(tiled(new MemoryStore()), 1, 2, { regions }))).toMatch(/^INVALID_ARGUMENT: Regions 0 \[0:150\] and 1/);
  });

  it("refuses regions that leave a chunk out, or do not match the part count", async () => {
    expect(await code(planParts(tiled(new MemoryStore()), 2, { regions: [[[0, 100]], [[200, 400]]] }))).toMatch(/No region covers chunk "c\/1" \(\[100:200\]\)/);
    expect(await code(planParts(tiled(new MemoryStore()), 3, { regions: [[[0, 400]]] }))).toMatch(/1 region given for 3 parts/);
    const plain = copyJob(hierarchy(), new MemoryStore());
    expect(await code(planParts(plain, 1, { regions: [[[0, 1]]] }))).toMatch(/cannot be planned by regions: unit "a\/c\/0" has no footprint/);
  });
});

describe("on s3rver", () => {
  let s3: TestS3;
  beforeAll(async () => {
    s3 = await startS3(["parts"]);
  }, 30_000);
  afterAll(() => s3?.close());

  it("a copy job in parts into S3 equals a single copy, markers gone", async () => {
    const source = hierarchy(24);
    const single = s3.store({ bucket: "parts", prefix: "single" });
    await copy(source, single);
    const target = s3.store({ bucket: "parts", prefix: "parted" });
    const job = copyJob(source, target);
    await Promise.all([0, 1, 2, 3].map((i) => runPart(job, i, 4)));
    await finalizeJob(job, 4);
    expect(await contents(target)).toEqual(await contents(single));
  }, 30_000);
});
