// Partitioned `zarr convert` and `zarr geozarr pyramid`: 4 parts as 4 concurrent processes,
// against the local file system and against s3rver on 127.0.0.1, byte-identical object by
// object to one process; a pyramid part killed with SIGKILL mid-way and run again gives the
// same final bytes; regions that share a chunk are refused.
import { spawn } from "node:child_process";
import { existsSync, readdirSync, } from "node:fs";
import path from "node:path";
import { createArray, set } from "@zarr/core";
import { createDataset } from "@zarr/geozarr";
import type { Store } from "@zarr/spec";
import { FileSystemStore } from "@zarr/store-fs";
import { S3Store } from "@zarr/store-s3";
import { consolidateMetadataV2, createArrayV2, createGroupV2 } from "@zarr/v2-compat";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { cliRegistry } from "../src/registry.js";
import { CLI, removeTempDirs, tempDir, zarr } from "./helpers.js";
import { type LocalS3, S3_ENV, startLocalS3 } from "./local-s3.js";


let dir: string;
let v2: string;
let geo: string;
let s3: LocalS3;

/** A consolidated Zarr v2 hierarchy: ints in 100 chunks, and fixed-length strings. */
async function writeV2(root: string): Promise<void> {
  const store = new FileSystemStore(root);
  const registry = cliRegistry();
  await createGroupV2(store, "", { attributes: { title: "v2 parts" }, registry });
  const a = await createArrayV2(store, "a", { shape: [40, 40], chunks: [4, 4], dtype: "<i4", compressor: { id: "zlib", level: 1 }, registry });
  await set(a, null, Int32Array.from({ length: 1600 }, (_, i) => i * 7));
  await createGroupV2(store, "g", { registry });
  const s = await createArrayV2(store, "g/s", { shape: [30], chunks: [7], dtype: "<U5", registry });
  await set(s, null, Array.from({ length: 30 }, (_, i) => `s${i}`));
  await consolidateMetadataV2(store, "", { registry });
}

/** A GeoZarr Dataset of two variables on a 96×128 grid, in 16×16 chunks. */
async function writeGeo(root: string): Promise<void> {
  const store = new FileSystemStore(root);
  await createDataset(store, "", { crs: { code: "EPSG:32633" }, spatial: { dimensions: ["y", "x"], transform: [10, 0, 500000, 0, -10, 5000000], shape: [96, 128] } });
  for (const [name, dataType] of [["u", "uint16"], ["f", "float32"]] as const) {
    const arr = await createArray(store, name, { shape: [96, 128], chunkShape: [16, 16], dataType, dimensionNames: ["y", "x"], fillValue: 0 });
    const n = 96 * 128;
    await set(arr, null, name === "u" ? Uint16Array.from({ length: n }, (_, i) => (i * 37) % 1009) : Float32Array.from({ length: n }, (_, i) => Math.sin(i) * 100));
  }
}

beforeAll(async () => {
  dir = tempDir("zarr-cli-parts2-");
  v2 = path.join(dir, "v2.zarr");
  geo = path.join(dir, "geo.zarr");
  await writeV2(v2);
  await writeGeo(geo);
  s3 = await startLocalS3("zarr-cli-parts2-s3", dir);
}, 60_000);

afterAll(async () => {
  await s3?.close();
  removeTempDirs();
});

const s3Url = (prefix: string) => s3.url(prefix);
const credentials = { accessKeyId: "S3RVER", secretAccessKey: "S3RVER" };

/** Every key of a store with its bytes (through the store: temporary files are not keys). */
async function objects(store: Store): Promise<Map<string, Buffer>> {
  const out = new Map<string, Buffer>();
  for await (const key of store.list?.() ?? []) out.set(key, Buffer.from((await store.get(key)) as Uint8Array));
  return new Map([...out].sort(([a], [b]) => (a < b ? -1 : 1)));
}

async function s3Objects(prefix: string): Promise<Map<string, Buffer>> {
  const store = new S3Store({ bucket: "jobs", prefix, endpoint: s3.endpoint, forcePathStyle: true, credentials, region: "us-east-1" });
  try {
    return await objects(store);
  } finally {
    store.close();
  }
}

async function ok(args: string[], env: Record<string, string> = {}): Promise<string> {
  const r = await zarr(args, { env });
  if (r.code !== 0) throw new Error(`${r.command} exited ${r.code}: ${r.stderr}`);
  return r.stdout.toString();
}

const PYRAMID = ["--min-size", "8", "--workers", "0"];

describe("zarr convert in 4 concurrent processes", () => {
  const args = (dst: string) => ["convert", v2, dst, "--variable-length-strings"];

  it("into a directory: the same objects as one zarr convert, no markers left", async () => {
    await ok(args(path.join(dir, "convert-single")));
    const dst = path.join(dir, "convert-parted");
    const outs = await Promise.all([0, 1, 2, 3].map((i) => ok([...args(dst), "--part", `${i}/4`])));
    for (const out of outs) expect(out).toMatch(/convert job [0-9a-f]{16} part \d\/4: wrote \d+ of \d+ units/);
    expect(existsSync(path.join(dst, "zarr.json"))).toBe(false);
    expect(await ok([...args(dst), "--parts", "4", "--finalize"])).toMatch(/finalized: all 4 parts done/);
    const want = await objects(new FileSystemStore(path.join(dir, "convert-single")));
    expect(want.size).toBeGreaterThan(100);
    expect(await objects(new FileSystemStore(dst))).toEqual(want);
  }, 120_000);

  it("into s3rver, --init first, the index from JOB_COMPLETION_INDEX: the same objects", async () => {
    await ok(args(s3Url("convert-single")), S3_ENV);
    await ok([...args(s3Url("convert-parted")), "--init"], S3_ENV);
    await Promise.all([0, 1, 2, 3].map((i) => ok([...args(s3Url("convert-parted")), "--parts", "4"], { ...S3_ENV, JOB_COMPLETION_INDEX: String(i) })));
    await ok([...args(s3Url("convert-parted")), "--parts", "4", "--finalize"], S3_ENV);
    const want = await s3Objects("convert-single");
    expect(want.size).toBeGreaterThan(100);
    expect(await s3Objects("convert-parted")).toEqual(want);
  }, 120_000);

  it("refuses --in-place in parts", async () => {
    const r = await zarr(["convert", v2, "--in-place", "--part", "0/2"]);
    expect(r.code).not.toBe(0);
    expect(r.stderr).toContain("--in-place runs in one process: it cannot run in parts");
  });
});

