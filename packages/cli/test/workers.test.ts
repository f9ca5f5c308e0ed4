/**
 * The worker pool of `zarr get`: on by default, started only when a chunk is worth a
 * worker, and a process whose Node flags worker threads refuse still reads (on the main
 * thread, with a warning). Node's `--max-old-space-size` is such a flag: a worker started
 * under it fails, which makes "was a worker started?" visible from outside.
 */
import path from "node:path";
import { createArray, type ExtensionLike, set } from "@zarr/core";
import { FileSystemStore } from "@zarr/store-fs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { cliRegistry } from "../src/registry.js";
import { removeTempDirs, tempDir, zarr, zarrOk } from "./helpers.js";

afterAll(removeTempDirs);

/** A flag worker threads refuse (ERR_WORKER_INVALID_EXEC_ARGV). */
/** A per-process flag Node refuses when passed to a worker explicitly. */
const PER_PROCESS = ["--max-old-space-size=1024"];

let store: string;

beforeAll(async () => {
  store = path.join(tempDir(), "w.zarr");
  const fs = new FileSystemStore(store);
  const registry = cliRegistry();
  const gzip: ExtensionLike[] = [
    { name: "bytes", configuration: { endian: "little" } },
    { name: "gzip", configuration: { level: 1 } },
  ];
  // 128×128 float64 chunks (128 KiB each): worth a worker.
  const big = await createArray(fs, "big", { shape: [256, 128], chunkShape: [128, 128], dataType: "float64", codecs: gzip, registry });
  await set(big, null, { data: Float64Array.from({ length: 256 * 128 }, (_, i) => Math.sin(i / 37)), shape: [256, 128] });
  // 16 float32 values: never worth one.
  const small = await createArray(fs, "small", { shape: [16], chunkShape: [16], dataType: "float32", codecs: gzip, registry });
  await set(small, null, { data: Float32Array.from({ length: 16 }, (_, i) => i), shape: [16] });
});

describe("zarr get with worker threads", () => {
  it("uses a pool by default, also under per-process Node flags (workers inherit them)", async () => {
    const plain = await zarrOk(["get", store, "big", "--format", "npy", "--workers", "0"]);
    const r = await zarr(["get", store, "big", "--format", "npy"], { nodeArgs: PER_PROCESS });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toBe("");
    expect(Buffer.compare(r.stdout, plain.stdout)).toBe(0);
  });

  it("starts no worker for small chunks, nor with --workers 0", async () => {
    const small = await zarr(["get", store, "small"], { nodeArgs: PER_PROCESS });
    expect(small.stderr).toBe("");
    expect(JSON.parse(small.stdout.toString()).values).toEqual([...Array(16).keys()]);
    const off = await zarr(["get", store, "big", "--format", "npy", "--workers", "0"], { nodeArgs: PER_PROCESS });
    expect(off.stderr).toBe("");
    expect(off.code).toBe(0);
  });
});
