/**
 * Sharded reads while another writer replaces the shard: every read returns the data of
 * one whole version of the shard (old or new), or fails with `STORE_CHANGED`, never
 * another inner chunk's bytes. File store (a rewrite injected between the index read and
 * the data read, and a child process rewriting the shard in a loop), HTTP (a real server
 * whose object changes between requests, with ETags and If-Match).
 */
import { spawn } from "node:child_process";
import fs from "node:fs";
import http from "node:http";
import type { AddressInfo } from "node:net";
import os from "node:os";
import path from "node:path";
import {
  type ByteRange,
  createArray,
  get,
  MemoryStore,
  openArray,
  type Store,
  set,
  slice,
  type VersionedReadOptions,
  ZarrError,
} from "@zarr/core";
import { FileSystemStore } from "@zarr/store-fs";
import { HttpStore } from "@zarr/store-http";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { registry } from "../src/index.js";

const SHARD = "a/c/0";
const N = 256;
const INNER = 8;

/** Version A: element i is i. Version B: inner chunk 0 all fill (so empty: every other inner chunk moved), the rest i + 100 000. */
const A = Int32Array.from({ length: N }, (_, i) => i);
const B = Int32Array.from({ length: N }, (_, i) => (i < INNER ? 0 : i + 100_000));

async function writeArray(store: Store, data: Int32Array): Promise<void> {
  const arr = await createArray(store, "a", {
    shape: [N],
    dataType: "int32",
    chunkShape: [N],
    registry,
    codecs: [{ name: "sharding_indexed", configuration: { chunk_shape: [INNER], codecs: [{ name: "bytes", configuration: { endian: "little" } }] } }],
  });
  await set(arr, null, data);
}

let metadata: Uint8Array;
let shardA: Uint8Array;
let shardB: Uint8Array;
const dirs: string[] = [];

beforeAll(async () => {
  const a = new MemoryStore();
  await writeArray(a, A);
  const b = new MemoryStore();
  await writeArray(b, B);
  metadata = a.map.get("a/zarr.json") as Uint8Array;
  shardA = a.map.get(SHARD) as Uint8Array;
  shardB = b.map.get(SHARD) as Uint8Array;
});
afterAll(() => {
  for (const dir of dirs) fs.rmSync(dir, { recursive: true, force: true });
});

function tempStore(): FileSystemStore {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "zarr-consistent-"));
  dirs.push(dir);
  fs.mkdirSync(path.join(dir, "a", "c"), { recursive: true });
  fs.writeFileSync(path.join(dir, "a", "zarr.json"), metadata);
  fs.writeFileSync(path.join(dir, SHARD), shardA);
  return new FileSystemStore(dir);
}

/** Which version elements `from`.. (as many as `got` holds) come from: "A", "B", or "mixed" (wrong data). */
function versionOf(got: Int32Array, from: number): "A" | "B" | "mixed" {
  const same = (v: Int32Array) => got.every((x, i) => x === v[from + i]);
  if (same(A)) return "A";
  if (same(B)) return "B";
  return "mixed";
}

describe("file store", () => {
  it("a shard replaced between the index read and the inner chunk read gives the new data", async () => {
    const fsStore = tempStore();
    const reads: string[] = [];
    // The store as the array sees it: versioned reads go to the file store, and the
    // first one after the index read replaces the shard (as another process would).
    const store = Object.create(fsStore) as FileSystemStore;
    Object.defineProperty(store, "workerStore", { value: undefined });
    Object.defineProperty(store, "getVersioned", {
      value: async (key: string, range: ByteRange | undefined, options?: VersionedReadOptions) => {
        const isIndex = range !== undefined && "suffixLength" in range;
        if (key === SHARD && !isIndex && reads.length === 1) await fsStore.set(SHARD, shardB);
        if (key === SHARD) reads.push(isIndex ? "index" : "data");
        return fsStore.getVersioned(key, range, options);
      },
    });
    const arr = await openArray(store, "a", { registry });
    const got = (await get(arr, [slice(40, 48)])).data as Int32Array;
    expect(versionOf(got, 40)).toBe("B");
    expect(reads).toEqual(["index", "data", "index", "data"]);
  });

  it("a child process rewriting the shard in a loop: every read is one whole version or STORE_CHANGED", async () => {
    const store = tempStore();
    const target = path.join(store.root, SHARD);
    const a = path.join(store.root, "A.bin");
    const b = path.join(store.root, "B.bin");
    fs.writeFileSync(a, shardA);
    fs.writeFileSync(b, shardB);
    // Replaces the shard the way stores write (a new file renamed over it), about every
    // millisecond, alternating the two versions, until killed.
    const script = `
      const fs = require("node:fs");
      const [target, a, b] = process.argv.slice(1);
      const versions = [fs.readFileSync(a), fs.readFileSync(b)];
      const pause = new Int32Array(new SharedArrayBuffer(4));
      process.stdout.write("ready\\n");
      for (let i = 0; ; i++) {
        const tmp = target + ".tmp" + (i % 2);
        fs.writeFileSync(tmp, versions[i % 2]);
        fs.renameSync(tmp, target);
        Atomics.wait(pause, 0, 0, 1);
      }`;
    const child = spawn(process.execPath, ["-e", script, target, a, b], { stdio: ["ignore", "pipe", "inherit"] });
    try {
      await new Promise<void>((resolve, reject) => {
        child.stdout.once("data", () => resolve());
        child.once("error", reject);
      });
      const outcomes = { A: 0, B: 0, changed: 0, mixed: 0 };
      let arr = await openArray(store, "a", { registry });
      for (let i = 0; i < 1500; i++) {
        if (i % 100 === 0) arr = await openArray(store, "a", { registry }); // a cold index cache now and then
        const from = (i * 37) % (N - 12);
        try {
          const got = (await get(arr, [slice(from, from + 12)])).data as Int32Array;
          outcomes[versionOf(got, from)]++;
        } catch (error) {
          if (!(error instanceof ZarrError) || error.code !== "STORE_CHANGED") throw error;
          outcomes.changed++;
        }
      }
      console.log("reads under a concurrent rewriter:", outcomes);
      expect(outcomes.mixed).toBe(0);
      expect(outcomes.A).toBeGreaterThan(0);
      expect(outcomes.B).toBeGreaterThan(0);
    } finally {
      child.kill("SIGKILL");
    }
  });
});
