/**
 * Pointwise selections with a worker pool: each touched chunk's block is decoded (and
 * each chunk of a write encoded) in a worker when the chunk is large and its codecs are
 * CPU-heavy, and the values are those of the calling thread.
 */
import { afterAll, describe, expect, it } from "vitest";
import { createArray, get, getCoordinates, getMask, MemoryStore, set, setCoordinates, type WorkerPool } from "../src/index.js";
import { createWorkerPool } from "../src/workers.js";

describe("pointwise selections in worker threads", () => {
  const pool = createWorkerPool({ size: 2 });
  afterAll(() => pool.close());
  /** The pool, counting the calls sent to it. */
  const calls: string[] = [];
  const workers: WorkerPool = {
    size: pool.size,
    run: (url, name, args, transfer) => {
      calls.push(name);
      return pool.run(url, name, args, transfer);
    },
    close: () => pool.close(),
  };

  it("decode and encode the touched chunks in workers, with the values of the calling thread", async () => {
    const arr = await createArray(new MemoryStore(), "z", {
      shape: [256, 512],
      chunkShape: [128, 256], // 256 KiB chunks: large enough to be sent to the workers
      dataType: "float64",
      codecs: [
        { name: "bytes", configuration: { endian: "little" } },
        { name: "zstd", configuration: { level: 1, checksum: false } },
      ],
    });
    const values = Float64Array.from({ length: 256 * 512 }, (_, i) => Math.sin(i / 100) * 1000 + (i % 7));
    await set(arr, null, values);
    // Points in three of the four chunks; a whole 128 × 256 block of chunk (0, 0), so that it is decoded in a worker.
    const rows = [0, 5, 127, 200, 255, 255];
    const cols = [0, 255, 3, 300, 511, 10];
    const block = { data: Array.from({ length: 128 }, (_, i) => i), shape: [128, 1] };
    const wide = { data: Array.from({ length: 256 }, (_, i) => i), shape: [256] };
    calls.length = 0;
    const here = await getCoordinates(arr, [block, wide]);
    const there = await getCoordinates(arr, [block, wide], { workers });
    expect(calls).toContain("readChunk");
    expect(there.data).toEqual(here.data);
    expect(Array.from(there.data as Float64Array).slice(0, 3)).toEqual([values[0], values[1], values[2]]);
    const points = await getCoordinates(arr, [rows, cols], { workers });
    expect(Array.from(points.data as Float64Array)).toEqual(rows.map((r, i) => values[r * 512 + cols[i]]));
    const masked = await getMask(arr, { data: Array.from({ length: 256 * 512 }, (_, i) => i % 1000 === 0), shape: [256, 512] }, { workers });
    expect(Array.from(masked.data as Float64Array)).toEqual(Array.from(values).filter((_, i) => i % 1000 === 0));
    calls.length = 0;
    await setCoordinates(arr, [rows, cols], -1, { workers });
    expect(calls).toContain("encodeChunk");
    rows.forEach((r, i) => {
      values[r * 512 + cols[i]] = -1;
    });
    expect((await get(arr)).data).toEqual(values);
  });
});