describe("zarr geozarr pyramid in 4 concurrent processes", () => {
  const args = (dst: string) => ["geozarr", "pyramid", geo, dst, ...PYRAMID];

  it("into a directory: the same objects as one zarr geozarr pyramid", async () => {
    await ok(args(path.join(dir, "pyramid-single")));
    const dst = path.join(dir, "pyramid-parted");
    await Promise.all([0, 1, 2, 3].map((i) => ok([...args(dst), "--part", `${i}/4`])));
    expect(await ok([...args(dst), "--parts", "4", "--finalize"])).toMatch(/pyramid job [0-9a-f]{16} finalized: all 4 parts done/);
    const want = await objects(new FileSystemStore(path.join(dir, "pyramid-single")));
    expect(want.size).toBeGreaterThan(100);
    expect(await objects(new FileSystemStore(dst))).toEqual(want);
  }, 120_000);

  it("into s3rver, the index from AWS_BATCH_JOB_ARRAY_INDEX: the same objects", async () => {
    await ok(args(s3Url("pyramid-single")), S3_ENV);
    await Promise.all([0, 1, 2, 3].map((i) => ok([...args(s3Url("pyramid-parted")), "--parts", "4"], { ...S3_ENV, AWS_BATCH_JOB_ARRAY_INDEX: String(i) })));
    await ok([...args(s3Url("pyramid-parted")), "--parts", "4", "--finalize"], S3_ENV);
    const want = await s3Objects("pyramid-single");
    expect(want.size).toBeGreaterThan(100);
    expect(await s3Objects("pyramid-parted")).toEqual(want);
  }, 120_000);

  it("by regions: aligned ones give the same objects, ones sharing a chunk are refused by name", async () => {
    const dst = path.join(dir, "pyramid-regions");
    // With --min-size 24, levels 0-2: a level-2 chunk covers 64×64 level-0 pixels, so columns
    // split at 48 (a level-0 chunk edge) share level-2 chunks, and split at 64 share none.
    const three = ["geozarr", "pyramid", geo, dst, "--min-size", "24", "--workers", "0"];
    const bad = await zarr([...three, "--part", "0/2", "--regions", "0:96,0:48;0:96,48:128"]);
    expect(bad.code).not.toBe(0);
    expect(bad.stderr).toMatch(/Regions 0 \[0:96, 0:48\] and 1 \[0:96, 48:128\] overlap in chunk "\d\/f\/c\/\d\/\d" \(level \d, variable f\)/);
    expect(existsSync(dst)).toBe(false);
    const regions = ["--regions", "0:96,0:64;0:96,64:128"];
    await Promise.all([0, 1].map((i) => ok([...three, "--part", `${i}/2`, ...regions])));
    await ok([...three, "--parts", "2", "--finalize", ...regions]);
    await ok(["geozarr", "pyramid", geo, path.join(dir, "pyramid-regions-single"), "--min-size", "24", "--workers", "0"]);
    expect(await objects(new FileSystemStore(dst))).toEqual(await objects(new FileSystemStore(path.join(dir, "pyramid-regions-single"))));
  }, 120_000);
});

describe("a pyramid part killed with SIGKILL", () => {
  it("run again with --resume gives the same final bytes", async () => {
    const dst = path.join(dir, "pyramid-killed");
    const args = ["geozarr", "pyramid", geo, dst, "--chunks", "8", ...PYRAMID];
    const chunkFiles = () => (existsSync(path.join(dst, "0")) ? readdirSync(path.join(dst, "0"), { recursive: true }).length : 0);
    // One chunk at a time, so the kill lands between and during writes, not after the part.
    const child = spawn(process.execPath, [CLI, ...args, "--part", "0/2", "-j", "1"], { stdio: "ignore" });
    const exited = new Promise<NodeJS.Signals | null>((resolve) => child.on("exit", (_code, signal) => resolve(signal)));
    while (chunkFiles() < 10 && child.exitCode === null) await new Promise((r) => setTimeout(r, 2));
    child.kill("SIGKILL");
    expect(await exited).toBe("SIGKILL");
    const early = await zarr([...args, "--parts", "2", "--finalize"]);
    expect(early.code).not.toBe(0);
    expect(early.stderr).toMatch(/JOB_INCOMPLETE.*2 of 2 parts have not finished/);
    expect(await ok([...args, "--part", "0/2", "--resume"])).toMatch(/already there/);
    await ok([...args, "--part", "1/2"]);
    await ok([...args, "--parts", "2", "--finalize"]);
    await ok(["geozarr", "pyramid", geo, path.join(dir, "pyramid-killed-single"), "--chunks", "8", ...PYRAMID]);
    expect(await objects(new FileSystemStore(dst))).toEqual(await objects(new FileSystemStore(path.join(dir, "pyramid-killed-single"))));
  }, 120_000);
});
