/**
 * `zarr get` of a whole large array as .npy, slab by slab: the bytes equal one read of the
 * whole array encoded at once (every slab size, uneven last slabs, several data types and
 * byte orders, sharded arrays, with and without a worker pool); which arrays are read in
 * slabs; and a failure mid-way leaves no truncated file behind.
 */
import { existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createArray, get, MemoryStore, set, slice, type ZarrArray } from "@zarr/core";
import { createWorkerPool } from "@zarr/core/workers";
import { ZarrError } from "@zarr/spec";
import { afterAll, describe, expect, it } from "vitest";
import type { CliIO } from "../src/cli-io.js";
import { writeOutput } from "../src/get-output.js";
import { encodeNpy } from "../src/npy.js";
import { npySlabPlan, writeNpySlabs } from "../src/npy-slabs.js";
import { cliRegistry } from "../src/registry.js";

const dir = mkdtempSync(join(tmpdir(), "zarr-npy-slabs-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const registry = cliRegistry();

/** What `writeNpySlabs` writes, gathered. */
async function slabBytes(array: ZarrArray, slabBytes: number, workers?: ReturnType<typeof createWorkerPool>): Promise<Uint8Array> {
  const plan = npySlabPlan(array, slabBytes);
  if (plan === undefined) throw new Error("expected a slab plan");
  const pieces: Uint8Array[] = [];
  await writeNpySlabs(array, plan, workers, async (piece) => {
    pieces.push(piece.slice()); // the buffers are reused: keep a copy
  });
  return new Uint8Array(Buffer.concat(pieces));
}

/** An array of `shape` in `chunks` with values that differ everywhere. */
async function filled(name: string, shape: number[], chunks: number[], dataType: string | object, extra: object = {}): Promise<ZarrArray> {
  const store = new MemoryStore();
  const array = await createArray(store, name, { shape, chunkShape: chunks, dataType: dataType as string, registry, ...extra });
  const n = shape.reduce((a, b) => a * b, 1);
  const values = Array.from({ length: n }, (_, i) => i % 251);
  const typed = array.dataType.allocate(n);
  for (let i = 0; i < n; i++) array.dataType.setItem(typed, i, array.dataType.coerce(array.dataType.kind === "bool" ? values[i] % 3 === 0 : values[i]));
  await set(array, null, typed);
  return array;
}

describe("writeNpySlabs", () => {
  it("writes the bytes of one whole read, for every slab size and uneven last slabs", async () => {
    const array = await filled("f", [23, 5, 3], [4, 2, 3], "float32", { codecs: ["bytes", { name: "gzip", configuration: { level: 1 } }] });
    const whole = encodeNpy(await get(array));
    const rowChunkBytes = 4 * 5 * 3 * 4;
    // 23 rows in chunk rows of 4: slabs of 4 rows (the last of 3) and of 8 (the last of 7).
    for (const rows of [1, 2]) {
      const plan = npySlabPlan(array, rows * rowChunkBytes);
      expect(plan?.slabRows).toBe(4 * rows);
      expect(Buffer.compare(await slabBytes(array, rows * rowChunkBytes), whole)).toBe(0);
    }
    // Slabs of 12 rows would make two: one read is as good.
    expect(npySlabPlan(array, 3 * rowChunkBytes)).toBeUndefined();
  });

  it("keeps each data type's .npy form: complex, bool, big-endian integers", async () => {
    const cases = [
      await filled("c", [9, 4], [2, 4], "complex64"),
      await filled("b", [9, 4], [2, 4], "bool"),
      await filled("i", [9, 4], [2, 4], "int16", { codecs: [{ name: "bytes", configuration: { endian: "big" } }] }),
      await filled("u", [9], [2], "uint64"),
    ];
    for (const array of cases) {
      const whole = encodeNpy(await get(array));
      expect(Buffer.compare(await slabBytes(array, 1), whole)).toBe(0);
    }
  });

  it("reads slabs of a sharded array by inner chunk rows, not whole shard rows", async () => {
    const array = await filled("s", [16, 6], [4, 6], "uint8", {
      codecs: [{ name: "sharding_indexed", configuration: { chunk_shape: [2, 3], codecs: ["bytes"], index_codecs: ["bytes", "crc32c"] } }],
    });
    // An inner chunk row is 2 rows of 6 bytes: slabs of 2, 4 or 6 rows, whatever the shard rows (4).
    expect(npySlabPlan(array, 1)?.slabRows).toBe(2);
    expect(npySlabPlan(array, 2 * 6 * 2)?.slabRows).toBe(4);
    expect(npySlabPlan(array, 3 * 6 * 2)?.slabRows).toBe(6); // across shard boundaries
    for (const bytes of [1, 2 * 6 * 2, 3 * 6 * 2]) expect(Buffer.compare(await slabBytes(array, bytes), encodeNpy(await get(array)))).toBe(0);
  });

  it("reads a sharded array through a worker pool in inner chunk rows, to the same bytes", async () => {
    // Shards of 4×4 inner chunks of 32×64 float64 (gzip): slabs of one inner row read a quarter of each shard.
    const array = await filled("sw", [512, 256], [128, 256], "float64", {
      codecs: [{ name: "sharding_indexed", configuration: { chunk_shape: [32, 64], codecs: ["bytes", { name: "gzip", configuration: { level: 1 } }] } }],
    });
    expect(npySlabPlan(array, 32 * 256 * 8)?.slabRows).toBe(32);
    const pool = createWorkerPool({ size: 2 });
    try {
      expect(Buffer.compare(await slabBytes(array, 32 * 256 * 8, pool), encodeNpy(await get(array)))).toBe(0);
    } finally {
      await pool.close();
    }
  });

  it("reads through a worker pool into shared slab buffers, to the same bytes", async () => {
    // 64×64 float64 chunks of gzip: 32 KiB each, so the pool gets them (≥ 64 KiB decoded with 128×64).
    const array = await filled("w", [640, 64], [128, 64], "float64", { codecs: ["bytes", { name: "gzip", configuration: { level: 1 } }] });
    const pool = createWorkerPool({ size: 2 });
    try {
      expect(Buffer.compare(await slabBytes(array, 128 * 64 * 8, pool), encodeNpy(await get(array)))).toBe(0);
    } finally {
      await pool.close();
    }
  });

  it("reads in one go what slabs would not help: small arrays, variable-length strings, rectilinear grids", async () => {
    const small = await filled("small", [8, 4], [2, 4], "float32");
    expect(npySlabPlan(small, 2 * 4 * 4)).toBeDefined(); // 4 slabs of one chunk row
    expect(npySlabPlan(small, 4 * 4 * 4)).toBeUndefined(); // two slabs: no gain
    expect(npySlabPlan(small)).toBeUndefined(); // far below the default slab size
    const text = await createArray(new MemoryStore(), "t", { shape: [40], chunkShape: [2], dataType: "string", registry });
    expect(npySlabPlan(text, 1)).toBeUndefined();
    const rect = await createArray(new MemoryStore(), "r", {
      shape: [40],
      chunkGrid: { name: "rectilinear", configuration: { kind: "inline", chunk_shapes: [[[2, 20]]] } },
      dataType: "uint8",
      registry,
    } as never);
    expect(npySlabPlan(rect, 1)).toBeUndefined();
  });

  it("a read failing mid-way fails the command naming the chunk, and leaves no output file", async () => {
    const array = await filled("bad", [12, 4], [2, 4], "float32", { codecs: ["bytes", { name: "gzip", configuration: { level: 1 } }] });
    await (array.store as MemoryStore).set("bad/c/4/0", new Uint8Array([1, 2, 3]));
    const plan = npySlabPlan(array, 2 * 4 * 4);
    if (plan === undefined) throw new Error("expected a slab plan");
    const output = join(dir, "bad.npy");
    const io = { write: async () => {}, error: () => {} } as unknown as CliIO;
    const failure = await writeOutput(output, io, (write) => writeNpySlabs(array, plan, undefined, write)).catch((e: unknown) => e);
    expect(failure).toBeInstanceOf(ZarrError);
    expect((failure as ZarrError).message).toContain("bad/c/4/0");
    expect(existsSync(output)).toBe(false);
    // An aborted read (zarr get's Ctrl-C) stops at the next slab and leaves no file either.
    const good = await filled("stop", [12, 4], [2, 4], "float32");
    const stopping = new AbortController();
    const stopped = await writeOutput(output, io, (write) =>
      writeNpySlabs(good, plan, undefined, async (piece) => {
        await write(piece);
        stopping.abort();
      }, stopping.signal),
    ).catch((e: unknown) => e);
    expect((stopped as ZarrError).code).toBe("ABORTED");
    expect(existsSync(output)).toBe(false);
    // A finished write stays.
    await writeOutput(output, io, async (write) => write("ok"));
    expect(readFileSync(output, "utf8")).toBe("ok");
  });
});

describe("zarr get of a large whole array", { timeout: 60_000 }, () => {
  it("writes slab by slab the same .npy as one read, with and without workers; a bad chunk leaves no file", async () => {
    const { FileSystemStore } = await import("@zarr/store-fs");
    const { zarr, zarrOk } = await import("./helpers.js");
    // 8704×2048 float32 (68 MiB) in chunk rows of 4 MiB: slabs of 4096, 4096 and 512 rows.
    // Only three chunks are stored; the others read as the fill value.
    const root = join(dir, "large.zarr");
    const store = new FileSystemStore(root);
    const array = await createArray(store, "x", {
      shape: [8704, 2048],
      chunkShape: [512, 2048],
      dataType: "float32",
      fillValue: 1.5,
      codecs: ["bytes", { name: "gzip", configuration: { level: 1 } }],
      registry,
    });
    expect(npySlabPlan(array)).toEqual({ slabRows: 4096, rowElements: 2048 });
    const chunk = (seed: number) => Float32Array.from({ length: 512 * 2048 }, (_, i) => seed + (i % 1000));
    for (const [row, seed] of [[0, 10], [8, 20000], [16, 40000]]) {
      await set(array, [slice(row * 512, row * 512 + 512), null], chunk(seed));
    }
    const whole = join(dir, "whole.npy");
    await zarrOk(["get", root, "x", "--select", "...", "-o", whole]);
    for (const workers of ["0", "2"]) {
      const slabs = join(dir, `slabs-${workers}.npy`);
      await zarrOk(["get", root, "x", "-o", slabs, "--workers", workers]);
      expect(Buffer.compare(readFileSync(slabs), readFileSync(whole))).toBe(0);
      rmSync(slabs);
    }
    await store.set("x/c/16/0", new Uint8Array([31, 139, 8, 0, 1, 2])); // a broken gzip member, in the last slab
    const failed = await zarr(["get", root, "x", "-o", join(dir, "broken.npy")]);
    expect(failed.code).toBe(1);
    expect(failed.stderr.toString()).toContain("x/c/16/0");
    expect(existsSync(join(dir, "broken.npy"))).toBe(false);
  });
});
