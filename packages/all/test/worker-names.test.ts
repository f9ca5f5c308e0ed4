/**
 * Names that survive bundling: chunk tasks go to workers under the package export
 * `@zarr/core/engine-task`, and every codec entry that can run in a worker names the
 * package export holding it (`worker.moduleName`), which worker scripts register.
 */

import { transposeCodec } from "@zarr/core/extensions";
import type { CodecEntry, LazyEntry, WorkerPool } from "@zarr/spec";
import { afterAll, expect, it } from "vitest";
import { bytesCodec, codecEntries, createArray, get, MemoryStore, set } from "../src/index.js";
import { createWorkerPool } from "../src/workers.js";

async function loaded(entry: (typeof codecEntries)[number]): Promise<CodecEntry> {
  return ("lazy" in entry && entry.lazy ? await (entry as LazyEntry<CodecEntry>).load() : entry) as CodecEntry;
}

it("every codec entry with a worker module names the package export that holds it", async () => {
  const withWorker: string[] = [];
  for (const entry of [bytesCodec, transposeCodec, ...(await Promise.all(codecEntries.map(loaded)))]) {
    if (entry.worker === undefined) continue;
    withWorker.push(entry.name);
    const { moduleName, exportName } = entry.worker;
    expect(moduleName, entry.name).toMatch(/^@zarr\//);
    const module = (await import(/* @vite-ignore */ moduleName as string)) as Record<string, unknown>;
    expect(module[exportName], `${moduleName} ${exportName}`).toBe(entry);
  }
  expect(withWorker.sort()).toEqual(
    ["blosc", "bytes", "crc32c", "gzip", "numcodecs.bz2", "numcodecs.imagecodecs_lzw", "numcodecs.lz4", "numcodecs.lzma", "numcodecs.pcodec", "numcodecs.zfpy", "sharding_indexed", "transpose", "zlib", "zstd"].sort(),
  );
});

const pool = createWorkerPool({ size: 2 });
afterAll(() => pool.close());

it("sends chunk tasks under the name @zarr/core/engine-task, with every codec module named", async () => {
  const calls: { moduleUrl: string; modules: { moduleName?: string }[] }[] = [];
  const workers: WorkerPool = {
    size: pool.size,
    run(moduleUrl, exportName, args, transfer) {
      calls.push({ moduleUrl, modules: (args[0] as { array: { modules: { moduleName?: string }[] } }).array.modules });
      return pool.run(moduleUrl, exportName, args, transfer);
    },
    close: () => pool.close(),
  };
  const arr = await createArray(new MemoryStore(), "t", {
    shape: [128, 256],
    chunkShape: [128, 256],
    dataType: "float64",
    codecs: [
      { name: "transpose", configuration: { order: [1, 0] } },
      { name: "bytes", configuration: { endian: "little" } },
      { name: "blosc", configuration: { cname: "zstd", clevel: 1, shuffle: "shuffle", typesize: 8, blocksize: 0 } },
    ],
  });
  const values = Float64Array.from({ length: 128 * 256 }, (_, i) => Math.cos(i / 9) * 1e3);
  await set(arr, null, values);
  expect(Array.from((await get(arr, null, { workers })).data as Float64Array)).toEqual(Array.from(values));
  expect(calls).toHaveLength(1);
  expect(calls[0].moduleUrl).toBe("@zarr/core/engine-task");
  expect(calls[0].modules.map((m) => m.moduleName).sort()).toEqual(["@zarr/codec-blosc", "@zarr/core/engine-task", "@zarr/core/engine-task"]);
});
